// The tiles of an area to download: every tile a bbox or a polygon touches, at zooms 0..max,
// and the refusal of an area too large before anything is read.
import { tileIdToZxy, zxyToTileId } from 'pmtiles';
import { describe, expect, it } from 'vitest';
import { areaTileIds } from '../../src-main/core/basemap/region-plan';
import { latToY, lonToX } from './fixture-tiles';

describe('area tiles', () => {
  it('takes every tile of a bbox at each zoom, sorted by tile id', () => {
    const ids = areaTileIds({ kind: 'bbox', bounds: [-97.42, 37.68, -97.38, 37.72] }, 15);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const z15 = ids.map(tileIdToZxy).filter(([z]) => z === 15);
    const xs = lonToX(-97.38, 15) - lonToX(-97.42, 15) + 1;
    const ys = latToY(37.68, 15) - latToY(37.72, 15) + 1;
    expect(z15).toHaveLength(xs * ys);
    for (let z = 0; z <= 15; z++) expect(ids.some((id) => tileIdToZxy(id)[0] === z)).toBe(true);
  });

  it('takes only the tiles a polygon touches: a triangle leaves its far corner out', () => {
    const ring: Array<[number, number]> = [
      [-97.42, 37.68],
      [-97.38, 37.68],
      [-97.42, 37.72],
    ];
    const bbox = areaTileIds({ kind: 'bbox', bounds: [-97.42, 37.68, -97.38, 37.72] }, 15);
    const triangle = areaTileIds({ kind: 'polygon', ring }, 15);
    expect(triangle.every((id) => bbox.includes(id))).toBe(true);
    const atZ15 = (ids: number[]) => ids.filter((id) => tileIdToZxy(id)[0] === 15).length;
    expect(atZ15(triangle)).toBeLessThan(atZ15(bbox) * 0.8);
    // The corner tile (north-east) is outside; the vertices' tiles are inside.
    expect(triangle).not.toContain(zxyToTileId(15, lonToX(-97.38, 15), latToY(37.72, 15)));
    for (const [lon, lat] of ring)
      expect(triangle).toContain(zxyToTileId(15, lonToX(lon, 15), latToY(lat, 15)));
  });

  it('refuses a continent at street level before listing its tiles', () => {
    expect(() => areaTileIds({ kind: 'bbox', bounds: [-125, 25, -65, 49] }, 15)).toThrow(
      /too large/,
    );
  });
});
