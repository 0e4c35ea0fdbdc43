// How an offline region reads in the panel: its size in MB and its area as a bounding box.

const MB = 1024 * 1024;
const EARTH_RADIUS_KM = 6371.0088;

export function formatMegabytes(bytes: number): string {
  const mb = bytes / MB;
  const digits = mb < 0.1 ? 2 : 1; // a small region still reads as more than nothing
  return `${mb < 10 ? mb.toFixed(digits) : Math.round(mb).toLocaleString('en-US')} MB`;
}

/** Storage use: KB below one MB (a few cached tiles), else MB. */
export function formatStorage(bytes: number): string {
  return bytes < MB
    ? `${Math.ceil(bytes / 1024).toLocaleString('en-US')} KB`
    : formatMegabytes(bytes);
}

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

/** "about 12 km²" for a bounding box [west, south, east, north], or for a ring when given. */
export function formatArea(
  bounds: readonly [number, number, number, number],
  ring?: readonly (readonly [number, number])[],
): string {
  const km2 = ring ? ringAreaKm2(ring) : boundsAreaKm2(bounds);
  const rounded = km2 >= 1000 ? Math.round(km2 / 100) * 100 : Math.round(km2);
  return `about ${rounded.toLocaleString('en-US')} km²`;
}

/** "about 3 min left", "less than a minute left"; empty while there is no rate yet. */
export function formatTimeLeft(seconds: number | null): string {
  if (seconds === null) return '';
  if (seconds < 60) return 'less than a minute left';
  if (seconds < 3600) return `about ${Math.round(seconds / 60)} min left`;
  return `about ${(seconds / 3600).toFixed(1)} h left`;
}

/** A data date as "1 Nov 2026" (UTC), or "unknown". */
export function formatDataDate(iso: string | null | undefined): string {
  if (!iso) return 'unknown';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return 'unknown';
  return date.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}
