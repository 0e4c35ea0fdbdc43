// The crossing check of a download area's outline (src-shared/area-ring.ts) with a territory of
// thousands of corners: a sweep, not a test of every pair (a 1,000-corner territory held main
// and the Offline maps panel that long), bounded in corners with a refusal that says so, and
// answering exactly as the test of every pair does on rings full of the awkward cases.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  MAX_AREA_CORNERS,
  outlineCrosses,
  ringProblem,
  segmentsIntersect,
} from '../../src-shared/area-ring';
import { RegionAreaSchema } from '../../src-shared/basemap';
import { mulberry32 } from '../support/prng';

type Point = [number, number];

/** A territory's outline of `n` corners, about 3° across, wavy and not crossing itself. */
function territory(n: number): Point[] {
  return Array.from({ length: n }, (_, i) => {
    const a = (2 * Math.PI * i) / n;
    const r = 1.5 * (0.85 + 0.15 * Math.sin(7 * a));
    return [-97.4 + r * Math.cos(a), 37.7 + 0.8 * r * Math.sin(a)];
  });
}

/** The test of every pair of edges, as area-ring.ts did it before the sweep: the oracle. */
function crossesByPairs(points: Point[]): boolean {
  const n = points.length;
  const orientation = (p: Point, q: Point, r: Point) =>
    Math.sign((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]));
  const foldsBack = (s: Point, a: Point, b: Point) =>
    orientation(s, a, b) === 0 && (a[0] - s[0]) * (b[0] - s[0]) + (a[1] - s[1]) * (b[1] - s[1]) > 0;
  for (let i = 0; i < n; i++) {
    const a = points[i]!;
    const b = points[(i + 1) % n]!;
    for (let j = i + 1; j < n; j++) {
      const c = points[j]!;
      const d = points[(j + 1) % n]!;
      if (j === i + 1) {
        if (foldsBack(b, a, d)) return true;
      } else if (i === 0 && j === n - 1) {
        if (foldsBack(a, b, c)) return true;
      } else if (segmentsIntersect(a, b, c, d)) return true;
    }
  }
  return false;
}

describe("a download area's outline", () => {
  it('tests a 10,000-corner territory in O(n log n) pairs, not every pair', () => {
    const ring = territory(MAX_AREA_CORNERS);
    const work = { pairs: 0 };
    expect(outlineCrosses(ring, work)).toBe(false);
    // Every pair would be n²/2 = 5·10⁷; the sweep tests a few per corner.
    expect(work.pairs).toBeLessThan(8 * MAX_AREA_CORNERS);
    expect(ringProblem(ring)).toBeNull();
  });

  it('finds one crossing among 10,000 corners', () => {
    const ring = territory(MAX_AREA_CORNERS);
    // Swapping two far-apart corners makes their edges cross the outline.
    [ring[10], ring[5_000]] = [ring[5_000]!, ring[10]!];
    expect(ringProblem(ring)).toMatch(/crosses itself/);
  });

  it('refuses more than 10,000 corners, saying so, and accepts 10,000 over IPC', () => {
    expect(ringProblem(territory(MAX_AREA_CORNERS + 1))).toMatch(/at most 10,000 corners/);
    const closed = territory(MAX_AREA_CORNERS);
    closed.push(closed[0]!);
    expect(v.safeParse(RegionAreaSchema, { kind: 'polygon', ring: closed }).success).toBe(true);
    const over = v.safeParse(RegionAreaSchema, {
      kind: 'polygon',
      ring: territory(MAX_AREA_CORNERS + 2),
    });
    expect(over.success).toBe(false);
    expect(over.issues?.[0]?.message).toMatch(/at most 10,000 corners/);
  });

  it('answers as the test of every pair on 20,000 rings of shared, collinear and upright edges', () => {
    const random = mulberry32(30);
    let crossing = 0;
    for (let round = 0; round < 20_000; round++) {
      // Corners on a small grid: repeated corners, collinear and vertical edges, touches.
      const n = 3 + Math.floor(random() * 7);
      const grid = 2 + Math.floor(random() * 4);
      const ring: Point[] = [];
      while (ring.length < n) {
        const p: Point = [Math.floor(random() * grid), Math.floor(random() * grid)];
        const last = ring[ring.length - 1];
        if (!last || last[0] !== p[0] || last[1] !== p[1]) ring.push(p);
      }
      if (ring[0]![0] === ring[n - 1]![0] && ring[0]![1] === ring[n - 1]![1]) continue;
      const expected = crossesByPairs(ring);
      if (expected) crossing++;
      expect({ ring, crosses: outlineCrosses(ring) }).toEqual({ ring, crosses: expected });
    }
    // Both answers were exercised many times.
    expect(crossing).toBeGreaterThan(1_000);
    expect(crossing).toBeLessThan(19_000);
  });
});
