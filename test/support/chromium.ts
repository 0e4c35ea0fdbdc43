// Starting Chromium in tests: one browser, or a persistent profile (IndexedDB survives closing
// and relaunching on the same directory). The path and flags are scripts/chromium.ts's.
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
}

export function launchProfile(profileDir: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS],
    headless: true,
  });
}
