// Domain records -> GeoJSON for the map sources. API points are "<latitude>,<longitude>";
// every position here is [lng, lat] (parsePoint / positionOf do the swap, nowhere else).
import type { Feature, FeatureCollection, LineString, Point, Polygon } from 'geojson';
import {
  isValidPosition,
  parsePoint,
  type LngLat,
  type Route,
  type Territory,
} from '../../../../src-shared';
import { isReminderDue, visitAgeBucket, type VisitAgeBucket } from '../../../../src-shared/visits';
import type { ReminderState } from '../style/colour-by';
import type { CustomerView } from '../../types';

/** [west, south, east, north], or null when there is nothing to bound. */
export type Bounds = [number, number, number, number];

/**
 * A pin's properties: what it is drawn with. `age` (days since the last visit, in bands) and
 * `due` (reminder) are read at `nowMs` when the pin is built, for colour-by (style/colour-by.ts).
 */
export type CustomerProps = {
  id: string;
  name: string;
  color: string;
  pending: boolean;
  age: VisitAgeBucket;
  due: ReminderState;
};

/** A customer's reminder state at `nowMs` (lastVisit/remindAt in the account's unit). */
export function reminderState(c: Pick<CustomerView, 'remindAt'>, nowMs: number): ReminderState {
  if (isReminderDue(c.remindAt, nowMs)) return 'due';
  return c.remindAt ? 'later' : 'none';
}

/** The customers' source data plus the table from numeric feature id to customer id. */
export type CustomerFeatures = {
  collection: FeatureCollection<Point, CustomerProps>;
  /** ids[featureId] = customer id. */
  ids: string[];
  bounds: Bounds | null;
};

export function validLngLat(p: LngLat | null): p is LngLat {
  return p !== null && isValidPosition(p[1], p[0]);
}

export type PinFeature = Feature<Point, CustomerProps>;

/** The pin of a customer under a numeric feature id; null when the customer is unmapped. */
export function pinOf(featureId: number, c: CustomerView, nowMs = Date.now()): PinFeature | null {
  const p = c.position;
  if (!validLngLat(p)) return null;
  return {
    type: 'Feature',
    id: featureId,
    geometry: { type: 'Point', coordinates: [p[0], p[1]] },
    properties: {
      id: c.id,
      name: c.name,
      color: c.color,
      pending: c.pending,
      age: visitAgeBucket(c.lastVisit, nowMs),
      due: reminderState(c, nowMs),
    },
  };
}

/**
 * Builds the customers' features one customer at a time (customerFeatures in one go, or a
 * caller in slices of the UI thread's time): feature ids in order, the id table, the bounds.
 */
export class CustomerFeaturesBuilder {
  readonly features: PinFeature[] = [];
  readonly ids: string[] = [];
  /** customer id -> feature id of the pins added so far. */
  readonly featureIds = new Map<string, number>();
  #west = Infinity;
  #south = Infinity;
  #east = -Infinity;
  #north = -Infinity;
  readonly #now = Date.now();

