// Bench module (run by scripts/bench.ts): the field-day computations, pure code timed in Node
// (the renderer runs the same modules).
// - plan_week_300_ms: median wall time of planWeek on 300 seeded stops over 5 days (target < 2000),
//   5 instances after one warm-up; plan_week_300_visits: median visits planned of those.
// - nearby_100k_p95_ms: p95 of 200 "customers within r" queries (r from 1 to 50 km) over an index
//   of 100,000 seeded customers (target < 20); nearby_100k_build_ms: building that index.
// - nearby_100k_worker_p95_ms: the same in Chromium as the app runs it: p95 of 198 searches of
//   the app's NearbyState over 100,000 customers, round trip through its module worker, timed in
//   the page (target < 20); nearby_100k_columns_ms: the UI thread's part of a new data version
//   (positions into transferred columns); nearby_100k_worker_rebuild_ms: a new version's first
//   answer, the worker rebuilding its index first (worst of 3 versions).
import type { LngLat } from '../../src-shared/geo';
import { NearbyIndex } from '../../src-shared/nearby';
import { seededRandom } from '../../src-shared/route-optimizer';
import { planWeek } from '../../src-shared/week-plan-search';
import { weekInstance } from '../../test/support/week-instances';
import { launchBrowser, tempDir } from '../../test/support/browser';
import { buildTestPages } from '../../test/renderer/support/bundle';
import { openCachePage, scenario } from '../../test/renderer/support/pages';
import { median, round } from './support/stats';

export async function run(): Promise<Record<string, number>> {
  planWeek(weekInstance(300, 999));
  const times: number[] = [];
  const visits: number[] = [];
  for (let seed = 1; seed <= 5; seed++) {
    const input = weekInstance(300, seed);
    const t0 = performance.now();
    const { score } = planWeek(input);
    times.push(performance.now() - t0);
    visits.push(score.visited);
  }

  const random = seededRandom(7);
  const positions: LngLat[] = Array.from({ length: 100_000 }, () => [
    -5 + random() * 10,
    45 + random() * 10,
  ]);
  const t0 = performance.now();
  const index = new NearbyIndex(positions);
  const buildMs = performance.now() - t0;
  const queries: number[] = [];
  for (let q = 0; q < 200; q++) {
    const center: LngLat = [-5 + random() * 10, 45 + random() * 10];
    const radius = 1_000 + random() * 49_000;
    const start = performance.now();
    index.within(center, radius);
    queries.push(performance.now() - start);
  }
  queries.sort((a, b) => a - b);
  const inPage = await nearbyInChromium();
  return {
    plan_week_300_ms: round(median(times)),
    plan_week_300_visits: median(visits),
    nearby_100k_build_ms: round(buildMs),
    nearby_100k_p95_ms: round(queries[Math.floor(queries.length * 0.95)]!),
    nearby_100k_worker_p95_ms: round(inPage.p95_ms!),
    nearby_100k_columns_ms: round(inPage.columns_ms!),
    nearby_100k_worker_rebuild_ms: round(inPage.rebuild_ms!),
  };
}

/** Nearby through the app's worker in Chromium (test/renderer/pages/nearby-bench.page.ts). */
async function nearbyInChromium(): Promise<Record<string, number>> {
  const out = await tempDir('fieldmap-bench-nearby-');
  const browser = await launchBrowser();
  try {
    await buildTestPages(out.path);
    const page = await openCachePage(await browser.newContext(), out.path);
    return await scenario<Record<string, number>>(page, 'benchNearby', 100_000, 198, 7);
  } finally {
    await browser.close();
    await out.remove();
  }
}

// `npx tsx scripts/bench/field-day.ts` runs this module alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await run(), null, 2));
}
