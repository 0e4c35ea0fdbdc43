// How the Offline maps panel describes a region: size, bounding box, and its area on the sphere.
import { describe, expect, it } from 'vitest';
import {
  boundsAreaKm2,
  formatBounds,
  ringAreaKm2,
} from '../../src-renderer/src/features/offline-maps/region-format';
import { Formatter } from '../../src-renderer/src/ui/format';

// The panel writes through the app's formatter; an explicit locale and unit keep these exact.
const format = new Formatter('en-US', () => 'km');

describe('region format', () => {
  it('writes bounds with hemispheres, south to north then west to east', () => {
    expect(formatBounds([-122.6, 47.1, -121.9, 48.0], format)).toBe(
      '47.1°N–48.0°N, 122.6°W–121.9°W',
    );
    expect(formatBounds([150.5, -34.2, 151.4, -33.5], format)).toBe(
      '34.2°S–33.5°S, 150.5°E–151.4°E',
    );
  });

  it('measures the box on the sphere, also across the antimeridian', () => {
    // One degree square at the equator: (6371 km × π/180)² ≈ 12,364 km².
    expect(boundsAreaKm2([0, 0, 1, 1])).toBeCloseTo(12_364, -1);
    // The same box at 60°N is about half as wide.
    expect(boundsAreaKm2([0, 59.5, 1, 60.5]) / boundsAreaKm2([0, 0, 1, 1])).toBeCloseTo(0.5, 2);
    expect(boundsAreaKm2([179.5, 0, -179.5, 1])).toBeCloseTo(boundsAreaKm2([0, 0, 1, 1]), 6);
    expect(format.area(boundsAreaKm2([-99, 37.5, -97, 39.5]))).toBe('about 38,700 km²');
    expect(format.area(boundsAreaKm2([0, 0, 0.1, 0.1]))).toBe('about 124 km²');
  });

  it('measures a drawn ring on the sphere: a box ring as its box, a half-box triangle as half', () => {
    const box: Array<[number, number]> = [
      [-97.42, 37.68],
      [-97.38, 37.68],
      [-97.38, 37.72],
      [-97.42, 37.72],
    ];
    const boxKm2 = boundsAreaKm2([-97.42, 37.68, -97.38, 37.72]);
    expect(ringAreaKm2(box)).toBeCloseTo(boxKm2, 6);
    expect(ringAreaKm2([...box].reverse())).toBeCloseTo(boxKm2, 6);
    expect(ringAreaKm2([box[0]!, box[1]!, box[3]!, box[0]!]) / boxKm2).toBeCloseTo(0.5, 3);
    expect(format.area(ringAreaKm2([box[0]!, box[1]!, box[3]!]))).toBe('about 8 km²');
  });

  it('writes sizes in MB (hundredths for small files) and cache use in KB below one MB', () => {
    expect(format.megabytes(20_000)).toBe('0.02 MB');
    expect(format.megabytes(3.5 * 1024 * 1024)).toBe('3.5 MB');
    expect(format.megabytes(1536 * 1024 * 1024)).toBe('1,536 MB');
    expect(format.storage(0)).toBe('0 KB');
    expect(format.storage(1500)).toBe('2 KB');
    expect(format.storage(2 * 1024 * 1024)).toBe('2.0 MB');
  });

  it("writes the area in the rep's unit and the data date as a calendar day", () => {
    const miles = new Formatter('en-US', () => 'mi');
    expect(miles.area(boundsAreaKm2([-99, 37.5, -97, 39.5]))).toBe('about 14,900 mi²');
    expect(new Formatter('en-IE', () => 'km').utcDate(Date.parse('2026-11-01T00:00:00Z'))).toBe(
      '1 Nov 2026',
    );
  });
});
