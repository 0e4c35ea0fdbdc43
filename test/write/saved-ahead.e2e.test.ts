// A new customer shows at once and a deleted one is gone at once, before the cache worker has
// heard of either: main's road is held at the runner's gate (as a busy worker holds it) from Save
// until main has sent both and pulled, then handed on in main's order. The page lays what it
// saved over the rows it read (src-renderer/src/cache/saved-ahead.svelte.ts) until it reads the
// cache's version back; the status bar counts the saved changes as queued meanwhile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import { heldKinds, signIn, untilMainSynced, waitRows, waitSync } from '../support/app-steps';

const USER = 'rep';
const COUNT = 30;

let service: TestService;
let app: AppHandle;

beforeAll(async () => {
  service = await startTestService({ customers: COUNT, seed: 28 });
  app = await launchApp({ serviceUrl: service.url });
});

afterAll(async () => {
  await app?.close();
  await service?.stop();
});

const rows = (page: Page) => page.getAttribute('[aria-label="Customers"]', 'data-rows');
const status = (page: Page) => page.textContent('.sync-status .text');
const listed = (page: Page, id: string) =>
  page.locator(`[aria-label="Customers"] button.customer-row[data-id="${id}"]`).count();

describe('a create and a delete while the cache worker has not applied them', () => {
  it('lists the new customer and drops the deleted one at once', async () => {
    const { page } = app;
    await signIn(app, service);
    await waitRows(page, 'Customers', COUNT);
    await waitSync(page, 'synced');
    await expect.poll(() => app.dataChannelOpen()).toBe(true);
    const gone = service.store.customers(USER)[3]!;
    const gate = app.gateRoad();

    await page.click('button:has-text("New customer")');
    await page.fill('#ed-name', 'Walk-in prospect');
    await page.click('button:has-text("Create customer")');
    await page.waitForSelector('aside[data-editing]', { state: 'detached' });
    // Listed and opened under its temporary id.
    await expect.poll(() => rows(page)).toBe(String(COUNT + 1));
    await expect
      .poll(() => page.textContent('aside[aria-label="Customer details"] h2'))
      .toBe('Walk-in prospect');
    expect(await status(page)).not.toMatch(/^Synced/);

    await page.fill('input[aria-label="Search customers"]', gone.name);
    await page.click(`[aria-label="Customers"] button.customer-row[data-id="${gone.id}"]`);
    await page.click('aside[aria-label="Customer details"] button:has-text("Edit")');
    await page.click('button:has-text("Delete…")');
    await page.click('dialog[open] button:has-text("Delete customer")');
    await page.waitForSelector('aside[data-editing]', { state: 'detached' });
    await expect.poll(() => listed(page, gone.id)).toBe(0);
    await page.fill('input[aria-label="Search customers"]', '');
    await expect.poll(() => rows(page)).toBe(String(COUNT));
    // Nothing of main's reached the cache worker: its mirrors are all still held.
    expect(heldKinds(gate)).toContain('outbox:changed');

    await untilMainSynced(app);
    const created = service.store.customers(USER).find((c) => c.name === 'Walk-in prospect')!;
    expect(service.store.customer(USER, gone.id)).toBeUndefined();
    gate.end();
    for (let i = 0; i < gate.held(); i++) {
      await gate.release(i, 'socket');
      // After each message: one of the new customer, none of the deleted one.
      await expect.poll(() => rows(page)).toBe(String(COUNT));
      expect(await listed(page, gone.id)).toBe(0);
    }
    await waitSync(page, 'synced');
    expect(await rows(page)).toBe(String(COUNT));
    await page.fill('input[aria-label="Search customers"]', 'Walk-in prospect');
    await expect.poll(() => listed(page, created.id)).toBe(1);
  });
});
