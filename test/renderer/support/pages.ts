// Opens the built test page (test/renderer/pages/cache.html) and calls its scenarios. The page's
// code is browser code (typed by tsconfig.web.json), so results come back untyped and each test
// states the shape it expects.
import type { BrowserContext, Page } from 'playwright-core';
import { ORIGIN, serveDir } from '../../support/browser';

export async function openCachePage(context: BrowserContext, dir: string): Promise<Page> {
  await serveDir(context, dir);
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('page error:', error));
  // The page's and its workers' errors (a save the cache worker gave up says why there).
  page.on('console', (message) => {
    if (message.type() === 'error') console.error('page console:', message.text());
  });
  await page.goto(`${ORIGIN}/cache.html`);
  await page.waitForSelector('html[data-ready]', { state: 'attached' });
  return page;
}

/** Calls `scenarios[name](...args)` in the page. */
export function scenario<T>(page: Page, name: string, ...args: unknown[]): Promise<T> {
  return page.evaluate(
    ([n, a]) => {
      // The page sets globalThis.scenarios (test/renderer/pages/cache.page.ts).
      const all = (
        globalThis as unknown as { scenarios: Record<string, (...x: unknown[]) => unknown> }
      ).scenarios;
      return all[n as string]!(...(a as unknown[]));
    },
    [name, args] as const,
  ) as Promise<T>;
}
