// Bench module (run by scripts/bench.ts): route optimisation of seeded random stops.
// - route_opt_100_ms: median wall time of optimizeRoute on 100 stops (target < 1000 ms),
//   over 9 seeded instances after one warm-up run.
// - route_opt_20_ms / route_opt_50_ms: the same for 20 and 50 stops.
// - route_opt_100_gain_pct: how much shorter the optimised trip is than the given order.
import { optimizeRoute, seededRandom, type RouteStop } from '../../src-shared/route-optimizer';
import type { LngLat } from '../../src-shared/geo';

function stopsOf(n: number, seed: number): RouteStop[] {
  const random = seededRandom(seed);
  return Array.from({ length: n }, (_, i) => ({
    id: `s${i}`,
    position: [-0.5 + random(), 51 + random() * 0.6] as LngLat,
  }));
}

function medianMs(n: number): { ms: number; gain: number } {
  optimizeRoute(stopsOf(n, 1000 + n));
  const times: number[] = [];
  const gains: number[] = [];
  for (let seed = 1; seed <= 9; seed++) {
    const stops = stopsOf(n, seed * 31 + n);
    const t0 = performance.now();
    const result = optimizeRoute(stops);
    times.push(performance.now() - t0);
    gains.push(1 - result.metersAfter / result.metersBefore);
  }
  times.sort((a, b) => a - b);
  gains.sort((a, b) => a - b);
  return { ms: times[4]!, gain: gains[4]! };
}

export async function run(): Promise<Record<string, number>> {
  const r20 = medianMs(20);
  const r50 = medianMs(50);
  const r100 = medianMs(100);
  return {
    route_opt_20_ms: Math.round(r20.ms * 10) / 10,
    route_opt_50_ms: Math.round(r50.ms * 10) / 10,
    route_opt_100_ms: Math.round(r100.ms * 10) / 10,
    route_opt_100_gain_pct: Math.round(r100.gain * 1000) / 10,
  };
}
