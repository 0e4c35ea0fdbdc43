// Bench module (run by scripts/bench.ts): the Fieldmap map with 100k clustered customers,
// from mount to MapLibre's first 'idle' (map_idle_100k_ms), against a bare MapLibre page with
// the same GeoJSON, the same base style and one clustered circle layer
// (bare_maplibre_idle_100k_ms), in the same run. Medians of 3 runs each, order alternated.
import type { Browser } from 'playwright-core';
import { launchChromium, serveMapPages } from '../../test/renderer/map-fixtures/pages';
import { harnessCall } from '../../test/renderer/map-fixtures/harness-api';

const N = 100_000;
const SEED = 42;
const RUNS = 3;
const VIEWPORT = { width: 1280, height: 800 };

async function fieldmapIdle(browser: Browser, url: string): Promise<number> {
  const page = await browser.newPage({ viewport: VIEWPORT });
  try {
    await page.goto(`${url}/index.html`);
    await page.waitForFunction(() => 'harness' in globalThis);
    const h = harnessCall((fn, arg) => page.evaluate(fn, arg));
    await h('generate', N, SEED);
    return await h('mount', {}, true);
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
      ([n, seed]) =>
        (
          globalThis as unknown as { bare: { run(n: number, s: number): Promise<number> } }
        ).bare.run(n, seed),
      [N, SEED] as const,
    );
  } finally {
    await page.close();
  }
}

export async function run(): Promise<Record<string, number>> {
  const pages = await serveMapPages();
  const browser = await launchChromium();
  try {
    const fieldmap: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      if (i % 2 === 0) {
        fieldmap.push(await fieldmapIdle(browser, pages.url));
        bare.push(await bareIdle(browser, pages.url));
      } else {
        bare.push(await bareIdle(browser, pages.url));
        fieldmap.push(await fieldmapIdle(browser, pages.url));
      }
    }
    const m = median(fieldmap);
    const b = median(bare);
    return {
      map_idle_100k_ms: round(m),
      bare_maplibre_idle_100k_ms: round(b),
      map_idle_ratio: Math.round((m / b) * 100) / 100,
    };
  } finally {
    await browser.close();
    await pages.close();
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

// `npx tsx scripts/bench/renderer-map.ts` runs this module alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await run(), null, 2));
}
