// Shared steps of the write-side e2e suites (real main services + built renderer in Chromium).
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { RoadGate } from '../../scripts/browser-runner/launch';
import type { AppHandle, TestService } from './app';
import { until } from './until';

export const REPO = resolve(import.meta.dirname, '../..');

/**
 * Screenshots for the README (docs/screenshot-*.png) when FIELDMAP_UPDATE_SCREENSHOTS=1;
 * otherwise into the temp dir, so a test run leaves the work tree as it was.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir =
    process.env.FIELDMAP_UPDATE_SCREENSHOTS === '1'
      ? join(REPO, 'docs')
      : join(tmpdir(), 'fieldmap-screenshots');
  const file = join(dir, `screenshot-${name}.png`);
  await mkdir(dirname(file), { recursive: true });
  await page.screenshot({ path: file });
}

/** Signs in through the sign-in screen. */
export async function signIn(app: AppHandle, service: TestService): Promise<void> {
  const { page } = app;
  await page.fill('#si-url', service.url);
  await page.fill('#si-user', service.account.username);
  await page.fill('#si-pass', service.account.password);
  await page.click('form button[type=submit]');
  await page.waitForSelector('.top-bar');
}

/**
 * Edits the phone of the list's row `index` (the list's order does not follow the phone);
 * `beforeSave` runs with the editor filled, just before Save.
 */
export async function editPhone(
  page: Page,
  index: number,
  phone: string,
  beforeSave: () => Promise<void> = async () => undefined,
): Promise<void> {
  await page.locator('[aria-label="Customers"] button.customer-row').nth(index).click();
  await page.click('aside[aria-label="Customer details"] button:has-text("Edit")');
  await page.fill('#ed-phone', phone);
  await beforeSave();
  await page.click('button:has-text("Save changes")');
  await page.waitForSelector('aside[data-editing]', { state: 'detached' });
}

/** Waits until the list shows `want` rows. */
export async function waitRows(page: Page, label: string, want: number): Promise<void> {
  await expect
    .poll(() => page.getAttribute(`[aria-label="${label}"]`, 'data-rows'))
    .toBe(String(want));
}

/** waitRows for a beforeAll (expect.poll belongs in tests): the page's own wait for the count. */
export async function waitRowsInHook(page: Page, label: string, want: number): Promise<void> {
  await page.waitForFunction(
    ([l, n]) => document.querySelector(`[aria-label="${l}"]`)?.getAttribute('data-rows') === n,
    [label, String(want)] as const,
  );
}

export async function syncState(page: Page): Promise<string | null> {
  return page.getAttribute('.sync-status', 'data-sync');
}

export async function waitSync(page: Page, kind: string): Promise<void> {
  await expect.poll(() => syncState(page)).toBe(kind);
}

/**
 * Presses the UI's "Sync now" and waits until the sync it started (or joined) is over. Decided
 * by conditions only, each bounded by the test: the button is pressed in the page in the same
 * turn that finds it enabled (no sync running), and the wait ends once the status bar has said
 * "syncing" since that press and no longer does. (It used to wait at most 60 s for the button and
 * then for "not syncing", which a busy machine failed, and a fast one passed before the sync began.)
 */
export async function syncNow(page: Page): Promise<void> {
  await until(
    () =>
      page.evaluate(() => {
        const button = document.querySelector<HTMLButtonElement>('button.sync-now');
        const bar = document.querySelector('.sync-status');
        if (!button || button.disabled || !bar) return false;
        const seen = { syncing: false };
        (globalThis as unknown as { __syncNowSeen: typeof seen }).__syncNowSeen = seen;
        new MutationObserver((_, observer) => {
          if (bar.getAttribute('data-sync') !== 'syncing') return;
          seen.syncing = true;
          observer.disconnect();
        }).observe(bar, { attributes: true, attributeFilter: ['data-sync'] });
        button.click();
        return true;
      }),
    '"Sync now" enabled',
  );
  await until(
    () =>
      page.evaluate(
        () =>
          (globalThis as unknown as { __syncNowSeen: { syncing: boolean } }).__syncNowSeen
            .syncing &&
          document.querySelector('.sync-status')?.getAttribute('data-sync') !== 'syncing',
      ),
    'the sync "Sync now" started is over',
  );
}

/** Number of customers in the map's GeoJSON source. */
export async function mapSourceCount(page: Page): Promise<number> {
  return page.evaluate(() => {
    const el = document.querySelector('.fm-map') as
      (Element & { fieldmapMap?: { customers: { count: number } } }) | null;
    return el?.fieldmapMap?.customers.count ?? -1;
  });
}

/** Customers drawn on the map in the viewport (pins and cluster counts). */
export async function renderedCount(page: Page): Promise<number> {
  return page.evaluate(() => {
    const el = document.querySelector('.fm-map') as
      (Element & { fieldmapMap?: { renderedCustomerCount(): number } }) | null;
    return el?.fieldmapMap?.renderedCustomerCount() ?? -1;
  });
}

/** One state of the status bar, with the list's row count at that moment. */
export interface Seen {
  kind: string | null;
  tone: string | null;
  text: string;
  rows: number;
}

/** Records every status text, with the list's row count as the page shows it at that moment. */
export async function recordStatus(page: Page): Promise<void> {
  await page.evaluate(() => {
    const log: Seen[] = [];
    (globalThis as unknown as { __statusLog: Seen[] }).__statusLog = log;
    const sample = () => {
      const bar = document.querySelector('.sync-status');
      const list = document.querySelector('[aria-label="Customers"]');
      const entry = {
        kind: bar?.getAttribute('data-sync') ?? null,
        tone: bar?.getAttribute('data-tone') ?? null,
        text: bar?.querySelector('.text')?.textContent ?? '',
        rows: Number(list?.getAttribute('data-rows') ?? '0'),
      };
      const last = log.at(-1);
      if (!last || Object.entries(entry).some(([k, v]) => last[k as keyof Seen] !== v))
        log.push(entry);
    };
    new MutationObserver(sample).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['data-sync', 'data-tone', 'data-rows'],
    });
    sample();
  });
}

/** Every state recordStatus saw, in order. */
export const statusLog = (page: Page): Promise<Seen[]> =>
  page.evaluate(() => (globalThis as unknown as { __statusLog: Seen[] }).__statusLog);

/** What each message a road gate holds carries, in main's order (RoadGate.kind). */
export function heldKinds(gate: RoadGate): string[] {
  return Array.from({ length: gate.held() }, (_, i) => gate.kind(i));
}

/**
 * Until main has sent every queued change and its last sync ended "synced", asked of main
 * itself: the page cannot tell while its road is held.
 */
export async function untilMainSynced(app: AppHandle): Promise<void> {
  await expect
    .poll(async () => {
      const queued = await app.call<unknown[]>('listOps');
      const state = await app.call<{ kind: string }>('syncNow');
      return queued.length === 0 && state.kind === 'synced';
    })
    .toBe(true);
}

/** Customers whose name no other customer's name contains: a search for it lists one row. */
export function uniquelyNamed<C extends { name: string }>(all: readonly C[]): C[] {
  return all.filter(
    (c) => all.filter((o) => o.name.toLowerCase().includes(c.name.toLowerCase())).length === 1,
  );
}
