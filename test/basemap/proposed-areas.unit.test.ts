// The areas Offline maps proposes from the account's data: one per cluster of customers and per
// territory, with a margin, and never one box spanning the continent; named by their main city.
import { describe, expect, it } from 'vitest';
import { clusterPoints } from '../../src-renderer/src/features/offline-maps/area-plan';
import {
  LINK_KM,
  MARGIN_KM,
  MAX_SPAN_KM,
  heldOffline,
  proposeAreas,
  type PlacedCustomer,
} from '../../src-renderer/src/features/offline-maps/proposed-areas';
import type { LngLat } from '../../src-shared/geo';

const spanKm = ([w, s, e, n]: number[]) => ({
  x: (e! - w!) * 111.32 * Math.cos((((s! + n!) / 2) * Math.PI) / 180),
  y: (n! - s!) * 111.32,
});
const near = ([lng, lat]: LngLat, i: number, city = ''): PlacedCustomer => ({
  at: [lng + (i % 3) * 0.02, lat + i * 0.01],
  city,
});

describe('proposed areas', () => {
  it('proposes one area per metro for customers spread across the country', () => {
    const wichita: LngLat = [-97.33, 37.69];
    const denver: LngLat = [-104.99, 39.74];
    const nyc: LngLat = [-74.0, 40.71];
    const customers = [
      ...Array.from({ length: 5 }, (_, i) => near(wichita, i)),
      ...Array.from({ length: 3 }, (_, i) => near(denver, i)),
      ...Array.from({ length: 2 }, (_, i) => near(nyc, i)),
    ];
    const areas = proposeAreas(customers, []);
    expect(areas.map((a) => a.count)).toEqual([5, 3, 2]);
    expect(areas[0]!.name).toMatch(/^5 customers near 37\.71°N, 97\.31°W$/);
    for (const area of areas) {
      const span = spanKm(area.bounds);
      expect(Math.max(span.x, span.y)).toBeLessThan(MAX_SPAN_KM + 2 * MARGIN_KM + 1);
    }
    // The margin: every customer is at least MARGIN_KM inside its area.
    const [w, s] = areas[0]!.bounds;
    expect((37.69 - s) * 111.32).toBeCloseTo(MARGIN_KM, 1);
    expect(w).toBeLessThan(-97.33);
  });

  it('cuts a chain of customers 400 km long into areas that each fit', () => {
    const chain = Array.from({ length: 41 }, (_, i) => ({
      at: [-100 + i * 0.1125, 38] as LngLat,
      city: '',
    }));
    const areas = proposeAreas(chain, []);
    expect(areas.length).toBeGreaterThanOrEqual(4);
    expect(areas.reduce((n, a) => n + a.count, 0)).toBe(41);
    for (const area of areas)
      expect(spanKm(area.bounds).x).toBeLessThan(MAX_SPAN_KM + 2 * MARGIN_KM + 1);
  });

  it('proposes territories by name, a wide one in parts, and none for an empty one', () => {
    const areas = proposeAreas(
      [],
      [
        {
          name: 'Downtown',
          points: [
            [-97.4, 37.6],
            [-97.3, 37.7],
            [-97.35, 37.75],
          ],
        },
        {
          name: 'The Plains',
          points: [
            [-102, 37],
            [-95, 40],
          ],
        },
        { name: 'Empty', points: [] },
      ],
    );
    expect(areas[0]).toMatchObject({ name: 'Downtown', kind: 'territory', count: 3 });
    const plains = areas.filter((a) => a.name.startsWith('The Plains'));
    expect(plains.length).toBeGreaterThan(4);
    expect(plains[0]!.name).toMatch(/The Plains \(part 1 of \d+\)/);
    for (const area of plains) {
      const span = spanKm(area.bounds);
      expect(Math.max(span.x, span.y)).toBeLessThanOrEqual(MAX_SPAN_KM + 1);
    }
    expect(areas.some((a) => a.name === 'Empty')).toBe(false);
  });

  it('names an area by its most common city, with how many other towns it holds', () => {
    const wichita: LngLat = [-97.33, 37.69];
    const denver: LngLat = [-104.99, 39.74];
    const customers = [
      ...['Wichita', 'wichita ', 'Wichita', 'Derby', 'Park City', 'Derby'].map((city, i) =>
        near(wichita, i, city),
      ),
      ...['Denver', 'Denver', 'Denver'].map((city, i) => near(denver, i, city)),
      // No city given at all: the place's coordinates, as before.
      near([-74.0, 40.71], 0),
    ];
    const areas = proposeAreas(customers, []);
    expect(areas.map((a) => [a.name, a.count])).toEqual([
      ['Wichita and 2 nearby towns', 6],
      ['Denver', 3],
      ['1 customer near 40.71°N, 74.00°W', 1],
    ]);
  });

  it('lists the biggest area first, and tells apart two parts of one metro', () => {
    // 400 km of one city's name in a line (cut into parts), and a small town of 30.
    const chain = Array.from({ length: 41 }, (_, i) => ({
      at: [-100 + i * 0.1125, 38] as LngLat,
      city: 'Long Road',
    }));
    const town = Array.from({ length: 30 }, (_, i) => near([-80, 35], i % 10, 'Smallville'));
    const areas = proposeAreas([...chain, ...town], []);
    expect(areas[0]!.name).toBe('Smallville');
    const counts = areas.map((a) => a.count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const parts = areas.filter((a) => a.name.startsWith('Long Road'));
    expect(parts.length).toBeGreaterThan(1);
    expect(new Set(parts.map((a) => a.name)).size).toBe(parts.length);
    expect(parts[0]!.name).toBe(`Long Road (part 1 of ${parts.length})`);
  });

  it('marks an area a region on this laptop covers, to the max zoom asked', () => {
    const area: [number, number, number, number] = [-97.4, 37.6, -97.3, 37.7];
    // The header keeps bounds to 1e-7°: a region of exactly this area still holds it.
    const same = { bounds: [-97.3999999, 37.6000001, -97.3000001, 37.6999999], maxZoom: 15 };
    expect(heldOffline(area, 15, [same])).toBe(true);
    expect(heldOffline(area, 15, [{ ...same, maxZoom: 12 }])).toBe(false);
    expect(heldOffline(area, 15, [{ bounds: [-97.35, 37.6, -97.3, 37.7], maxZoom: 15 }])).toBe(
      false,
    );
    expect(heldOffline(area, 14, [{ bounds: [-98, 37, -97, 38], maxZoom: 14 }])).toBe(true);
    expect(heldOffline(area, 15, [])).toBe(false);
  });

  it('clusters as linking every pair within reach in neighbouring cells would', () => {
    // Every pair in neighbouring LINK_KM cells measured and linked (the grid's definition),
    // against the buckets that skip what is linked already.
    const kmLon = (lat: number) => 111.32 * Math.max(0.01, Math.cos((lat * Math.PI) / 180));
    const cell = ([lng, lat]: LngLat) => [
      Math.floor((lng * kmLon(lat)) / LINK_KM),
      Math.floor(lat / (LINK_KM / 111.32)),
    ];
    const everyPair = (cs: PlacedCustomer[]) => {
      const parent = cs.map((_, i) => i);
      const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
      for (let i = 0; i < cs.length; i++) {
        for (let j = 0; j < i; j++) {
          const [p, q] = [cs[i]!.at, cs[j]!.at];
          const [[px, py], [qx, qy]] = [cell(p), cell(q)];
          if (Math.abs(px! - qx!) > 1 || Math.abs(py! - qy!) > 1) continue;
          const [x, y] = [(p[0] - q[0]) * kmLon((p[1] + q[1]) / 2), (p[1] - q[1]) * 111.32];
          if (x * x + y * y <= LINK_KM * LINK_KM) parent[find(i)] = find(j);
        }
      }
      const groups = new Map<number, PlacedCustomer[]>();
      cs.forEach((c, i) => groups.set(find(i), [...(groups.get(find(i)) ?? []), c]));
      return [...groups.values()].sort((a, b) => b.length - a.length);
    };
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (const spread of [0.05, 0.3, 1, 5]) {
      // Dense towns with sparse customers between them: buckets that join as the chain fills.
      const cs = Array.from({ length: 1_500 }, (_, i): PlacedCustomer => {
        const town = i % 4 === 0 ? 0 : (i % 3) * spread;
        return { at: [-100 + town + random() * spread, 40 + random() * spread], city: '' };
      });
      expect(clusterPoints(cs)).toEqual(everyPair(cs));
    }
  });
});
