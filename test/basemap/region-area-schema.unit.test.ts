// The IPC schema of an area to download: a polygon's ring is checked corner by corner in one
// loop, as strictly as before, and handed on as it came (not copied), so a 10,000-corner
// territory costs main one pass over its numbers.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { MAX_AREA_CORNERS } from '../../src-shared/area-ring';
import { RegionAreaSchema } from '../../src-shared/basemap';

const square = (): unknown[] => [
  [-97.42, 37.68],
  [-97.38, 37.68],
  [-97.38, 37.72],
  [-97.42, 37.72],
];
const parse = (ring: unknown) => v.safeParse(RegionAreaSchema, { kind: 'polygon', ring });

describe('area schema', () => {
  it('hands a valid ring on as it came, without copying its corners', () => {
    const ring = Array.from({ length: MAX_AREA_CORNERS + 1 }, (_, i) => [
      -97.4 + Math.cos(i),
      37.7 + Math.sin(i),
    ]);
    const parsed = parse(ring);
    expect(parsed.success).toBe(true);
    expect(parsed.success && parsed.output.kind === 'polygon' && parsed.output.ring).toBe(ring);
  });

  it('refuses a corner that is not exactly a [lon, lat] pair on the map', () => {
    const bad: unknown[] = [
      [-97.4, 37.7, 0],
      [-97.4],
      [-181, 37.7],
      [-97.4, 85.1],
      [Number.NaN, 37.7],
      [-97.4, Infinity],
      ['-97.4', 37.7],
      { 0: -97.4, 1: 37.7, length: 2 },
      null,
    ];
    for (const corner of bad) {
      const ring = square();
      ring[2] = corner;
      expect({ corner, ok: parse(ring).success }).toEqual({ corner, ok: false });
    }
    const holey = square();
    delete holey[1];
    expect(parse(holey).success).toBe(false);
    expect(parse('not a ring').success).toBe(false);
    expect(parse(square().slice(0, 2)).success).toBe(false);
    expect(parse(square()).success).toBe(true);
  });

  it('refuses too many corners by saying so, without walking them', () => {
    const ring = new Array<unknown>(1_000_000).fill(null);
    const over = parse(ring);
    expect(over.success).toBe(false);
    expect(over.issues?.map((issue) => issue.message)).toEqual([
      expect.stringMatching(/at most 10,000 corners/),
    ]);
  });
});
