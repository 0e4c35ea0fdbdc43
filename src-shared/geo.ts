// Positions: the API speaks "<latitude>,<longitude>" strings and separate latitude/longitude
// fields; GeoJSON and MapLibre want [longitude, latitude]. Every conversion goes through here.
import type { Customer, CustomerFields } from './domain';

/** [longitude, latitude], the GeoJSON order. */
export type LngLat = [lng: number, lat: number];

/** True when lat/lng are finite, in range, and not the "unset" null island (0, 0). */
export function isValidPosition(lat: unknown, lng: unknown): boolean {
  return (
    typeof lat === 'number' &&
    typeof lng === 'number' &&
    Number.isFinite(lat) &&
    Number.isFinite(lng) &&
    lat >= -90 &&
    lat <= 90 &&
    lng >= -180 &&
    lng <= 180 &&
    !(lat === 0 && lng === 0)
  );
}

/** The customer's position as [lng, lat], or null when the customer is unmapped. */
export function positionOf(
  c: Pick<Customer | CustomerFields, 'latitude' | 'longitude'>,
): LngLat | null {
  return isValidPosition(c.latitude, c.longitude)
    ? [c.longitude as number, c.latitude as number]
    : null;
}

/** Parses an API point "<latitude>,<longitude>" into [lng, lat]; null when malformed. */
export function parsePoint(point: string): LngLat | null {
  const parts = point.split(',');
  if (parts.length !== 2) return null;
  const [latText, lngText] = parts as [string, string];
  if (latText.trim() === '' || lngText.trim() === '') return null;
  const lat = Number(latText);
  const lng = Number(lngText);
  return isValidPosition(lat, lng) ? [lng, lat] : null;
}

/** Formats [lng, lat] as the API's "<latitude>,<longitude>". */
export function formatPoint([lng, lat]: LngLat): string {
  return `${lat},${lng}`;
}

const EARTH_RADIUS_M = 6_371_008.8;

/** Great-circle distance in metres between two [lng, lat] positions. */
export function haversineMeters(a: LngLat, b: LngLat): number {
  const toRad = Math.PI / 180;
  const dLat = (b[1] - a[1]) * toRad;
  const dLng = (b[0] - a[0]) * toRad;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a[1] * toRad) * Math.cos(b[1] * toRad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}
