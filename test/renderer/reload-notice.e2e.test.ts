// The page's side of support, in Chromium with the stand-in window.fieldmap of
// test/renderer/pages/app.page.ts: after main reloaded it (?notice=crashed) it says so until
// dismissed, and its uncaught errors reach main as a class name and frames, never the message.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, ORIGIN, serveDir, tempDir } from '../support/browser';
import { buildTestPages } from './support/bundle';

let out: Awaited<ReturnType<typeof tempDir>>;
let browser: Browser;
let context: BrowserContext;

beforeAll(async () => {
  out = await tempDir('fieldmap-notice-page-');
  await buildTestPages(out.path);
  browser = await launchBrowser();
  context = await browser.newContext();
  await serveDir(context, out.path);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await out?.remove();
});

async function open(query: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${ORIGIN}/app.html?n=20&seed=2${query}`);
  await page.waitForSelector('html[data-ready]', { state: 'attached' });
  return page;
}

const reports = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { fake: { reports: unknown[] } }).fake.reports);

describe('after main reloaded the page', () => {
  it('says why until the rep dismisses it; a normal start says nothing', async () => {
    const page = await open('&notice=crashed');
    const notice = page.getByRole('status').filter({ hasText: 'stopped unexpectedly' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain(
      'Your changes waiting to be sent are safe on this laptop.',
    );
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await notice.waitFor({ state: 'detached' });

    const plain = await open('');
    expect(await plain.getByText('stopped unexpectedly').count()).toBe(0);
  });

  it('reports an uncaught error and a rejection by class name only', async () => {
    const page = await open('');
    await page.evaluate(() => {
      setTimeout(() => {
        throw new TypeError('Zebediah Quornwell has no address');
      }, 0);
      void Promise.reject(new RangeError('zquornwell@example.net'));
    });
    await expect.poll(async () => (await reports(page)).length).toBe(2);
    const sent = await reports(page);
    expect(sent).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ source: 'error', name: 'TypeError' }),
        expect.objectContaining({ source: 'unhandledrejection', name: 'RangeError' }),
      ]),
    );
    expect(JSON.stringify(sent)).not.toMatch(/Quornwell|zquornwell/);
  });
});
