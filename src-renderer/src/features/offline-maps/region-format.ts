// How an offline region reads in the panel: its bounding box and its area on the sphere. Sizes,
// areas, times and dates are written by the one formatter (ui/format.ts), words by text.ts.
import { format, type Formatter } from '../../ui/format';
import { text } from './text';

const EARTH_RADIUS_KM = 6371.0088;

/** A latitude and a longitude with `digits` decimals and their hemisphere: "37.5°N", "99.0°W". */
export const latitude = (v: number, digits: number, f: Formatter = format) =>
  text.regions.latitude(f.fixed(Math.abs(v), digits), v < 0);
export const longitude = (v: number, digits: number, f: Formatter = format) =>
  text.regions.longitude(f.fixed(Math.abs(v), digits), v < 0);

/** "37.5°N–39.5°N, 99.0°W–97.0°W" from [west, south, east, north]. */
export function formatBounds(
  [w, s, e, n]: readonly [number, number, number, number],
  f: Formatter = format,
): string {
  return text.regions.bounds(
    latitude(s, 1, f),
    latitude(n, 1, f),
    longitude(w, 1, f),
    longitude(e, 1, f),
  );
}

/** The area of the bounding box on the sphere, in km². */
export function boundsAreaKm2([w, s, e, n]: readonly [number, number, number, number]): number {
  const rad = Math.PI / 180;
  const width = (e >= w ? e - w : e + 360 - w) * rad; // a box across the antimeridian has e < w
  return EARTH_RADIUS_KM ** 2 * width * Math.abs(Math.sin(n * rad) - Math.sin(s * rad));
}

/** The area of a ring of [lon, lat] on the sphere, in km² (the spherical excess of its edges). */
export function ringAreaKm2(ring: readonly (readonly [number, number])[]): number {
  const rad = Math.PI / 180;
  let sum = 0;
  for (let i = 0; i < ring.length; i++) {
    const [lon1, lat1] = ring[i]!;
    const [lon2, lat2] = ring[(i + 1) % ring.length]!;
    sum += (lon2 - lon1) * rad * (2 + Math.sin(lat1 * rad) + Math.sin(lat2 * rad));
  }
  return Math.abs((sum * EARTH_RADIUS_KM ** 2) / 2);
}

/** A data date (a calendar day, stored as UTC midnight) in the rep's locale, or "unknown". */
export function formatDataDate(iso: string | null | undefined): string {
  const ms = iso ? new Date(iso).getTime() : NaN;
  return Number.isNaN(ms) ? text.regions.unknownDate : format.utcDate(ms);
}
