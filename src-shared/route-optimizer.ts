// Orders a route's stops to make the trip short: great-circle distances, nearest-neighbour
// construction, then local search (2-opt and Or-opt) with seeded perturbation kicks.
//
// The path is OPEN and anchored: it starts at `start` when given (a position, not a stop),
// else at the first stop as given (that stop stays first), visits every stop once, and does
// not return. Pure and synchronous: works offline, no DOM or node imports.
import { haversineMeters, type LngLat } from './geo';
import { mulberry32 } from './prng';

/** A stop to visit. */
export interface RouteStop {
  id: string;
  position: LngLat;
}

export interface OptimizeOptions {
  /** Where the trip starts (e.g. the rep's position); default: the first stop. */
  start?: LngLat | null;
  /** Perturbation rounds after the first local optimum (default: scales with the stop count). */
  kicks?: number;
  /** Seed of the perturbations, so a result is reproducible (default 1). */
  seed?: number;
}

export interface OptimizedRoute {
  /** The stops in the new order. */
  stops: RouteStop[];
  /** Trip length in metres in the order given. */
  metersBefore: number;
  /** Trip length in metres in the new order (never more than metersBefore). */
  metersAfter: number;
}

/** Distances between the anchor (index 0) and the stops (1..n), row-major. */
export class DistanceMatrix {
  readonly size: number;
  readonly #d: Float64Array;

  constructor(points: readonly LngLat[]) {
    const n = points.length;
    this.size = n;
    this.#d = new Float64Array(n * n);
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const m = haversineMeters(points[i]!, points[j]!);
        this.#d[i * n + j] = m;
        this.#d[j * n + i] = m;
      }
    }
  }

  at(i: number, j: number): number {
    return this.#d[i * this.size + j]!;
  }
}

/** Length of an open path over matrix indices. */
export function pathLength(d: DistanceMatrix, path: readonly number[]): number {
  let sum = 0;
  for (let k = 1; k < path.length; k++) sum += d.at(path[k - 1]!, path[k]!);
  return sum;
}

/** Trip length in metres: from `start` (when given) through the stops in order. */
export function routeLength(stops: readonly RouteStop[], start?: LngLat | null): number {
  const points = [...(start ? [start] : []), ...stops.map((s) => s.position)];
  let sum = 0;
  for (let k = 1; k < points.length; k++) sum += haversineMeters(points[k - 1]!, points[k]!);
  return sum;
}

// An improvement must beat rounding noise, or the search could cycle on equal-length moves.
const EPS = 1e-7;

/** 2-opt on an open path with path[0] fixed: reverses segments while that shortens it. */
function twoOpt(d: DistanceMatrix, p: number[]): boolean {
  const n = p.length;
  let improvedAny = false;
  let improved = true;
  while (improved) {
    improved = false;
    for (let i = 1; i < n - 1; i++) {
      const a = p[i - 1]!;
      const b = p[i]!;
      const dab = d.at(a, b);
      for (let j = i + 1; j < n; j++) {
        const c = p[j]!;
        // The open end costs nothing: reversing a tail only changes its first edge.
        const next = j + 1 < n ? p[j + 1]! : -1;
        const before = dab + (next >= 0 ? d.at(c, next) : 0);
        const after = d.at(a, c) + (next >= 0 ? d.at(b, next) : 0);
        if (after < before - EPS) {
          reverse(p, i, j);
          improved = improvedAny = true;
          break;
        }
      }
    }
  }
  return improvedAny;
}

function reverse(p: number[], i: number, j: number): void {
  for (; i < j; i++, j--) {
    const t = p[i]!;
    p[i] = p[j]!;
    p[j] = t;
  }
}

