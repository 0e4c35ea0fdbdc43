// Route optimisation on seeded random instances: never longer than the order given, and
// within 5% of the best of 50 local searches from random initial orders.
import { describe, expect, it } from 'vitest';
import {
  DistanceMatrix,
  localSearch,
  optimizeRoute,
  pathLength,
  routeLength,
  seededRandom,
  type RouteStop,
} from '../../src-shared/route-optimizer';
import type { LngLat } from '../../src-shared/geo';

function instance(seed: number): { stops: RouteStop[]; start: LngLat | null } {
  const random = seededRandom(seed);
  const n = 20 + Math.floor(random() * 81);
  // A city-sized area somewhere on earth, some instances clustered.
  const lng = -170 + random() * 340;
  const lat = -60 + random() * 120;
  const spread = 0.05 + random() * 2;
  const clusters = 1 + Math.floor(random() * 4);
  const centres = Array.from({ length: clusters }, () => [
    lng + (random() - 0.5) * spread,
    lat + (random() - 0.5) * spread,
  ]);
  const stops = Array.from({ length: n }, (_, i) => {
    const c = centres[i % clusters]!;
    return {
      id: `s${seed}-${i}`,
      position: [
        c[0]! + (random() - 0.5) * spread * 0.3,
        c[1]! + (random() - 0.5) * spread * 0.3,
      ] as LngLat,
    };
  });
  const start = seed % 2 === 0 ? ([lng, lat] as LngLat) : null;
  return { stops, start };
}

/** Best of 50 runs of the same local search from random initial orders (anchor kept first). */
function bestOfRandomRestarts(stops: RouteStop[], start: LngLat | null, seed: number): number {
  const points = start ? [start, ...stops.map((s) => s.position)] : stops.map((s) => s.position);
  const d = new DistanceMatrix(points);
  const random = seededRandom(seed * 7919);
  let best = Infinity;
  for (let k = 0; k < 50; k++) {
    const rest = Array.from({ length: points.length - 1 }, (_, i) => i + 1);
    for (let i = rest.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [rest[i], rest[j]] = [rest[j]!, rest[i]!];
    }
    best = Math.min(best, pathLength(d, localSearch(d, [0, ...rest])));
  }
  return best;
}

describe('route optimizer', () => {
  it('on 30 seeded instances of 20-100 stops: never longer than given, within 5% of 50 random restarts', () => {
    const ratios: number[] = [];
    for (let seed = 1; seed <= 30; seed++) {
      const { stops, start } = instance(seed);
      const result = optimizeRoute(stops, { start });
      // A permutation of the same stops, anchored where it must be.
      expect(result.stops.map((s) => s.id).sort()).toEqual(stops.map((s) => s.id).sort());
      if (!start) expect(result.stops[0]!.id).toBe(stops[0]!.id);
      expect(result.metersBefore).toBeCloseTo(routeLength(stops, start), 3);
      expect(result.metersAfter).toBeCloseTo(routeLength(result.stops, start), 3);
      expect(result.metersAfter).toBeLessThanOrEqual(result.metersBefore);
      const best = bestOfRandomRestarts(stops, start, seed);
      ratios.push(result.metersAfter / best);
      expect(result.metersAfter).toBeLessThanOrEqual(best * 1.05);
    }
    console.log(`route optimizer: worst ratio to best-of-50 ${Math.max(...ratios).toFixed(4)}`);
  });

  it('keeps an already optimal order and handles tiny inputs', () => {
    const line: RouteStop[] = Array.from({ length: 6 }, (_, i) => ({
      id: `p${i}`,
      position: [10 + i * 0.01, 50] as LngLat,
    }));
    expect(optimizeRoute(line).stops.map((s) => s.id)).toEqual(line.map((s) => s.id));
    const reversed = [line[0]!, ...line.slice(1).reverse()];
    expect(optimizeRoute(reversed).stops.map((s) => s.id)).toEqual(line.map((s) => s.id));
    expect(optimizeRoute([]).stops).toEqual([]);
    expect(optimizeRoute(line.slice(0, 2)).stops.map((s) => s.id)).toEqual(['p0', 'p1']);
    // From a start point at the far end, the trip runs the line backwards.
    const fromEnd = optimizeRoute(line, { start: [10.2, 50] });
    expect(fromEnd.stops.map((s) => s.id)).toEqual(line.map((s) => s.id).reverse());
  });

  it('is deterministic for a given seed', () => {
    const { stops, start } = instance(99);
    const a = optimizeRoute(stops, { start, seed: 5 });
    const b = optimizeRoute(stops, { start, seed: 5 });
    expect(a.stops.map((s) => s.id)).toEqual(b.stops.map((s) => s.id));
  });
});