  /** Adds a customer's pin (ids are unique: the cache's key); its feature id, or -1 when unmapped. */
  add(c: CustomerView): number {
    const fid = this.ids.length;
    const pin = pinOf(fid, c, this.#now);
    if (!pin) return -1;
    this.ids.push(c.id);
    this.featureIds.set(c.id, fid);
    this.features.push(pin);
    const [lng, lat] = pin.geometry.coordinates as [number, number];
    if (lng < this.#west) this.#west = lng;
    if (lng > this.#east) this.#east = lng;
    if (lat < this.#south) this.#south = lat;
    if (lat > this.#north) this.#north = lat;
    return fid;
  }

  result(): CustomerFeatures {
    const bounds: Bounds | null =
      this.ids.length > 0 ? [this.#west, this.#south, this.#east, this.#north] : null;
    return {
      collection: { type: 'FeatureCollection', features: this.features },
      ids: this.ids,
      bounds,
    };
  }
}

/** Mapped customers as point features in one pass; unmapped ones are left out. */
export function customerFeatures(customers: readonly CustomerView[]): CustomerFeatures {
  const builder = new CustomerFeaturesBuilder();
  for (const c of customers) builder.add(c);
  return builder.result();
}

/** The valid points of a route or territory, in order, as [lng, lat]. */
export function pointsOf(record: Pick<Route | Territory, 'points'>): LngLat[] {
  return record.points.map(parsePoint).filter(validLngLat);
}

/** Bounds of a list of positions, or null when empty. */
export function boundsOf(points: readonly LngLat[]): Bounds | null {
  if (points.length === 0) return null;
  const b: Bounds = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [lng, lat] of points) {
    b[0] = Math.min(b[0], lng);
    b[1] = Math.min(b[1], lat);
    b[2] = Math.max(b[2], lng);
    b[3] = Math.max(b[3], lat);
  }
  return b;
}

export type NamedProps = { id: string; name: string };

/** Territories with at least three valid points, as closed polygons. */
export function territoryFeatures(
  territories: readonly Territory[],
): FeatureCollection<Polygon, NamedProps> {
  const features: Feature<Polygon, NamedProps>[] = [];
  territories.forEach((t, i) => {
    const ring = pointsOf(t);
    if (ring.length < 3) return;
    const first = ring[0] as LngLat;
    const last = ring[ring.length - 1] as LngLat;
    if (first[0] !== last[0] || first[1] !== last[1]) ring.push([first[0], first[1]]);
    if (ring.length < 4) return;
    features.push({
      type: 'Feature',
      id: i,
      geometry: { type: 'Polygon', coordinates: [ring] },
      properties: { id: t.id, name: t.name },
    });
  });
  return { type: 'FeatureCollection', features };
}

/** One label point per territory, inside its polygon. */
export function territoryLabelPoints(
  polygons: FeatureCollection<Polygon, NamedProps>,
): FeatureCollection<Point, NamedProps> {
  return {
    type: 'FeatureCollection',
    features: polygons.features.map((f) => ({
      type: 'Feature',
      id: f.id,
      geometry: { type: 'Point', coordinates: labelPoint(f.geometry.coordinates[0] as LngLat[]) },
      properties: f.properties,
    })),
  };
}

/** Area centroid of a ring when it lies inside, else the middle of the widest inside span at that latitude. */
export function labelPoint(ring: readonly LngLat[]): LngLat {
  let a = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < ring.length - 1; i++) {
    const [x0, y0] = ring[i] as LngLat;
    const [x1, y1] = ring[i + 1] as LngLat;
    const cross = x0 * y1 - x1 * y0;
    a += cross;
    cx += (x0 + x1) * cross;
    cy += (y0 + y1) * cross;
  }
  if (a === 0) return ring[0] as LngLat;
  const centroid: LngLat = [cx / (3 * a), cy / (3 * a)];
  if (pointInRing(centroid, ring)) return centroid;
  // Concave shape: scan the centroid's latitude for the widest stretch inside the ring.
  const y = centroid[1];
  const xs: number[] = [];
  for (let i = 0; i < ring.length - 1; i++) {
    const [x0, y0] = ring[i] as LngLat;
    const [x1, y1] = ring[i + 1] as LngLat;
    if (y0 > y !== y1 > y) xs.push(x0 + ((y - y0) / (y1 - y0)) * (x1 - x0));
  }
  xs.sort((p, q) => p - q);
  let best: LngLat = ring[0] as LngLat;
  let width = -1;
  for (let i = 0; i + 1 < xs.length; i += 2) {
    const w = (xs[i + 1] as number) - (xs[i] as number);
    if (w > width) {
      width = w;
      best = [((xs[i] as number) + (xs[i + 1] as number)) / 2, y];
    }
  }
  return best;
}

function pointInRing([x, y]: LngLat, ring: readonly LngLat[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i] as LngLat;
    const [xj, yj] = ring[j] as LngLat;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

export type StopProps = { routeId: string; stop: number };

/** Routes as lines through their valid points in order, and their numbered stops. */
export function routeFeatures(routes: readonly Route[]): {
  lines: FeatureCollection<LineString, NamedProps>;
  stops: FeatureCollection<Point, StopProps>;
} {
  const lines: Feature<LineString, NamedProps>[] = [];
  const stops: Feature<Point, StopProps>[] = [];
  routes.forEach((r, i) => {
    const points = pointsOf(r);
    points.forEach((p, n) =>
      stops.push({
        type: 'Feature',
        id: stops.length,
        geometry: { type: 'Point', coordinates: [p[0], p[1]] },
        properties: { routeId: r.id, stop: n + 1 },
      }),
    );
    if (points.length < 2) return;
    lines.push({
      type: 'Feature',
      id: i,
      geometry: { type: 'LineString', coordinates: points.map((p) => [p[0], p[1]]) },
      properties: { id: r.id, name: r.name },
    });
  });
  return {
    lines: { type: 'FeatureCollection', features: lines },
    stops: { type: 'FeatureCollection', features: stops },
  };
}
