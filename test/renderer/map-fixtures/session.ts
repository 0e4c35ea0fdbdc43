// One Chromium page on the map harness, for a test.
import type { Browser, Page } from 'playwright-core';
import { harnessCall, type HarnessCall, type HarnessProps } from './harness-api';

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
