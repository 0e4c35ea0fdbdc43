// Debian's Chromium through playwright-core, serving a built bundle on a fixed secure origin
// (`*.localhost`) through request routing: no port, and IndexedDB keyed to a stable origin.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import type { BrowserContext } from 'playwright-core';

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

/** Chromium as tests start it (test/support/browser.ts). */
export { launchBrowser, launchProfile } from '../../support/browser';

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
