// The password changed on the service while changes were queued: the status says sign-in is
// needed and offers "Sign in again"; a wrong password is refused with the changes kept; the
// right one sends the queued change, and nothing was dropped on the way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import { signIn, syncNow, waitRows, waitSync } from '../support/app-steps';

const USER = 'rep';
let service: TestService;
let app: AppHandle;

beforeAll(async () => {
  service = await startTestService({ customers: 10, seed: 5 });
  app = await launchApp({ serviceUrl: service.url });
});

afterAll(async () => {
  await app?.close();
  await service?.stop();
});

describe('sign in again after the service refuses the saved password', () => {
  it('keeps the queued change and sends it once the rep signs in again', async () => {
    const { page } = app;
    await signIn(app, service);
    await waitRows(page, 'Customers', 10);
    await waitSync(page, 'synced');
    service.store.setPassword(USER, 'changed-on-the-service');

    const [target] = service.store.customers(USER);
    await page.fill('input[aria-label="Search customers"]', target!.name);
    await waitRows(page, 'Customers', 1);
    await page.click('[aria-label="Customers"] button.customer-row >> nth=0');
    await expect
      .poll(() => page.textContent('aside[aria-label="Customer details"] h2'))
      .toBe(target!.name);
    await page.click('aside[aria-label="Customer details"] button:has-text("Edit")');
    await page.fill('#ed-city', 'Reauth City');
    await page.keyboard.press('Control+s');
    await page.waitForSelector('aside[data-editing]', { state: 'detached' });

    await syncNow(page);
    await waitSync(page, 'auth-required');
    expect(await page.textContent('.sync-status .text')).toContain('Sign-in needed');
    expect((await app.call<unknown[]>('listOps')).length).toBe(1);

    await page.click('.sync-status button.reauth');
    await page.fill('#reauth-pass', 'still-the-old-one-wrong');
    await page.click('dialog button[type=submit]');
    await page.waitForSelector('#reauth-error');
    expect(await page.textContent('#reauth-error')).toContain('refused');
    expect((await app.call<unknown[]>('listOps')).length).toBe(1);

    await page.fill('#reauth-pass', 'changed-on-the-service');
    await page.click('dialog button[type=submit]');
    await page.waitForSelector('dialog[open]', { state: 'detached' });
    await expect.poll(() => service.store.customer(USER, target!.id)?.city).toBe('Reauth City');
    await expect.poll(async () => (await app.call<unknown[]>('listOps')).length).toBe(0);
    await waitSync(page, 'synced');
    expect(service.store.customers(USER)).toHaveLength(10);
  });
});
