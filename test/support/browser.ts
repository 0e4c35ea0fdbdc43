// Starting Chromium in tests: one browser, or a persistent profile (IndexedDB survives closing
// and relaunching on the same directory). The path and flags are scripts/chromium.ts's. Every
// page's actions and waits default to the test's own bound (Playwright's own default, 30 s, is
// shorter than an e2e test's and would fail a test on a loaded machine that would have passed).
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium';
import { testBoundMs } from './until';

/** Playwright's waits in `context` default to the test's bound. */
export function boundWaits(context: BrowserContext): BrowserContext {
  context.setDefaultTimeout(testBoundMs());
  context.setDefaultNavigationTimeout(testBoundMs());
  return context;
}

export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS],
    timeout: testBoundMs(),
  });
  // Playwright has no browser-wide default; browser.newPage() goes through newContext() too.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (...args) => boundWaits(await newContext(...args));
  return browser;
}

export async function launchProfile(profileDir: string): Promise<BrowserContext> {
  return boundWaits(
    await chromium.launchPersistentContext(profileDir, {
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS],
      headless: true,
      timeout: testBoundMs(),
    }),
  );
}
