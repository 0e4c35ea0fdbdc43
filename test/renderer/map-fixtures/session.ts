// One Chromium page on the map harness, for a test.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from '../../support/browser';
import { harnessCall, type HarnessCall, type HarnessProps } from './harness-api';
import { serveMapPages, type MapPages } from './pages';

export type MapSession = { page: Page; h: HarnessCall; dialogs: string[]; errors: string[] };

/** Opens the harness page and mounts MapView with `props`; reduced motion makes camera moves instant. */
export async function openMap(
  browser: Browser,
  url: string,
  props: HarnessProps,
): Promise<MapSession> {
  const page = await browser.newPage({
    viewport: { width: 1000, height: 700 },
    reducedMotion: 'reduce',
  });
  const dialogs: string[] = [];
  const errors: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${url}/index.html`);
  await page.waitForFunction(() => 'harness' in globalThis);
  const h = harnessCall((fn, arg) => page.evaluate(fn, arg));
  await h('mount', props);
  return { page, h, dialogs, errors };
}

/**
 * The map tests' shared setup: registers hooks that serve the fixture pages and start one
 * Chromium for the test file, and opens a map session on them.
 */
export function mapHarness(): { open(props: HarnessProps): Promise<MapSession> } {
  let pages: MapPages | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    pages = await serveMapPages();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await pages?.close();
  });
  return {
    open(props) {
      if (!browser || !pages) throw new Error('the map harness is not started (beforeAll)');
      return openMap(browser, pages.url, props);
    },
  };
}
