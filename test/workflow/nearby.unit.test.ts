// Nearby (src-shared/nearby.ts) equals a brute-force scan: every customer within the radius,
// nearest first, including around the antimeridian and the poles, at 100,000 customers.
import { describe, expect, it } from 'vitest';
import { haversineMeters, type LngLat } from '../../src-shared/geo';
import { circleRing, NearbyIndex, toColumns } from '../../src-shared/nearby';
import { seededRandom } from '../../src-shared/route-optimizer';

function brute(points: ReadonlyArray<LngLat | null>, center: LngLat, radius: number) {
  const hits: Array<{ index: number; meters: number }> = [];
  points.forEach((p, index) => {
    if (!p) return;
    const meters = haversineMeters(center, p);
    if (meters <= radius) hits.push({ index, meters });
  });
  return hits.sort((a, b) => a.meters - b.meters || a.index - b.index);
}

describe('nearby customers', () => {
  it('equals a brute-force scan over 100,000 customers for 60 seeded queries', () => {
    const random = seededRandom(42);
    const points: Array<LngLat | null> = Array.from({ length: 100_000 }, (_, i) => {
      if (i % 50 === 0) return null; // unmapped customers are never near anything
      if (i % 3 === 0) return [random() * 360 - 180, random() * 180 - 90];
      // Clusters: a city, a town across the antimeridian, a research station near the pole.
      const hub: LngLat = (
        [
          [-0.1, 51.5],
          [179.9, -16.5],
          [10, 89.5],
        ] as LngLat[]
      )[i % 3 === 1 ? 0 : i % 7 === 0 ? 2 : 1]!;
      return [
        ((hub[0] + (random() - 0.5) * 2 + 540) % 360) - 180,
        Math.max(-90, Math.min(90, hub[1] + (random() - 0.5))),
      ];
    });
    const index = new NearbyIndex(points);
    const centers: LngLat[] = [
      [-0.1, 51.5],
      [179.95, -16.5],
      [-179.95, -16.4],
      [10, 89.9],
      [0, -89.9],
    ];
    for (let q = 0; q < 60; q++) {
      const center =
        q < centers.length ? centers[q]! : ([random() * 360 - 180, random() * 170 - 85] as LngLat);
      const radius = [500, 5_000, 25_000, 200_000, 2_000_000][q % 5]!;
      const got = index.within(center, radius);
      const want = brute(points, center, radius);
      expect(
        got.map((h) => h.index),
        `query ${q} at ${center} r=${radius}`,
      ).toEqual(want.map((h) => h.index));
    }
  });

  it('limits, and answers nothing for an empty index or a negative radius', () => {
    const index = new NearbyIndex([[0.001, 0.001], null, [0.002, 0.002], [0.003, 0.003]]);
    expect(index.within([0.001, 0.001], 10_000, 2).map((h) => h.index)).toEqual([0, 2]);
    expect(index.within([0.001, 0.001], -1)).toEqual([]);
    expect(new NearbyIndex([null, null]).within([0, 0], 1e7)).toEqual([]);
  });

  it('from columns (what the worker gets): the same hits, the total beyond the limit, the centre left out', () => {
    const random = seededRandom(9);
    const points: Array<LngLat | null> = Array.from({ length: 5_000 }, (_, i) =>
      i % 10 === 0 ? null : [2 + random() * 0.5, 48 + random() * 0.5],
    );
    const fromColumns = new NearbyIndex(toColumns(points));
    const fromPoints = new NearbyIndex(points);
    const center = points[1]!;
    const all = brute(points, center, 20_000);
    expect(all.length).toBeGreaterThan(50);
    const { hits, total } = fromColumns.search(center, 20_000, { limit: 50, exclude: 1 });
    expect(total).toBe(all.length - 1);
    expect(hits.map((h) => h.index)).toEqual(
      all
        .filter((h) => h.index !== 1)
        .slice(0, 50)
        .map((h) => h.index),
    );
    expect(fromPoints.within(center, 20_000)).toEqual(fromColumns.within(center, 20_000));
    // NaN columns and null island are not positions.
    const none = new NearbyIndex({ lng: Float64Array.of(NaN, 0), lat: Float64Array.of(NaN, 0) });
    expect(none.search([0, 0], 1e7)).toEqual({ hits: [], total: 0 });
  });

  it('draws its circle at the radius on the sphere, also near a pole', () => {
    for (const [center, radius] of [
      [[-0.1, 51.5], 5_000],
      [[179.9, -16.5], 50_000],
      [[10, 80], 25_000],
    ] as Array<[LngLat, number]>) {
      const ring = circleRing(center, radius);
      expect(ring[0]).toEqual(ring.at(-1));
      for (const p of ring) expect(Math.abs(haversineMeters(center, p) - radius)).toBeLessThan(1);
    }
  });
});
