// The online style and its tile cache: a style and tiles served by a local server on 127.0.0.1
// are loaded once through main's cache, then shown again with the server stopped; the cache keeps
// to its size cap, least recently used out, and its index survives a reopen.
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BasemapService } from '../../src-main/core/basemap/service';
import { TileCache } from '../../src-main/core/basemap/tile-cache';
import { fsFor, FS_PLATFORMS } from '../support/windows-fs';
import { PALETTES } from '../../src-renderer/src/map/style/palette';
import { launchBrowser } from '../support/browser';
import { ONLINE_SQUARE_CENTER, onlineTiles } from './fixture-tiles';
import { ONLINE_MAX_ZOOM as MAX_ZOOM, ONLINE_RED, startStyleServer } from './style-server';
import { buildPage, call, distance, hex, openPage, serve, type Rgb, type Served } from './support';

const RED = ONLINE_RED;

let dataDir: string;
let browser: Browser;
let removePage: () => Promise<void>;
let pageDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fieldmap-tiles-'));
  const built = await buildPage();
  removePage = built.remove;
  pageDir = built.dir;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await removePage?.();
  // A tile the last test fetched may still be landing in the cache as the browser closes: rm
  // retries while the directory is still being written (ENOTEMPTY), as it is documented to.
  await rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
});

async function newPage(
  basemap: BasemapService,
): Promise<{ page: Page; served: Served; context: BrowserContext }> {
  const context = await browser.newContext({
    viewport: { width: 512, height: 512 },
    deviceScaleFactor: 1,
  });
  const served = await serve(context, pageDir, () => basemap);
  return { page: await openPage(context), served, context };
}

describe('online style through the tile cache', () => {
  it('shows the tiles seen online again with the tile server stopped', async () => {
    const server = await startStyleServer({ background: '#000000' });
    const styleUrl = `${server.url}/style.json`;
    const dir = join(dataDir, 'online');
    const basemap = await BasemapService.open({ dataDir: dir });
    // A loopback style the rep typed and confirmed in main's dialog.
    await basemap.setSettings({ onlineStyleUrl: styleUrl, confirmedOrigins: [server.url] });
    const view = { center: ONLINE_SQUARE_CENTER, zoom: 6, onlineStyleUrl: styleUrl };
    const near = (c: Rgb, color: string) => distance(c, hex(color)) <= 8;

    const online = await newPage(basemap);
    expect(await call<string[]>(online.page, 'show', view)).toEqual([]);
    expect(await call<Rgb>(online.page, 'colorAt', ...ONLINE_SQUARE_CENTER)).toSatisfy((c: Rgb) =>
      near(c, RED),
    );
    // The style's own background is left out: the bundled land shows where it has no tile data.
    expect(await call<Rgb>(online.page, 'colorAt', -102.8, 38.5)).toSatisfy((c: Rgb) =>
      near(c, PALETTES.light.land),
    );
    expect(await call<string>(online.page, 'attribution')).toMatch(
      /Fixture tiles.*Natural Earth|Natural Earth.*Fixture tiles/,
    );
    expect(online.served.cacheAnswers).toContain('fetched');
    expect(server.requests.filter((r) => r.startsWith('/tiles/')).length).toBeGreaterThan(0);
    expect(online.served.blocked).toEqual([]); // the page itself never left the app origin
    await online.context.close();
    await server.stop();

    // Server gone, main restarted on the same data dir: everything comes from the disk cache.
    await basemap.tiles.flush();
    const again = await BasemapService.open({ dataDir: dir });
    const offline = await newPage(again);
    expect(await call<string[]>(offline.page, 'show', view)).toEqual([]);
    expect(await call<Rgb>(offline.page, 'colorAt', ...ONLINE_SQUARE_CENTER)).toSatisfy((c: Rgb) =>
      near(c, RED),
    );
    expect(offline.served.cacheAnswers.length).toBeGreaterThan(0);
    expect(offline.served.cacheAnswers.every((a) => a === 'hit' || a === 'stale')).toBe(true);
    expect(offline.served.blocked).toEqual([]);
    await offline.context.close();
  });

  it('refuses to fetch hosts the configured style did not name', async () => {
    const basemap = await BasemapService.open({ dataDir: join(dataDir, 'refuse') });
    await basemap.setSettings({
      onlineStyleUrl: 'http://127.0.0.1:9/style.json',
      confirmedOrigins: ['http://127.0.0.1:9'],
    });
    const answer = await basemap.handleRequest(
      new URL(`http://app/tiles?url=${encodeURIComponent('http://127.0.0.2:9/secret')}`),
      null,
    );
    expect(answer?.status).toBe(403);
  });
});

