// The editor writes lastVisit/remindAt in the account's unit, end to end: the built renderer in
// Chromium with the real main services against the reference service, on an account whose
// timestamps are milliseconds. A never-visited customer (no value of its own to copy the unit
// from) and a new customer both get milliseconds, as the visit dialog writes them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import { signIn, syncNow, waitRows, waitRowsInHook } from '../support/app-steps';

const USER = 'rep';
let service: TestService;
let app: AppHandle;
let target: { id: string; name: string };

beforeAll(async () => {
  service = await startTestService({ customers: 20, seed: 83 });
  // A milliseconds account: every visit and reminder stored in ms.
  const all = service.store.customers(USER);
  all.forEach((c, i) => {
    const at = Date.UTC(2025, 0, 1 + i);
    service.store.updateCustomerDirect(USER, c.id, { lastVisit: at, remindAt: at + 3_600_000 });
  });
  const counts = new Map<string, number>();
  for (const c of all) counts.set(c.name, (counts.get(c.name) ?? 0) + 1);
  const unique = all.find(
    (c) =>
      counts.get(c.name) === 1 &&
      all.every((o) => o === c || !o.name.toLowerCase().includes(c.name.toLowerCase())),
  )!;
  service.store.updateCustomerDirect(USER, unique.id, { lastVisit: 0, remindAt: 0 });
  target = { id: unique.id, name: unique.name };
  app = await launchApp({ serviceUrl: service.url });
  await signIn(app, service);
  await waitRowsInHook(app.page, 'Customers', all.length);
  await app.page.waitForSelector('.sync-status[data-sync="synced"]');
});

afterAll(async () => {
  await app?.close();
  await service?.stop();
});

/** Epoch ms of a local date (and time) as the page's date inputs read it. */
function localMs(y: number, m: number, d: number, h = 0, min = 0): Promise<number> {
  return app.page.evaluate(
    ([a, b, c, e, f]) => new Date(a!, b!, c, e, f).getTime(),
    [y, m, d, h, min],
  );
}

describe('the editor on a milliseconds account', () => {
  it('writes a never-visited customer’s dates in milliseconds', async () => {
    const { page } = app;
    await page.fill('input[aria-label="Search customers"]', target.name);
    await waitRows(page, 'Customers', 1);
    await page.click('[aria-label="Customers"] button.customer-row');
    await expect
      .poll(() => page.textContent('aside[aria-label="Customer details"] h2'))
      .toBe(target.name);
    await page.click('aside[aria-label="Customer details"] button:has-text("Edit")');
    await page.waitForSelector(`aside[data-editing="${target.id}"]`);
    await page.fill('#ed-lastVisit', '2026-03-14');
    await page.fill('#ed-remindAt', '2026-03-20T09:30');
    await page.click('button:has-text("Save changes")');
    await page.waitForSelector('aside[data-editing]', { state: 'detached' });
    await syncNow(page);
    const want = {
      lastVisit: await localMs(2026, 2, 14),
      remindAt: await localMs(2026, 2, 20, 9, 30),
    };
    await expect
      .poll(() => {
        const c = service.store.customer(USER, target.id)!;
        return { lastVisit: c.lastVisit, remindAt: c.remindAt };
      })
      .toEqual(want);
  });

  it('writes a new customer’s dates in milliseconds', async () => {
    const { page } = app;
    await page.keyboard.press('Escape');
    await page.click('button:has-text("New customer")');
    await page.waitForSelector('aside[data-editing="new"]');
    await page.fill('#ed-name', 'Unit Check New');
    await page.fill('#ed-lastVisit', '2026-04-02');
    await page.click('button:has-text("Create customer")');
    await page.waitForSelector('aside[data-editing]', { state: 'detached' });
    await syncNow(page);
    const want = await localMs(2026, 3, 2);
    await expect
      .poll(() => service.store.customers(USER).find((c) => c.name === 'Unit Check New')?.lastVisit)
      .toBe(want);
  });
});
