// "Who is near here": customers within a radius of a point, nearest first, at 100,000 customers.
// A static KD-tree (kdbush) over [longitude, latitude] answers a box that surely holds the
// circle; great-circle distance then keeps what is inside and sorts it. The box widens in
// longitude with latitude, takes every longitude near the poles, and is cut in two where it
// crosses the antimeridian, so no customer inside the radius is ever missed.
import KDBush from 'kdbush';
import { haversineMeters, type LngLat } from './geo';

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

  /** `positions[i]` is customer i's [lng, lat], or null when it is not on the map. */
  constructor(positions: ReadonlyArray<LngLat | null>) {
    const mapped: number[] = [];
    positions.forEach((p, i) => {
      if (p) mapped.push(i);
    });
    this.#tree = new KDBush(Math.max(1, mapped.length), 64, Float64Array);
    this.#points = new Float64Array(positions.length * 2);
    const ids = new Uint32Array(mapped.length);
    mapped.forEach((i, k) => {
      const [lng, lat] = positions[i]!;
      this.#points[i * 2] = lng;
      this.#points[i * 2 + 1] = lat;
      ids[k] = i;
      this.#tree.add(lng, lat);
    });
    if (mapped.length === 0) this.#tree.add(0, 0);
    this.#tree.finish();
    this.#ids = mapped.length === 0 ? null : ids;
  }

  /** Customers within `radiusMeters` of `center`, nearest first (ties by index), at most `limit`. */
  within(center: LngLat, radiusMeters: number, limit = Infinity): NearbyHit[] {
    if (!this.#ids || !(radiusMeters >= 0)) return [];
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
    const seen = new Set<number>();
    for (const [minX, minY, maxX, maxY] of boxes) {
      for (const k of this.#tree.range(minX, minY, maxX, maxY)) {
        const index = this.#ids[k]!;
        if (seen.has(index)) continue;
        seen.add(index);
        const meters = haversineMeters(center, [
          this.#points[index * 2]!,
          this.#points[index * 2 + 1]!,
        ]);
        if (meters <= radiusMeters) hits.push({ index, meters });
      }
    }
    hits.sort((a, b) => a.meters - b.meters || a.index - b.index);
    return hits.length > limit ? hits.slice(0, limit) : hits;
  }
}
