// A bulk delete of 5,000 (issue 15, item 2: "bad input: a bulk delete of 5,000"), in Chromium
// against the reference service: the typed confirmation, the batches' progress, one delete per
// customer and the same queue after a restart. Registered by ./bulk.suite.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Op } from '../../../src-shared';
import { launchApp, startTestService, type AppHandle, type TestService } from '../../support/app';
import { signIn, waitRows } from '../../support/app-steps';
import { AREA, drawBox, selectedCount } from './bulk-map';
import { testBoundMs } from '../../support/until';

const USER = 'rep';
// Each test's bound is its lane's (test/support/lanes.ts): a busy machine makes it slower, not red.
const WAIT = testBoundMs();

describe('field day: a bulk delete of 5,000', () => {
  const MANY = 5_000;
  let big: TestService;
  let bigApp: AppHandle;

  beforeAll(async () => {
    big = await startTestService({ customers: MANY, seed: 16 });
    // All of them on a 100 × 50 grid inside the area.
    big.store.customers(USER).forEach((c, i) =>
      big.store.updateCustomerDirect(USER, c.id, {
        latitude: AREA.south + 0.0005 + Math.floor(i / 100) * 0.001,
        longitude: AREA.west + 0.0005 + (i % 100) * 0.001,
      }),
    );
    bigApp = await launchApp({ serviceUrl: big.url });
    await signIn(bigApp, big);
  });

  afterAll(async () => {
    await bigApp?.close();
    await big?.stop();
  });

  it(
    'asks for the number typed, queues one delete per customer in batches with progress, and keeps them across a restart',
    { timeout: WAIT },
    async () => {
      let { page } = bigApp;
      await waitRows(page, 'Customers', MANY);
      await bigApp.setOffline(true);
      await drawBox(page, AREA);
      await expect.poll(() => selectedCount(page)).toBe(String(MANY));
      await page.click('aside.selection button:has-text("Delete 5,000 customers…")');
      const dialog = page.locator('dialog[open]');
      expect(await dialog.locator('h2').textContent()).toBe('Delete 5,000 customers?');
      const confirm = dialog.locator('button:has-text("Delete 5,000 customers")');
      expect(await confirm.isDisabled()).toBe(true);
      await dialog.locator('input').fill('500');
      expect(await confirm.isDisabled()).toBe(true);
      await dialog.locator('input').fill('5000');
      expect(await confirm.isDisabled()).toBe(false);
      // The page's longest task while the batches are queued (reported, not asserted).
      await page.evaluate(() => {
        const w = window as unknown as { longest: number };
        w.longest = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) w.longest = Math.max(w.longest, e.duration);
        }).observe({ type: 'longtask' });
      });
      await confirm.click();
      // Progress while the batches go to the outbox, then the result.
      await expect
        .poll(() => page.textContent('aside.selection [data-queuing]'), { interval: 20 })
        .toMatch(/Delete: queuing [1-9][\d,]* of 5,000 changes/);
      await expect
        .poll(() => page.textContent('aside.selection .message'))
        .toContain('5,000 customers deleted.');
      const longest = await page.evaluate(() => (window as unknown as { longest: number }).longest);
      console.log(`bulk delete of 5,000: longest task while queuing ${Math.round(longest)} ms`);
      const ops = await bigApp.call<Op[]>('listOps');
      expect(ops).toHaveLength(MANY);
      expect(ops.every((op) => op.kind === 'deleteCustomer')).toBe(true);
      expect(new Set(ops.map((op) => op.target)).size).toBe(MANY);
      await waitRows(page, 'Customers', 0);

      // Nothing lost across a restart: the same 5,000 deletes are queued, none twice.
      await bigApp.restart();
      page = bigApp.page;
      await page.waitForSelector('.top-bar');
      const after = await bigApp.call<Op[]>('listOps');
      expect(after.map((op) => op.opId).sort()).toEqual(ops.map((op) => op.opId).sort());
      expect(big.store.customers(USER)).toHaveLength(MANY);
    },
  );
});
