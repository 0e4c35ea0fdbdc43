// The areas the Offline maps panel proposes to download, from the account's own data: one per
// cluster of customers (customers closer than LINK_KM join a cluster) and one per territory,
// each with a margin around it. No area spans more than MAX_SPAN_KM: a wider cluster or
// territory is cut in two along its longer side until every part fits, so a rep with customers
// across the country gets one area per metro, never a bbox spanning the continent; biggest first.
// Pure and free of words (no text.ts, no runes): it runs in the areas worker (area-worker.ts)
// at 100k customers, and the page names the plan it returns (proposed-areas.ts).
import type { LngLat } from '../../../../src-shared';

export type Bounds = [number, number, number, number];

/**
 * One area of the plan, with what the page needs to name it: a customers' area by its main city
 * (null when none has a city; then by its count and centre), a territory by its name and part.
 */
export type AreaPlan =
  | {
      kind: 'customers';
      bounds: Bounds;
      count: number;
      main: { city: string; others: number } | null;
      /** The centre of the customers' own box (before the margin). */
      center: LngLat;
    }
  | { kind: 'territory'; bounds: Bounds; count: number; name: string; part: number; parts: number };

/** A mapped customer: where, and the city the account gives it ("" when none). */
export interface PlacedCustomer {
  at: LngLat;
  city: string;
}

export const LINK_KM = 15;
export const MARGIN_KM = 5;
export const MAX_SPAN_KM = 120;
const KM_PER_DEG_LAT = 111.32;

const kmPerDegLon = (lat: number) =>
  KM_PER_DEG_LAT * Math.max(0.01, Math.cos((lat * Math.PI) / 180));

/** The bounding box [west, south, east, north] of the points. */
export function boundsOf(points: readonly LngLat[]): Bounds {
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [lng, lat] of points) {
    w = Math.min(w, lng);
    e = Math.max(e, lng);
    s = Math.min(s, lat);
    n = Math.max(n, lat);
  }
  return [w, s, e, n];
}

function spanKm([w, s, e, n]: Bounds): { x: number; y: number } {
  return { x: (e - w) * kmPerDegLon((s + n) / 2), y: (n - s) * KM_PER_DEG_LAT };
}

/** Degrees a region's stored bounds may differ from the area asked (its header keeps 1e-7°). */
const HELD_EPSILON = 1e-6;

/**
 * True when an offline region on this laptop already covers the area to the max zoom asked: the
 * list marks it, so the rep does not fetch the same streets twice.
 */
export function heldOffline(
  [w, s, e, n]: Bounds,
  maxZoom: number,
  regions: ReadonlyArray<{ bounds: readonly number[]; maxZoom: number }>,
): boolean {
  return regions.some(
    ({ bounds: [rw, rs, re, rn], maxZoom: z }) =>
      z >= maxZoom &&
      rw! <= w + HELD_EPSILON &&
      rs! <= s + HELD_EPSILON &&
      re! >= e - HELD_EPSILON &&
      rn! >= n - HELD_EPSILON,
  );
}

export function withMargin([w, s, e, n]: Bounds, km = MARGIN_KM): Bounds {
  const dLat = km / KM_PER_DEG_LAT;
  const dLon = km / kmPerDegLon((s + n) / 2);
  return [
    Math.max(-180, w - dLon),
    Math.max(-85, s - dLat),
    Math.min(180, e + dLon),
    Math.min(85, n + dLat),
  ];
}

/** Splits customers along the longer side at the median until each part spans at most MAX_SPAN_KM. */
function splitWide(customers: PlacedCustomer[]): PlacedCustomer[][] {
  const span = spanKm(boundsOf(customers.map((c) => c.at)));
  if ((span.x <= MAX_SPAN_KM && span.y <= MAX_SPAN_KM) || customers.length < 2) return [customers];
  const axis = span.x >= span.y ? 0 : 1;
  const sorted = [...customers].sort((a, b) => a.at[axis] - b.at[axis]);
  const half = Math.ceil(sorted.length / 2);
  return [...splitWide(sorted.slice(0, half)), ...splitWide(sorted.slice(half))];
}

/**
 * The customers' most common city and how many other cities there are, or null when none has
 * a city. Cities are compared without case and outer spaces; the first spelling seen is shown.
 */
export function mainCity(
  customers: readonly PlacedCustomer[],
): { city: string; others: number } | null {
  const counts = new Map<string, { city: string; n: number }>();
  for (const { city } of customers) {
    const name = city.trim();
    if (name === '') continue;
    const key = name.toLocaleLowerCase();
    const seen = counts.get(key);
    if (seen) seen.n++;
    else counts.set(key, { city: name, n: 1 });
  }
  let best: { city: string; n: number } | null = null;
  for (const entry of counts.values()) if (!best || entry.n > best.n) best = entry;
  return best && { city: best.city, others: counts.size - 1 };
}