/** Or-opt: moves a segment of 1-3 stops (either way round) to a better place. */
function orOpt(d: DistanceMatrix, p: number[]): boolean {
  const n = p.length;
  let improvedAny = false;
  let improved = true;
  while (improved) {
    improved = false;
    outer: for (let len = 1; len <= 3; len++) {
      for (let i = 1; i + len - 1 < n; i++) {
        const first = p[i]!;
        const last = p[i + len - 1]!;
        const prev = p[i - 1]!;
        const next = i + len < n ? p[i + len]! : -1;
        // What taking the segment out saves.
        const removed = d.at(prev, first) + (next >= 0 ? d.at(last, next) - d.at(prev, next) : 0);
        for (let k = 0; k < n; k++) {
          // Insert between p[k] and p[k+1] (k+1 === n: at the open end); not inside or beside itself.
          if (k >= i - 1 && k <= i + len - 1) continue;
          const x = p[k]!;
          const y = k + 1 < n ? p[k + 1]! : -1;
          const base = y >= 0 ? d.at(x, y) : 0;
          const forward = d.at(x, first) + (y >= 0 ? d.at(last, y) : 0) - base;
          const backward = d.at(x, last) + (y >= 0 ? d.at(first, y) : 0) - base;
          const added = Math.min(forward, backward);
          if (added < removed - EPS) {
            const segment = p.splice(i, len);
            if (backward < forward) segment.reverse();
            const at = k < i ? k + 1 : k + 1 - len;
            p.splice(at, 0, ...segment);
            improved = improvedAny = true;
            break outer;
          }
        }
      }
    }
  }
  return improvedAny;
}

/** Local search to a 2-opt + Or-opt optimum; `path[0]` is the fixed anchor. Mutates and returns `path`. */
export function localSearch(d: DistanceMatrix, path: number[]): number[] {
  let again = true;
  while (again) {
    twoOpt(d, path);
    again = orOpt(d, path);
  }
  return path;
}

/** Nearest-neighbour path from index 0 over every index. */
export function nearestNeighbour(d: DistanceMatrix): number[] {
  const n = d.size;
  const used = new Uint8Array(n);
  const path = [0];
  used[0] = 1;
  for (let step = 1; step < n; step++) {
    const from = path[path.length - 1]!;
    let best = -1;
    let bestD = Infinity;
    for (let j = 1; j < n; j++) {
      if (!used[j] && d.at(from, j) < bestD) {
        bestD = d.at(from, j);
        best = j;
      }
    }
    used[best] = 1;
    path.push(best);
  }
  return path;
}

/** The project's seeded PRNG under the name route code has used (see ./prng.ts). */
export { mulberry32 as seededRandom };

/** Double-bridge kick: cuts the path (after the anchor) in four and swaps the middle pieces. */
function doubleBridge(p: readonly number[], random: () => number): number[] {
  const n = p.length;
  const cut = () => 1 + Math.floor(random() * (n - 1));
  const [a, b, c] = [cut(), cut(), cut()].sort((x, y) => x - y) as [number, number, number];
  return [...p.slice(0, a), ...p.slice(b, c), ...p.slice(a, b), ...p.slice(c)];
}

/**
 * Orders `stops` to minimise the open trip from the anchor (see the file header). The result is
 * never longer than the order given (its time: npm run bench, route-opt).
 */
export function optimizeRoute(
  stops: readonly RouteStop[],
  options: OptimizeOptions = {},
): OptimizedRoute {
  const start = options.start ?? null;
  const metersBefore = routeLength(stops, start);
  // Index 0 is the anchor: the start point, or the first stop.
  const anchored = start ? stops : stops.slice(1);
  const points = [start ?? stops[0]?.position, ...anchored.map((s) => s.position)];
  if (anchored.length < 2 || points[0] === undefined) {
    return { stops: [...stops], metersBefore, metersAfter: metersBefore };
  }
  const d = new DistanceMatrix(points as LngLat[]);
  const given = points.map((_, i) => i);
  let best = localSearch(d, given.slice());
  let bestLength = pathLength(d, best);
  const fromNn = localSearch(d, nearestNeighbour(d));
  if (pathLength(d, fromNn) < bestLength) {
    best = fromNn;
    bestLength = pathLength(d, fromNn);
  }
  const random = mulberry32(options.seed ?? 1);
  const kicks = options.kicks ?? Math.min(200, 10 + 2 * anchored.length);
  if (d.size > 4) {
    for (let k = 0; k < kicks; k++) {
      const candidate = localSearch(d, doubleBridge(best, random));
      const length = pathLength(d, candidate);
      if (length < bestLength - EPS) {
        best = candidate;
        bestLength = length;
      }
    }
  }
  const metersAfter = Math.min(bestLength, metersBefore);
  if (bestLength >= metersBefore) return { stops: [...stops], metersBefore, metersAfter };
  const ordered = best.slice(1).map((i) => anchored[i - 1]!);
  return { stops: start ? ordered : [stops[0]!, ...ordered], metersBefore, metersAfter };
}
