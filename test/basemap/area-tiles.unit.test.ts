// The scanline tile coverage of a polygon (area-tiles.ts) against the tile-by-tile test it
// replaced (kept below as the reference): the same tiles on seeded random outlines, concave ones,
// ones with corners and edges lying on tile boundaries, and thin slivers between tiles.
import { tileIdToZxy } from 'pmtiles';
import { describe, expect, it } from 'vitest';
import { areaBounds, areaTileIds } from '../../src-main/core/basemap/region-plan';
import { latToY, lonToX, xToLon, yToLat } from '../../src-main/core/basemap/area-tiles';
import { insideRing, ringProblem, segmentsIntersect } from '../../src-shared/area-ring';
import { mulberry32 } from '../../src-shared/prng';

type Ring = Array<[number, number]>;

/** The former coverage: a tile is taken when a corner, an inside point or an edge touches it. */
function ringTouches(ring: Ring, w: number, s: number, e: number, n: number) {
  if (ring.some(([x, y]) => x >= w && x <= e && y >= s && y <= n)) return true;
  const corners: Ring = [
    [w, s],
    [e, s],
    [e, n],
    [w, n],
  ];
  if (corners.some((corner) => insideRing(corner, ring))) return true;
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i]!;
    const b = ring[(i + 1) % ring.length]!;
    for (let k = 0; k < 4; k++)
      if (segmentsIntersect(a, b, corners[k]!, corners[(k + 1) % 4]!)) return true;
  }
  return false;
}

function referenceTiles(ring: Ring, maxZoom: number): string[] {
  const [w, s, e, n] = areaBounds({ kind: 'polygon', ring });
  const out: string[] = [];
  for (let z = 0; z <= maxZoom; z++) {
    const size = 2 ** z;
    for (let x = lonToX(w, size); x <= lonToX(e, size); x++)
      for (let y = latToY(n, size); y <= latToY(s, size); y++)
        if (
          ringTouches(
            ring,
            xToLon(x, size),
            yToLat(y + 1, size),
            xToLon(x + 1, size),
            yToLat(y, size),
          )
        )
          out.push(`${z}/${x}/${y}`);
  }
  return out.sort();
}

const scanTiles = (ring: Ring, maxZoom: number) =>
  areaTileIds({ kind: 'polygon', ring }, maxZoom)
    .map((id) => tileIdToZxy(id).join('/'))
    .sort();

/** A star-shaped outline: corners at rising angles, random radii, so concave yet simple. */
function star(random: () => number, corners: number, spread: number): Ring {
  const cx = -97.4 + random() - 0.5;
  const cy = 37.7 + random() - 0.5;
  const angles = Array.from({ length: corners }, () => random() * 2 * Math.PI).sort(
    (a, b) => a - b,
  );
  return angles.map((a) => {
    const r = spread * (0.2 + 0.8 * random());
    return [cx + r * Math.cos(a), cy + r * Math.sin(a)];
  });
}

/** Moves every other corner onto the nearest tile boundary of zoom z (both lon and lat). */
function snapped(ring: Ring, z: number): Ring {
  const size = 2 ** z;
  return ring.map(([lon, lat], i) =>
    i % 2
      ? [lon, lat]
      : [xToLon(Math.round(((lon + 180) / 360) * size), size), yToLat(latToY(lat, size), size)],
  );
}

describe('scanline tile coverage', () => {
  it('takes the same tiles as the tile-by-tile test on seeded random outlines', () => {
    const random = mulberry32(30);
    let checked = 0;
    for (let k = 0; k < 60; k++) {
      const ring = star(random, 3 + Math.floor(random() * 40), 0.02 + random() * 0.15);
      if (ringProblem(ring)) continue;
      expect(scanTiles(ring, 13)).toEqual(referenceTiles(ring, 13));
      checked++;
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('takes the same tiles when corners and edges lie on tile boundaries', () => {
    const random = mulberry32(7);
    let checked = 0;
    for (let k = 0; k < 80; k++) {
      const z = 13 + (k % 3);
      const ring = snapped(star(random, 4 + Math.floor(random() * 20), 0.05 + random() * 0.1), z);
      if (ringProblem(ring)) continue;
      expect(scanTiles(ring, 15)).toEqual(referenceTiles(ring, 15));
      checked++;
    }
    // An axis-aligned square exactly on tile boundaries, and a sliver along one.
    const size = 2 ** 12;
    const [x0, y0] = [lonToX(-97.45, size), latToY(37.75, size)];
    const square: Ring = [
      [xToLon(x0, size), yToLat(y0, size)],
      [xToLon(x0 + 3, size), yToLat(y0, size)],
      [xToLon(x0 + 3, size), yToLat(y0 + 2, size)],
      [xToLon(x0, size), yToLat(y0 + 2, size)],
    ];
    const sliver: Ring = [
      [xToLon(x0, size), yToLat(y0, size)],
      [xToLon(x0 + 5, size), yToLat(y0, size)],
      [xToLon(x0 + 2, size), yToLat(y0, size) - 1e-6],
    ];
    for (const ring of [square, sliver])
      expect(scanTiles(ring, 14)).toEqual(referenceTiles(ring, 14));
    expect(checked).toBeGreaterThan(25);
  });

  it('covers a 10,000-corner territory at zoom 15 with the inside tiles and its edge tiles', () => {
    const ring: Ring = Array.from({ length: 10_000 }, (_, i) => {
      const a = (2 * Math.PI * i) / 10_000;
      const r = 1.5 * (0.85 + 0.15 * Math.sin(7 * a));
      return [-97.4 + r * Math.cos(a), 37.7 + 0.8 * r * Math.sin(a)];
    });
    const z15 = areaTileIds({ kind: 'polygon', ring }, 15)
      .map(tileIdToZxy)
      .filter(([z]) => z === 15);
    const size = 2 ** 15;
    const has = new Set(z15.map(([, x, y]) => `${x}/${y}`));
    // The centre's tile, every corner's tile, and not the bbox's far corner.
    expect(has.has(`${lonToX(-97.4, size)}/${latToY(37.7, size)}`)).toBe(true);
    for (const [lon, lat] of ring.filter((_, i) => i % 97 === 0))
      expect(has.has(`${lonToX(lon, size)}/${latToY(lat, size)}`)).toBe(true);
    const [w, , , n] = areaBounds({ kind: 'polygon', ring });
    expect(has.has(`${lonToX(w, size)}/${latToY(n, size)}`)).toBe(false);
  });
});