/** A box cut into a grid of boxes no wider or taller than MAX_SPAN_KM. */
function gridSplit(bounds: Bounds): Bounds[] {
  const span = spanKm(bounds);
  const nx = Math.max(1, Math.ceil(span.x / MAX_SPAN_KM));
  const ny = Math.max(1, Math.ceil(span.y / MAX_SPAN_KM));
  const [w, s, e, n] = bounds;
  const out: Bounds[] = [];
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      const x0 = w + ((e - w) * i) / nx;
      const y0 = s + ((n - s) * j) / ny;
      out.push([x0, y0, x0 + (e - w) / nx, y0 + (n - s) / ny]);
    }
  }
  return out;
}

/**
 * Single-linkage clusters of customers closer than LINK_KM, on a grid of LINK_KM cells; biggest
 * first, each in the customers' order. A cell keeps its customers in buckets of one cluster
 * each, so a customer is measured only against clusters it has not joined yet and stops at the
 * first customer of a bucket within reach: a metro's thousands of customers in a few cells cost
 * a few buckets each, not every pair. The clusters are those of linking every pair within reach.
 */
export function clusterPoints(customers: readonly PlacedCustomer[]): PlacedCustomer[][] {
  const points = customers.map((c) => c.at);
  const parent = points.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const cellDeg = LINK_KM / KM_PER_DEG_LAT;
  // A cell's row is within ±90° / cellDeg (under 700), so the number is one per cell.
  const cells = new Map<number, Array<{ root: number; members: number[] }>>();
  const key = (cx: number, cy: number) => cx * 2048 + cy;
  const near = (p: LngLat, q: LngLat) => {
    const x = (p[0] - q[0]) * kmPerDegLon((p[1] + q[1]) / 2);
    const y = (p[1] - q[1]) * KM_PER_DEG_LAT;
    return x * x + y * y <= LINK_KM * LINK_KM;
  };
  points.forEach((p, i) => {
    const [lng, lat] = p;
    const cy = Math.floor(lat / cellDeg);
    const cx = Math.floor((lng * kmPerDegLon(lat)) / LINK_KM);
    for (let dx = -1; dx <= 1; dx++) {
      for (let dy = -1; dy <= 1; dy++) {
        for (const bucket of cells.get(key(cx + dx, cy + dy)) ?? []) {
          if (find(bucket.root) === find(i)) continue;
          for (const j of bucket.members) {
            if (!near(p, points[j]!)) continue;
            parent[find(i)] = find(j);
            break;
          }
        }
      }
    }
    const own = cells.get(key(cx, cy)) ?? [];
    cells.set(key(cx, cy), own);
    // Buckets whose clusters have joined since become one, and the customer goes to its own.
    const byRoot = new Map<number, number[]>();
    for (const bucket of own) {
      const root = find(bucket.root);
      const members = byRoot.get(root);
      if (members) for (const j of bucket.members) members.push(j);
      else byRoot.set(root, bucket.members);
    }
    const root = find(i);
    const mine = byRoot.get(root);
    if (mine) mine.push(i);
    else byRoot.set(root, [i]);
    own.length = 0;
    for (const [r, members] of byRoot) own.push({ root: r, members });
  });
  const groups = new Map<number, PlacedCustomer[]>();
  customers.forEach((c, i) => {
    const root = find(i);
    const group = groups.get(root);
    if (group) group.push(c);
    else groups.set(root, [c]);
  });
  return [...groups.values()].sort((a, b) => b.length - a.length);
}

/** The areas to propose: customers' clusters biggest first, then the territories in order. */
export function planAreas(
  customers: readonly PlacedCustomer[],
  territories: ReadonlyArray<{ name: string; points: readonly LngLat[] }>,
): AreaPlan[] {
  const areas: AreaPlan[] = [];
  for (const cluster of clusterPoints(customers)) {
    for (const part of splitWide(cluster)) {
      const b = boundsOf(part.map((c) => c.at));
      areas.push({
        kind: 'customers',
        bounds: withMargin(b),
        count: part.length,
        main: mainCity(part),
        center: [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2],
      });
    }
  }
  // Biggest first (a split metro's parts are smaller than the metro was).
  areas.sort((a, b) => b.count - a.count);
  for (const territory of territories) {
    if (territory.points.length === 0) continue;
    const parts = gridSplit(withMargin(boundsOf(territory.points)));
    parts.forEach((bounds, i) => {
      areas.push({
        kind: 'territory',
        bounds,
        count: territory.points.length,
        name: territory.name,
        part: i + 1,
        parts: parts.length,
      });
    });
  }
  return areas;
}
