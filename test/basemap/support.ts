// Shared parts of the basemap tests: the test page built with Vite, served on a fixed local origin
// with every other request blocked and counted, plus colour helpers for the pixel checks.
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import type { BasemapService } from '../../src-main/core/basemap/service';
import { buildBundle, REPO_ROOT } from '../renderer/support/bundle';
import { tempDir } from '../support/browser';
import { launchBrowser } from '../support/browser';

export const ORIGIN = 'http://fieldmap-basemap.localhost';
export const PUBLIC_DIR = resolve(REPO_ROOT, 'src-renderer/public');

export type Rgb = [number, number, number];

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.geojson': 'application/geo+json',
  '.json': 'application/json',
  '.pbf': 'application/x-protobuf',
};

/** Builds test/basemap/page into a temp dir. */
export async function buildPage(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const out = await tempDir('fieldmap-basemap-page-');
  await buildBundle(resolve(REPO_ROOT, 'test/basemap/page'), out.path, { index: 'index.html' });
  return { dir: out.path, remove: out.remove };
}

export interface Served {
  /** URLs of requests that left the local origin (all refused). */
  blocked: string[];
  /** Cache answers (X-Fieldmap-Cache) of the /tiles requests, in order. */
  cacheAnswers: string[];
}

async function fileAnswer(route: Route, dirs: string[], pathname: string): Promise<void> {
  const relative = decodeURIComponent(pathname === '/' ? '/index.html' : pathname);
  for (const dir of dirs) {
    const file = normalize(join(dir, relative));
    if (!file.startsWith(dir + sep)) return route.fulfill({ status: 403, body: 'forbidden' });
    const body = await readFile(file).catch(() => null);
    if (body) {
      const type = MIME[extname(file)] ?? 'application/octet-stream';
      return route.fulfill({ status: 200, headers: { 'content-type': type }, body });
    }
  }
  return route.fulfill({ status: 404, body: 'not found' });
}

/**
 * Serves the page and the app's public assets on ORIGIN; regions/ and tiles? go to the main-side
 * BasemapService as the app:// protocol would. Anything else is aborted and recorded.
 */
export async function serve(
  context: BrowserContext,
  pageDir: string,
  basemap: () => BasemapService | null,
): Promise<Served> {
  const served: Served = { blocked: [], cacheAnswers: [] };
  await context.route('**/*', async (route) => {
    const request = route.request();
    const url = new URL(request.url());
    if (url.origin !== ORIGIN) {
      served.blocked.push(request.url());
      return route.abort('internetdisconnected');
    }
    const service = basemap();
    const answer = service
      ? await service.handleRequest(url, request.headers()['range'] ?? null)
      : null;
    if (answer) {
      if (answer.headers['X-Fieldmap-Cache'])
        served.cacheAnswers.push(answer.headers['X-Fieldmap-Cache']);
      return route.fulfill({
        status: answer.status,
        headers: answer.headers,
        body: answer.body ? Buffer.from(answer.body) : '',
      });
    }
    return fileAnswer(route, [pageDir, PUBLIC_DIR], url.pathname);
  });
  return served;
}

export async function openPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('page error:', error));
  await page.goto(`${ORIGIN}/index.html`);
  await page.waitForSelector('html[data-ready]', { state: 'attached' });
  return page;
}

/** Calls basemapTest[name](...args) in the page. */
/** A Chromium page (512×512) on the built test page, served with `basemap` as main's side. */
export interface BasemapPage {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  served: Served;
  close(): Promise<void>;
}

export async function openBasemapPage(basemap: () => BasemapService | null): Promise<BasemapPage> {
  const built = await buildPage();
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({
      viewport: { width: 512, height: 512 },
      deviceScaleFactor: 1,
    });
    const served = await serve(context, built.dir, basemap);
    const page = await openPage(context);
    return {
      browser,
      context,
      page,
      served,
      async close() {
        await browser.close();
        await built.remove();
      },
    };
  } catch (error) {
    await browser.close();
    await built.remove();
    throw error;
  }
}

export function call<T>(page: Page, name: string, ...args: unknown[]): Promise<T> {
  return page.evaluate(
    ([n, a]) => {
      const api = (
        globalThis as unknown as { basemapTest: Record<string, (...x: unknown[]) => unknown> }
      ).basemapTest;
      return api[n as string]!(...(a as unknown[]));
    },
    [name, args] as const,
  ) as Promise<T>;
}

export function hex(color: string): Rgb {
  const n = Number.parseInt(color.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

export function distance(a: Rgb, b: Rgb): number {
  return Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]), Math.abs(a[2] - b[2]));
}

export const luminance = (c: Rgb): number => 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
