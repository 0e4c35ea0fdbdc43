// Bench module (run by scripts/bench.ts): the Fieldmap map with 100k clustered customers,
// from mount to MapLibre's first 'idle' (map_idle_100k_ms), against a bare MapLibre page with
// the same GeoJSON, the same base style and one clustered circle layer
// (bare_maplibre_idle_100k_ms), in the same run, both on the app's offline basemap. Medians of 5 runs each, order alternated.
// cold_start_10k_ms: the app's renderer (test/renderer/pages/app.html, H7a's page with a
// stand-in main) reopened on a cache holding 10k customers, from navigation start to the map's
// 'fieldmap:map-drawn' mark; median of 3 reopenings.
import type { Browser, Page } from 'playwright-core';
import { MAP_DRAWN_MARK, type MapDrawnDetail } from '../../src-renderer/src/map/drawn-mark';
import { launchBrowser } from '../../test/support/browser';
import { serveDirectory, serveMapPages } from '../../test/renderer/map-fixtures/pages';
import { harnessCall } from '../../test/renderer/map-fixtures/harness-api';
import { tempDir } from '../../test/support/browser';
import { buildTestPages } from '../../test/renderer/support/bundle';
import { median, round } from './support/stats';

const N = 100_000;
const SEED = 42;
// Runs per page; FIELDMAP_BENCH_MAP_RUNS raises it on a noisy machine.
const RUNS = Math.max(1, Number(process.env['FIELDMAP_BENCH_MAP_RUNS'] ?? 5) || 5);
const VIEWPORT = { width: 1280, height: 800 };
// Both pages draw on the app's offline basemap (bundled world layer and glyphs).
const BASE = 'bundled';

async function fieldmapIdle(
  browser: Browser,
  url: string,
  geojson: number[],
  heapMb: number[],
): Promise<number> {
  const page = await browser.newPage({ viewport: VIEWPORT });
  try {
    await page.goto(`${url}/index.html`);
    await page.waitForFunction(() => 'harness' in globalThis);
    const h = harnessCall((fn, arg) => page.evaluate(fn, arg));
    await h('generate', N, SEED);
    const ms = await h('mount', { base: BASE }, true);
    // The part of the gap that is Fieldmap's own work: customers -> GeoJSON, on the main thread.
    geojson.push(await h('geojsonMs'));
    // The page's JS heap after a GC, with 100k customers held and drawn (main thread only).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    const { usedSize } = await cdp.send('Runtime.getHeapUsage');
    heapMb.push(usedSize / 1024 / 1024);
    await cdp.detach();
    return ms;
  } finally {
    await page.close();
  }
}

async function bareIdle(browser: Browser, url: string): Promise<number> {
  const page = await browser.newPage({ viewport: VIEWPORT });
  try {
    await page.goto(`${url}/bare.html`);
    await page.waitForFunction(() => 'bare' in globalThis);
    return await page.evaluate(
      ([n, seed, base]) => {
        type Bare = { run(n: number, s: number, b: string): Promise<number> };
        return (globalThis as unknown as { bare: Bare }).bare.run(n, seed, base);
      },
      [N, SEED, BASE] as const,
    );
  } finally {
    await page.close();
  }
}

/** ms from navigation start to the first drawn mark with customers in it. */
async function drawnAt(page: Page): Promise<number> {
  const handle = await page.waitForFunction(
    ([name]) => {
      const marks = performance.getEntriesByName(name) as unknown as Array<{
        startTime: number;
        detail: MapDrawnDetail;
      }>;
      return marks.find((m) => m.detail.customers > 0)?.startTime ?? false;
    },
    [MAP_DRAWN_MARK] as const,
    { timeout: 120_000, polling: 50 },
  );
  return (await handle.jsonValue()) as number;
}

export async function coldStart10k(): Promise<number> {
  const out = await tempDir('fieldmap-bench-coldstart-');
  await buildTestPages(out.path);
  const served = await serveDirectory(out.path);
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: VIEWPORT });
    const url = `${served.url}/app.html?n=10000&seed=3`;
    // First open: the stand-in main sends the snapshot and the cache stores it.
    const first = await context.newPage();
    await first.goto(url);
    await drawnAt(first);
    await first.close();
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const page = await context.newPage();
      await page.goto(url);
      times.push(await drawnAt(page));
      const sent = await page.evaluate(
        () => (globalThis as unknown as { fake: { snapshotsSent: number } }).fake.snapshotsSent,
      );
      // A reopened app must draw from the cache alone. It asks main for a snapshot only newer
      // than its cache (none here): a snapshot sent would void the number.
      if (sent > 0) throw new Error('cold start was sent a snapshot');
      await page.close();
    }
    return median(times);
  } finally {
    await browser.close();
    await served.close();
    await out.remove();
  }
}

/** Medians of the Fieldmap map and the bare page, runs alternating which goes first. */
async function idle100k(): Promise<{
  fieldmap: number;
  bare: number;
  geojson: number;
  heapMb: number;
}> {
  const pages = await serveMapPages();
  const browser = await launchBrowser();
  try {
    const fieldmap: number[] = [];
    const bare: number[] = [];
    const geojson: number[] = [];
    const heapMb: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      if (i % 2 === 0) {
        fieldmap.push(await fieldmapIdle(browser, pages.url, geojson, heapMb));
        bare.push(await bareIdle(browser, pages.url));
      } else {
        bare.push(await bareIdle(browser, pages.url));
        fieldmap.push(await fieldmapIdle(browser, pages.url, geojson, heapMb));
      }
    }
    return {
      fieldmap: median(fieldmap),
      bare: median(bare),
      geojson: median(geojson),
      heapMb: median(heapMb),
    };
  } finally {
    await browser.close();
    await pages.close();
  }
}

/** Both renderer modules report into bench-results/renderer.json (the file). */
export const resultFile = 'renderer';

export async function run(): Promise<Record<string, number>> {
  const { fieldmap, bare, geojson, heapMb } = await idle100k();
  const result: Record<string, number> = {
    map_idle_100k_ms: round(fieldmap),
    bare_maplibre_idle_100k_ms: round(bare),
    map_idle_ratio: Math.round((fieldmap / bare) * 100) / 100,
    map_geojson_100k_ms: round(geojson),
    heap_map_100k_mb: round(heapMb),
  };
  try {
    result['cold_start_10k_ms'] = round(await coldStart10k());
  } catch (e) {
    // The app page is built from the whole renderer: keep the map numbers if it cannot run.
    console.error('cold_start_10k_ms not measured:', e);
  }
  return result;
}

// `npx tsx scripts/bench/renderer-map.ts` runs this module alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await run(), null, 2));
}
