// A laptop whose disk is full: the cache worker's IndexedDB writes throw QuotaExceededError (a
// real one: Chromium's DevTools protocol limits the app origin's quota). The status bar must not
// say "Synced" over a cache that does not hold the account; it says the customers were not saved
// on this laptop, that no change is lost and what to do, and the page keeps trying. Once there is
// room again, "Sync now" saves the account and "Synced" comes with the list full, and the change
// the rep made meanwhile is on the service once.
import type { CDPSession } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import { signIn, waitRows } from '../support/app-steps';

const USER = 'rep';
const CUSTOMERS = 40;
let service: TestService;
let app: AppHandle;
let cdp: CDPSession;

beforeAll(async () => {
  service = await startTestService({ customers: CUSTOMERS, seed: 28 });
  app = await launchApp({ serviceUrl: service.url });
  cdp = await app.context.newCDPSession(app.page);
});

afterAll(async () => {
  await app?.close();
  await service?.stop().catch(() => undefined);
});

type Shown = { sync: string | null; text: string | null; rows: string | null };

describe('a cache that cannot save the account', () => {
  it('never says "Synced", says why and what to do, and saves the account once there is room', async () => {
    const { page } = app;
    const origin = new URL(page.url()).origin;
    // One byte: the account's first write into the cache is refused, as on a full disk.
    await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: 1 });

    // Every state the status bar shows from here on, as the page paints it.
    await page.evaluate(() => {
      const shown: Shown[] = [];
      (globalThis as unknown as { __shown: Shown[] }).__shown = shown;
      const note = () => {
        const bar = document.querySelector('.sync-status');
        const now = {
          sync: bar?.getAttribute('data-sync') ?? null,
          text: bar?.querySelector('.text')?.textContent ?? null,
          rows:
            document.querySelector('[aria-label="Customers"]')?.getAttribute('data-rows') ?? null,
        };
        const last = shown.at(-1);
        if (!last || last.sync !== now.sync || last.text !== now.text) shown.push(now);
      };
      new MutationObserver(note).observe(document.documentElement, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
        attributeFilter: ['data-sync'],
      });
    });
    const shown = () =>
      page.evaluate(() => (globalThis as unknown as { __shown: Shown[] }).__shown.slice());
    const statusText = () => page.textContent('.sync-status .text');

    await signIn(app, service);
    // The first sync ends in one or the other; only one is true.
    const syncShown = () => page.getAttribute('.sync-status', 'data-sync');
    let ended: string | null = null;
    await expect.poll(async () => (ended = await syncShown())).toMatch(/^(not-saved|synced)$/);
    expect(ended).toBe('not-saved');
    // It keeps trying by itself: the first new road went at once and failed too, the next waits.
    await expect.poll(statusText).toMatch(/ · next try in \d+ (s|min)/);
    const said = (await statusText()) ?? '';
    expect(said).toContain('Customers not saved on this laptop: the disk is full');
    expect(said).toContain('No change is lost');
    expect(said).toContain('free some disk space');
    expect(await page.getAttribute('.sync-status', 'data-tone')).toBe('bad');
    expect(await page.textContent('button.sync-now')).toBe('Try now');

    // A customer the rep creates meanwhile waits in main's outbox and reaches the service.
    await page.click('button:has-text("New customer")');
    await page.waitForSelector('aside[data-editing="new"]');
    await page.fill('#ed-name', 'Full Disk Bakery');
    await page.fill('#ed-latitude', '48.85');
    await page.fill('#ed-longitude', '2.35');
    await page.click('button:has-text("Create customer")');
    await page.waitForSelector('aside[data-editing]', { state: 'detached' });
    const created = () =>
      service.store.customers(USER).filter((c) => c.name === 'Full Disk Bakery').length;
    await expect.poll(created).toBe(1);
    await expect.poll(syncShown).toBe('not-saved');
    expect(await page.getAttribute('[aria-label="Customers"]', 'data-rows')).toBe('0');

    // Room again: "Try now" opens the road at once (the waiting try is not left waiting), the
    // account is saved, then "Synced".
    await cdp.send('Storage.overrideQuotaForOrigin', { origin });
    await expect.poll(statusText).toMatch(/ · next try in \d+ (s|min)/);
    // Pressed in the same turn that notes how far the status bar had got (its countdown ticks).
    let clicked = -1;
    const press = () =>
      page.evaluate(() => {
        const button = document.querySelector<HTMLButtonElement>('button.sync-now');
        if (!button || button.disabled) return -1;
        const at = (globalThis as unknown as { __shown: Shown[] }).__shown.length;
        button.click();
        return at;
      });
    await expect.poll(async () => (clicked = await press())).toBeGreaterThanOrEqual(0);
    await waitRows(page, 'Customers', CUSTOMERS + 1);
    await expect.poll(statusText).toMatch(/^Synced at/);
    const afterClick = (await shown()).slice(clicked);
    expect(afterClick.filter((s) => /next try/.test(s.text ?? ''))).toEqual([]);

    // "Synced" only over the saved account: never over the empty cache.
    const states = await shown();
    const synced = states.filter((s) => s.sync === 'synced' || /Synced/.test(s.text ?? ''));
    expect(synced.length).toBeGreaterThan(0);
    expect(synced.filter((s) => s.rows !== String(CUSTOMERS + 1))).toEqual([]);
    expect(states.some((s) => s.sync === 'not-saved')).toBe(true);
    expect(created()).toBe(1);
    expect(service.store.customers(USER)).toHaveLength(CUSTOMERS + 1);
    expect(await app.call<unknown[]>('listOps')).toEqual([]);
  });
});
