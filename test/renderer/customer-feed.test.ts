// The page's CustomerFeed following writes of the real cache worker (CacheWriter) on Chromium's
// IndexedDB: it publishes only whole committed states (never part of a snapshot), patches a small
// write into the array it had (every unchanged record keeps its object) and stays in the cache's
// key order through a delete and a create.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, tempDir } from './support/browser';
import { buildTestPages } from './support/bundle';
import { openCachePage } from './support/pages';

let out: Awaited<ReturnType<typeof tempDir>>;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  out = await tempDir('fieldmap-feed-page-');
  await buildTestPages(out.path);
  browser = await launchBrowser();
  context = await browser.newContext();
  page = await openCachePage(context, out.path);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await out?.remove();
});

type Seen = { count: number; prefixes: string[]; ordered: boolean };

describe('CustomerFeed', () => {
  it('follows the cache worker: whole states only, small writes patched in key order', async () => {
    const result = await page.evaluate(() =>
      (
        globalThis as unknown as { feedScenarios: { follow(): Promise<unknown> } }
      ).feedScenarios.follow(),
    );
    const { seen, ...rest } = result as { seen: Seen[] } & Record<string, unknown>;
    // Each published state is the empty cache or a whole snapshot (A's 12,000 or B's 3,000).
    const whole = (s: Seen) =>
      s.ordered &&
      (s.count === 0 ||
        (s.count === 12_000 && s.prefixes.join() === 'A:') ||
        (s.count === 3_000 && s.prefixes.join() === 'B:'));
    expect(seen.filter((s) => !whole(s))).toEqual([]);
    expect(seen.at(-1)).toEqual({ count: 3_000, prefixes: ['B:'], ordered: true });
    expect(rest).toEqual({
      // The edit replaced one record's object; the other 11,999 are the objects read before.
      keptObjects: 11_999,
      editedName: 'Local',
      sameAsCache: true,
      hasDeleted: false,
      lastKeepsOps: true,
    });
  }, 120_000);
});
