// "Who is near here": customers within a radius of a point, nearest first, at 100,000 customers.
// A static KD-tree (kdbush) over [longitude, latitude] answers a box that surely holds the
// circle; great-circle distance then keeps what is inside and sorts it. The box widens in
// longitude with latitude, takes every longitude near the poles, and is cut in two where it
// crosses the antimeridian, so no customer inside the radius is ever missed.
import KDBush from 'kdbush';
import { haversineMeters, isValidPosition, type LngLat } from './geo';

const EARTH_RADIUS_M = 6_371_008.8;
const DEG = 180 / Math.PI;

export interface NearbyHit {
  /** Index of the customer in the array the index was built from. */
  index: number;
  meters: number;
}

export class NearbyIndex {
  readonly #tree: KDBush;
  readonly #points: Float64Array;
  /** Tree item k is customer #ids[k]; null when no customer is on the map. */
  readonly #ids: Uint32Array | null;

  /**
   * `positions[i]` is customer i's [lng, lat], or null when it is not on the map; or the same as
   * two columns (what a worker receives: transferred, not cloned), NaN where there is no position.
   */
  constructor(positions: ReadonlyArray<LngLat | null> | NearbyColumns) {
    const { lng, lat } = Array.isArray(positions)
      ? toColumns(positions as ReadonlyArray<LngLat | null>)
      : (positions as NearbyColumns);
    const n = lng.length;
    let mappedCount = 0;
    for (let i = 0; i < n; i++) if (isValidPosition(lat[i], lng[i])) mappedCount++;
    this.#tree = new KDBush(Math.max(1, mappedCount), 64, Float64Array);
    this.#points = new Float64Array(n * 2);
    const ids = new Uint32Array(mappedCount);
    let k = 0;
    for (let i = 0; i < n; i++) {
      const x = lng[i]!;
      const y = lat[i]!;
      if (!isValidPosition(y, x)) continue;
      this.#points[i * 2] = x;
      this.#points[i * 2 + 1] = y;
      ids[k++] = i;
      this.#tree.add(x, y);
    }
    if (mappedCount === 0) this.#tree.add(0, 0);
    this.#tree.finish();
    this.#ids = mappedCount === 0 ? null : ids;
  }

  /** Customers within `radiusMeters` of `center`, nearest first (ties by index), at most `limit`. */
  within(center: LngLat, radiusMeters: number, limit = Infinity): NearbyHit[] {
    return this.search(center, radiusMeters, { limit }).hits;
  }

  /**
   * The nearest `limit` customers within `radiusMeters` of `center` (ties by index), and how many
   * are within it in all; customer `exclude` (the one the search is around) is never a hit.
   */
  search(
    center: LngLat,
    radiusMeters: number,
    { limit = Infinity, exclude = -1 }: { limit?: number; exclude?: number } = {},
  ): { hits: NearbyHit[]; total: number } {
    if (!this.#ids || !(radiusMeters >= 0)) return { hits: [], total: 0 };
    const [lng, lat] = center;
    const angular = radiusMeters / EARTH_RADIUS_M;
    const dLat = angular * DEG;
    const south = lat - dLat;
    const north = lat + dLat;
    const boxes: Array<[number, number, number, number]> = [];
    const cosLat = Math.cos(lat / DEG);
    // A circle that reaches a pole (sin r >= cos lat), or wider than a hemisphere: every longitude.
    if (angular >= Math.PI / 2 || Math.sin(angular) >= cosLat) {
      boxes.push([-180, Math.max(-90, south), 180, Math.min(90, north)]);
    } else {
      const dLng = Math.asin(Math.sin(angular) / cosLat) * DEG;
      const west = lng - dLng;
      const east = lng + dLng;
      if (west < -180) boxes.push([west + 360, south, 180, north], [-180, south, east, north]);
      else if (east > 180) boxes.push([west, south, 180, north], [-180, south, east - 360, north]);
      else boxes.push([west, south, east, north]);
    }
    const hits: NearbyHit[] = [];
    // Only split boxes (antimeridian) can both hold a customer: one box needs no dedupe.
    const seen = boxes.length > 1 ? new Set<number>() : null;
    for (const [minX, minY, maxX, maxY] of boxes) {
      for (const k of this.#tree.range(minX, minY, maxX, maxY)) {
        const index = this.#ids[k]!;
        if (index === exclude || seen?.has(index)) continue;
        seen?.add(index);
        const meters = haversineMeters(center, [
          this.#points[index * 2]!,
          this.#points[index * 2 + 1]!,
        ]);
        if (meters <= radiusMeters) hits.push({ index, meters });
      }
    }
    hits.sort((a, b) => a.meters - b.meters || a.index - b.index);
    return { hits: hits.length > limit ? hits.slice(0, limit) : hits, total: hits.length };
  }
}

/** Positions as columns: customer i at (lng[i], lat[i]); NaN in both when it has none. */
export interface NearbyColumns {
  lng: Float64Array;
  lat: Float64Array;
}

/** Columns of positions (`[lng, lat]` or null per customer). */
export function toColumns(positions: ReadonlyArray<LngLat | null>): NearbyColumns {
  const lng = new Float64Array(positions.length).fill(NaN);
  const lat = new Float64Array(positions.length).fill(NaN);
  positions.forEach((p, i) => {
    if (!p) return;
    lng[i] = p[0];
    lat[i] = p[1];
  });
  return { lng, lat };
}

/** A closed ring of `steps` points at `radiusMeters` from `center` on the sphere (a map circle). */
export function circleRing(center: LngLat, radiusMeters: number, steps = 72): LngLat[] {
  const rad = Math.PI / 180;
  const lat1 = center[1] * rad;
  const lng1 = center[0] * rad;
  const d = radiusMeters / EARTH_RADIUS_M;
  const ring: LngLat[] = [];
  for (let i = 0; i < steps; i++) {
    const bearing = (2 * Math.PI * i) / steps;
    const lat2 = Math.asin(
      Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(bearing),
    );
    const lng2 =
      lng1 +
      Math.atan2(
        Math.sin(bearing) * Math.sin(d) * Math.cos(lat1),
        Math.cos(d) - Math.sin(lat1) * Math.sin(lat2),
      );
    ring.push([lng2 * DEG, lat2 * DEG]);
  }
  ring.push(ring[0]!);
  return ring;
}
