// Sign-in screen end to end: a fresh profile shows it; an http address off this computer and a
// wrong password are refused with a message and leave nothing stored; "Try the demo" opens the
// demo account with its pins on the map in one click.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import { mapSourceCount, renderedCount, screenshot } from '../support/app-steps';

let service: TestService;
let app: AppHandle;

beforeAll(async () => {
  service = await startTestService({ customers: 30, seed: 61 });
  app = await launchApp({ serviceUrl: service.url });
});

afterAll(async () => {
  await app?.close();
  await service?.stop();
});

describe('sign-in', () => {
  it('shows the sign-in screen on a fresh profile, with the offered address', async () => {
    const { page } = app;
    await page.waitForSelector('main.sign-in');
    expect(await page.inputValue('#si-url')).toBe(service.url);
    // Every field has a label.
    for (const id of ['si-url', 'si-user', 'si-pass']) {
      expect(await page.locator(`label[for="${id}"]`).count()).toBe(1);
    }
    await page.fill('#si-user', 'rep');
    await screenshot(page, 'signin');
  });

  it('refuses plain http to another computer with main’s message next to the field', async () => {
    const { page } = app;
    await page.fill('#si-url', 'http://example.com');
    await page.fill('#si-pass', 'whatever');
    await page.click('form button[type=submit]');
    await expect.poll(() => page.textContent('#si-url-msg')).toContain('https://');
    expect(await page.getAttribute('#si-url', 'aria-invalid')).toBe('true');
    // Refused before anything was sent: the password stays for the corrected address.
    expect(await page.inputValue('#si-pass')).toBe('whatever');
  });

  it('shows a clear message for a wrong password and stores nothing', async () => {
    const { page } = app;
    service.resetStats();
    await page.fill('#si-url', service.url);
    await page.fill('#si-user', service.account.username);
    await page.fill('#si-pass', 'not-the-password');
    await page.click('form button[type=submit]');
    const alert = page.locator('.form-error[role=alert]');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Wrong user name or password');
    expect(service.stats().requests).toBeGreaterThan(0);
    expect(await page.inputValue('#si-pass')).toBe('');
    expect(await app.credentialStore.list()).toEqual([]);
    expect(await app.call('listAccounts')).toEqual([]);
    expect(await app.call('currentAccount')).toBeNull();
    // Still the sign-in screen, and no account's app behind it.
    expect(await page.locator('main.sign-in').isVisible()).toBe(true);
    expect(await page.locator('.top-bar').count()).toBe(0);
  });

  it('opens the demo with one click and draws its pins', async () => {
    const { page } = app;
    await page.click('text=Try the demo');
    await page.waitForSelector('.top-bar');
    await expect.poll(() => mapSourceCount(page)).toBeGreaterThan(100);
    await expect.poll(() => renderedCount(page)).toBeGreaterThan(100);
    const account = await app.call<{ demo: boolean }>('currentAccount');
    expect(account.demo).toBe(true);
  });

  it('asks before signing out drops an unsynced change, then drops the account and its cache', async () => {
    const { page } = app;
    // Sending is stopped first: a queued change otherwise goes out within a second by itself.
    await app.setOffline(true);
    await page.keyboard.press('n');
    await page.fill('#ed-name', 'Unsynced change');
    await page.keyboard.press('Control+s');
    await page.waitForSelector('aside[data-editing]', { state: 'detached' });
    await page.click('.account-menu button.who');
    await page.click('[role=menu] button:has-text("Sign out")');
    const dialog = page.locator('dialog[open]');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('1 change has not reached the service');
    // Escape cancels: still signed in.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await app.call('currentAccount')).not.toBeNull();
    await page.click('.account-menu button.who');
    await page.click('[role=menu] button:has-text("Sign out")');
    await page.click('dialog button:has-text("Sign out and drop changes")');
    await page.waitForSelector('main.sign-in');
    expect(await app.call('currentAccount')).toBeNull();
    expect(await app.call('listAccounts')).toEqual([]);
    // The sign-in screen shows at once; the cache's deletion finishes just after, and a restart
    // of the window brings no cache of the account back.
    const cacheDatabases = async () =>
      (await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name))).filter(
        (n) => n?.startsWith('fieldmap-'),
      );
    await expect.poll(cacheDatabases).toEqual([]);
    await page.reload();
    await page.waitForSelector('main.sign-in');
    expect(await cacheDatabases()).toEqual([]);
  });
});
