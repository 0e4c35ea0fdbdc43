// How an offline region reads in the panel: its bounding box and its area on the sphere. Sizes,
// areas, times and dates are written by the one formatter (ui/format.ts).
import { format } from '../../ui/format';

const EARTH_RADIUS_KM = 6371.0088;

const lat = (v: number) => `${Math.abs(v).toFixed(1)}°${v < 0 ? 'S' : 'N'}`;
const lon = (v: number) => `${Math.abs(v).toFixed(1)}°${v < 0 ? 'W' : 'E'}`;

/** "37.5°N–39.5°N, 99.0°W–97.0°W" from [west, south, east, north]. */
export function formatBounds([w, s, e, n]: readonly [number, number, number, number]): string {
  return `${lat(s)}–${lat(n)}, ${lon(w)}–${lon(e)}`;
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

/** "about 12 km²" (or mi²) for a bounding box [west, south, east, north], or for a ring when given. */
export function formatArea(
  bounds: readonly [number, number, number, number],
  ring?: readonly (readonly [number, number])[],
): string {
  return format.area(ring ? ringAreaKm2(ring) : boundsAreaKm2(bounds));
}

/** A data date (a calendar day, stored as UTC midnight) in the rep's locale, or "unknown". */
export function formatDataDate(iso: string | null | undefined): string {
  const ms = iso ? new Date(iso).getTime() : NaN;
  return Number.isNaN(ms) ? 'unknown' : format.utcDate(ms);
}