// On this machine's files and on Windows' as test/support/windows-fs.ts plays them.
describe.each(FS_PLATFORMS)('TileCache on %s files', (platform) => {
  const fs = () => {
    const played = fsFor(platform, dataDir);
    return played ? { fs: played } : {};
  };

  it('keeps to its size cap, evicting the least recently used, and survives a reopen', async () => {
    const server = await startStyleServer({ background: '#000000' });
    const dir = join(dataDir, `lru-${platform}`);
    const urls = onlineTiles(MAX_ZOOM)
      .filter((t) => t.z === MAX_ZOOM)
      .slice(0, 4)
      .map((t) => `${server.url}/tiles/${t.z}/${t.x}/${t.y}.pbf`);
    const sizes: number[] = [];
    const probe = await TileCache.open({
      dir: join(dataDir, `probe-${platform}`),
      capacityBytes: 1e9,
      ...fs(),
    });
    for (const url of urls) {
      const r = await probe.fetchThroughCache(url);
      if (r.kind === 'miss') throw new Error('fixture tile missing');
      sizes.push(r.data.length);
    }
    // Room for the three largest tiles but never for all four.
    const sorted = [...sizes].sort((a, b) => b - a);
    const capacity = sorted[0]! + sorted[1]! + sorted[2]!;
    const cache = await TileCache.open({ dir, capacityBytes: capacity, ...fs() });
    const [a, b, c, d] = urls as [string, string, string, string];
    for (const url of [a, b, c]) expect((await cache.fetchThroughCache(url)).kind).toBe('fetched');
    expect((await cache.fetchThroughCache(a)).kind).toBe('hit'); // a is now more recent than b
    expect((await cache.fetchThroughCache(d)).kind).toBe('fetched');
    expect(cache.usage().usedBytes).toBeLessThanOrEqual(capacity);
    expect(cache.has(b)).toBe(false); // least recently used: out
    expect(cache.has(a)).toBe(true);
    expect(cache.has(d)).toBe(true);
    await cache.flush();

    await server.stop();
    const reopened = await TileCache.open({ dir, capacityBytes: capacity, ...fs() });
    expect(reopened.usage()).toEqual(cache.usage());
    expect((await reopened.fetchThroughCache(a)).kind).toBe('hit');
    expect(await reopened.fetchThroughCache(b)).toEqual({ kind: 'miss', status: 504 });
    // One file per entry plus the index, nothing left over.
    expect((await readdir(dir)).filter((f) => f.endsWith('.tile'))).toHaveLength(
      reopened.usage().entries,
    );

    // Lowering the cap evicts at once.
    await reopened.setCapacity(sorted[0]!);
    expect(reopened.usage().usedBytes).toBeLessThanOrEqual(sorted[0]!);
    expect(reopened.usage().entries).toBe(1);
  });

  it('serves an expired copy when the network fails, and refreshes it when it is back', async () => {
    const server = await startStyleServer({ background: '#000000' });
    let now = 1_000_000;
    const cache = await TileCache.open({
      dir: join(dataDir, `stale-${platform}`),
      capacityBytes: 1e6,
      ...fs(),
      maxAgeMs: 1000,
      now: () => now,
    });
    const url = `${server.url}/style.json`;
    expect((await cache.fetchThroughCache(url)).kind).toBe('fetched');
    now += 500;
    expect((await cache.fetchThroughCache(url)).kind).toBe('hit');
    now += 1000;
    expect((await cache.fetchThroughCache(url)).kind).toBe('fetched');
    now += 2000;
    await server.stop();
    expect((await cache.fetchThroughCache(url)).kind).toBe('stale');
    await cache.flush();
  });
});
