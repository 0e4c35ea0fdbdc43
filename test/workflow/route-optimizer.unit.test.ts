// Route optimisation on seeded random instances: every stop once, the anchor kept, never longer
// than the order given. How close it comes to the best of 50 random restarts is a quality
// measure, not a correctness one: `npm run bench -- plan-quality` (scripts/bench/plan-quality.ts).
import { describe, expect, it } from 'vitest';
import { optimizeRoute, routeLength, type RouteStop } from '../../src-shared/route-optimizer';
import type { LngLat } from '../../src-shared/geo';
import { instance } from '../support/route-instances';

describe('route optimizer', () => {
  it('on 10 seeded instances of 20-100 stops: every stop once, anchored, never longer than given', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const { stops, start } = instance(seed);
      const result = optimizeRoute(stops, { start });
      // A permutation of the same stops, anchored where it must be.
      expect(result.stops.map((s) => s.id).sort()).toEqual(stops.map((s) => s.id).sort());
      if (!start) expect(result.stops[0]!.id).toBe(stops[0]!.id);
      expect(result.metersBefore).toBeCloseTo(routeLength(stops, start), 3);
      expect(result.metersAfter).toBeCloseTo(routeLength(result.stops, start), 3);
      expect(result.metersAfter).toBeLessThanOrEqual(result.metersBefore);
    }
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
