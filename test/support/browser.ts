// Chromium as tests start it (Debian's, through playwright-core): one browser, or a persistent
// profile (IndexedDB survives closing and relaunching on the same directory), with every wait
// bounded by the test's own bound (Playwright's 30 s default would fail a loaded machine's test);
// and serveDir, a built bundle on a fixed secure origin (`*.localhost`) through request routing.
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium';
import { testBoundMs } from './until';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';

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

// Debian's Chromium through playwright-core, serving a built bundle on a fixed secure origin
// (`*.localhost`) through request routing: no port, and IndexedDB keyed to a stable origin.
export const ORIGIN = 'http://fieldmap-test.localhost';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.pbf': 'application/x-protobuf',
  '.wasm': 'application/wasm',
};

export async function tempDir(
  prefix: string,
): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** Answers every request of ORIGIN from `dir`; anything else is refused (no network in tests). */
export async function serveDir(context: BrowserContext, dir: string): Promise<void> {
  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    if (url.origin !== ORIGIN) return route.abort('blockedbyclient');
    const relative = decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname);
    const file = normalize(join(dir, relative));
    if (!file.startsWith(dir + sep)) return route.fulfill({ status: 403, body: 'forbidden' });
    try {
      const body = await readFile(file);
      const contentType = MIME[extname(file)] ?? 'application/octet-stream';
      return route.fulfill({ status: 200, headers: { 'content-type': contentType }, body });
    } catch {
      return route.fulfill({ status: 404, body: 'not found' });
    }
  });
}
