// Main's data travels to the cache worker without crossing the page's UI thread: through the
// browser runner (the same path the app uses, src-shared/data-pieces.ts), a first sync's records
// reach the worker's own hook, and the page hears of each piece without its records. A reload of
// the page while the pieces are on their way, or a restart of the whole app, loses nothing: the
// list ends with every customer of the account, once.
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchApp, startTestService, type AppHandle, type TestService } from '../e2e/harness';
import { signIn, waitSync } from './support';

const COUNT = 20_000;
const WAIT = 120_000;

let service: TestService | undefined;
let app: AppHandle | undefined;

afterEach(async () => {
  await app?.close();
  await service?.stop();
  app = undefined;
  service = undefined;
});

interface PageData {
  /** Customer records the page's own listeners of main's data events received. */
  records: number;
  /** Characters the page's JSON.parse read. */
  parsed: number;
}

/**
 * Counts, in the page, the records main's data events hand its listeners ('data:piece',
 * 'data:snapshot', 'data:delta': the path every record took before the data channel) and the
 * JSON the page parses (the runner delivers every event as a JSON string the page parses).
 */
async function recordPageData(page: Page): Promise<void> {
  await page.evaluate(() => {
    const seen: PageData = { records: 0, parsed: 0 };
    const g = globalThis as unknown as {
      __pageData: PageData;
      fieldmap: { on(event: string, listener: (payload: unknown) => void): () => void };
    };
    g.__pageData = seen;
    const parse = JSON.parse;
    JSON.parse = function (text: string, reviver?: (key: string, value: unknown) => unknown) {
      seen.parsed += String(text).length;
      return parse.call(this, text, reviver) as unknown;
    };
    type Items = { items?: unknown[]; path?: string[] };
    g.fieldmap.on('data:piece', (p) => {
      const piece = p as Items;
      if (piece.path?.[0] === 'customers') seen.records += piece.items?.length ?? 0;
    });
    g.fieldmap.on('data:snapshot', (p) => {
      seen.records += (p as { customers: unknown[] }).customers.length;
    });
    g.fieldmap.on('data:delta', (p) => {
      seen.records += (p as { customers: { upserted: unknown[] } }).customers.upserted.length;
    });
  });
}

const pageData = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { __pageData: PageData }).__pageData);

const rows = (page: Page) => page.getAttribute('[aria-label="Customers"]', 'data-rows');

/** Resolves once the page shows the first sync's pieces arriving ("Receiving customers: …"). */
function receiving(page: Page): Promise<unknown> {
  return page.waitForFunction(
    () =>
      document.querySelector('.sync-status .text')?.textContent?.startsWith('Receiving') ?? false,
    undefined,
    { polling: 'raf', timeout: WAIT },
  );
}

describe('the data channel from main to the cache worker', () => {
  it('brings a first sync into the cache without its records crossing the page', async () => {
    service = await startTestService({ customers: COUNT, seed: 31 });
    app = await launchApp({ serviceUrl: service.url });
    const { page } = app;
    await recordPageData(page);
    await signIn(app, service);
    await expect.poll(() => rows(page), { timeout: WAIT }).toBe(String(COUNT));
    await waitSync(page, 'synced');
    const seen = await pageData(page);
    expect(seen.records).toBe(0);
    // 20,000 customers are ~15 MB of JSON; the page parses only small events (state, outbox).
    expect(seen.parsed).toBeLessThan(200_000);
  }, 180_000);

  it('loses nothing when the page reloads while the pieces are on their way', async () => {
    service = await startTestService({ customers: COUNT, seed: 32 });
    app = await launchApp({ serviceUrl: service.url });
    const { page } = app;
    const started = receiving(page);
    await signIn(app, service);
    await started;
    await page.reload();
    await expect.poll(() => rows(page), { timeout: WAIT }).toBe(String(COUNT));
    await waitSync(page, 'synced');
  }, 180_000);

  it('loses nothing when the app restarts while the pieces are on their way', async () => {
    service = await startTestService({ customers: COUNT, seed: 33 });
    app = await launchApp({ serviceUrl: service.url });
    const started = receiving(app.page);
    await signIn(app, service);
    await started;
    await app.restart();
    const { page } = app;
    await expect.poll(() => rows(page), { timeout: WAIT }).toBe(String(COUNT));
    await waitSync(page, 'synced');
    expect(await rows(page)).toBe(String(COUNT));
  }, 180_000);
});
