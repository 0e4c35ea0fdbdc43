// The status bar never says what the list does not show, at 20,000 customers through the browser
// runner: after an online restart it never reads "Synced" over a list still short of what the
// cache holds, and after signing out and in again it never names the list's showing while
// nothing is being read into it. The page records every status text from its first moment
// (the harness's page probe, kept across restarts) with the list's count beside it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import { signIn, waitSync } from '../support/app-steps';
import { STATUS_PROBE, clearStatusLog, statusLog } from '../support/status-probe';

const COUNT = 20_000;

const rows = (page: Page) => page.getAttribute('[aria-label="Customers"]', 'data-rows');

let service: TestService;
let app: AppHandle;

beforeAll(async () => {
  service = await startTestService({ customers: COUNT, seed: 31 });
  app = await launchApp({ serviceUrl: service.url, pageProbe: STATUS_PROBE });
});

afterAll(async () => {
  await app?.close();
  await service?.stop();
});

describe('the status bar over a 20,000-customer list', () => {
  it('says "Synced" after an online restart only once the list shows the cache', async () => {
    await expect.poll(() => app.dataChannelOpen()).toBe(true);
    await signIn(app, service);
    await expect.poll(() => rows(app.page)).toBe(String(COUNT));
    await waitSync(app.page, 'synced');

    await app.restart();
    const { page } = app;
    await expect.poll(() => rows(page)).toBe(String(COUNT));
    await waitSync(page, 'synced');
    const log = await statusLog(page);
    const synced = log.filter((e) => e.kind === 'synced' || e.text.startsWith('Synced'));
    expect(synced.length).toBeGreaterThan(0);
    expect(synced.filter((e) => e.rows !== COUNT)).toEqual([]);
  });

  it('after signing out and in again, names no count the list does not show', async () => {
    const { page } = app;
    await page.click('.account-menu button.who');
    await page.click('[role=menu] button:has-text("Sign out")');
    await page.waitForSelector('main.sign-in');
    await clearStatusLog(page);
    await signIn(app, service);
    await expect.poll(() => rows(page)).toBe(String(COUNT));
    await waitSync(page, 'synced');
    const log = await statusLog(page);
    // The cache went with the sign-out: "Showing 20,000 customers…" is true only once this
    // sign-in's data was received and saved, never while the first list is still on its way.
    const saved = log.findIndex((e) => /^Saving [\d,]+ of 20,000/.test(e.text));
    expect(saved).toBeGreaterThan(-1);
    expect(log.slice(0, saved).filter((e) => e.text.startsWith('Showing'))).toEqual([]);
  });
});
