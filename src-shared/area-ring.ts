// A polygon area to download (one ring of [lon, lat], as the rep draws it): the checks that it is
// an area at all (3 distinct corners, some surface, an outline that does not cross itself), and
// the point and segment tests the extractor (and the map's lasso) use to find what it touches. Main refuses a
// bad ring over IPC; the Offline maps panel says why at once, without asking main.

type Point = readonly [number, number];

/** Below this (square degrees, about 1 m² at the equator) a ring has no surface. */
export const MIN_RING_AREA = 1e-10;

const orientation = (p: Point, q: Point, r: Point): number =>
  Math.sign((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]));

/** r, collinear with p and q, lies on the segment pq. */
const onSegment = (p: Point, q: Point, r: Point): boolean =>
  Math.min(p[0], q[0]) <= r[0] &&
  r[0] <= Math.max(p[0], q[0]) &&
  Math.min(p[1], q[1]) <= r[1] &&
  r[1] <= Math.max(p[1], q[1]);

const same = (a: Point, b: Point) => a[0] === b[0] && a[1] === b[1];

/** Whether the segments ab and cd share a point: they cross, touch or overlap. */
export function segmentsIntersect(a: Point, b: Point, c: Point, d: Point): boolean {
  const o1 = orientation(a, b, c);
  const o2 = orientation(a, b, d);
  const o3 = orientation(c, d, a);
  const o4 = orientation(c, d, b);
  if (o1 !== o2 && o3 !== o4) return true;
  return (
    (o1 === 0 && onSegment(a, b, c)) ||
    (o2 === 0 && onSegment(a, b, d)) ||
    (o3 === 0 && onSegment(c, d, a)) ||
    (o4 === 0 && onSegment(c, d, b))
  );
}

/** Ray casting: true when the point is inside the ring (a closed or open list of [lon, lat]). */
export function insideRing(point: Point, ring: readonly Point[]): boolean {
  const [x, y] = point;
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Two edges meeting at `shared` fold back over each other (the outline doubles back). */
const foldsBack = (shared: Point, a: Point, b: Point): boolean =>
  orientation(shared, a, b) === 0 &&
  (a[0] - shared[0]) * (b[0] - shared[0]) + (a[1] - shared[1]) * (b[1] - shared[1]) > 0;

/** Most corners an area to download may have: every check of one stays a few milliseconds. */
export const MAX_AREA_CORNERS = 10_000;

/** The refusal of a ring with more than MAX_AREA_CORNERS corners (also the IPC schema's). */
export const TOO_MANY_CORNERS = `An area to download may have at most ${MAX_AREA_CORNERS.toLocaleString('en-US')} corners; choose or draw a simpler outline.`;

/** Why the ring is not an area to download (a sentence for the rep), or null when it is. */
export function ringProblem(ring: readonly Point[]): string | null {
  // Repeated clicks on one spot and the closing point are not corners.
  const points: Point[] = [];
  for (const p of ring) if (!points.length || !same(points[points.length - 1]!, p)) points.push(p);
  if (points.length > 1 && same(points[0]!, points[points.length - 1]!)) points.pop();
  const distinct = new Set(points.map(([x, y]) => `${x},${y}`)).size;
  if (distinct < 3)
    return `An area needs at least 3 different corners (this one has ${distinct}); draw it again.`;
  if (points.length > MAX_AREA_CORNERS) return TOO_MANY_CORNERS;
  const flat = 'This area has no surface (its corners lie on one line); draw it again.';
  // Every corner near the line from the first to the farthest one: a line, not an area.
  const [x0, y0] = points[0]!;
  const far = points.reduce((f, p) =>
    Math.hypot(p[0] - x0, p[1] - y0) > Math.hypot(f[0] - x0, f[1] - y0) ? p : f,
  );
  const offLine = (p: Point) =>
    Math.abs((far[0] - x0) * (p[1] - y0) - (far[1] - y0) * (p[0] - x0)) / 2;
  if (points.every((p) => offLine(p) < MIN_RING_AREA)) return flat;
  if (outlineCrosses(points))
    return "The area's outline crosses itself; draw it again without crossing lines.";
  const n = points.length;
  let twiceArea = 0;
  for (let i = 0; i < n; i++) {
    const [x1, y1] = points[i]!;
    const [x2, y2] = points[(i + 1) % n]!;
    twiceArea += x1 * y2 - x2 * y1;
  }
  return Math.abs(twiceArea) / 2 < MIN_RING_AREA ? flat : null;
}

/**
 * Whether two edges of the closed ring (no repeated consecutive corners) cross, touch or fold
 * back: a sweep from west to east (Shamos and Hoyos) that tests only edges next to each other
 * where the sweep stands, so a ring of n corners costs O(n log n) comparisons, not the n² of
 * testing every pair. Edges meeting at a corner are tested for folding back only. `work` counts
 * the pairs tested.
 */
export function outlineCrosses(points: readonly Point[], work = { pairs: 0 }): boolean {
  const n = points.length;
  // Edge i runs from its western (then southern) end (wx, wy) to (ex, ey); flat arrays, as a
  // territory's thousands of corners would otherwise make as many small objects.
  const wx = new Float64Array(n);
  const wy = new Float64Array(n);
  const ex = new Float64Array(n);
  const ey = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const p = points[i]!;
    const q = points[(i + 1) % n]!;
    const [w, e] = p[0] < q[0] || (p[0] === q[0] && p[1] < q[1]) ? [p, q] : [q, p];
    [wx[i], wy[i], ex[i], ey[i]] = [w[0], w[1], e[0], e[1]];
  }
  const bad = (i: number, j: number): boolean => {
    work.pairs++;
    if ((i + 1) % n === j) return foldsBack(points[j]!, points[i]!, points[(j + 1) % n]!);
    if ((j + 1) % n === i) return foldsBack(points[i]!, points[j]!, points[(i + 1) % n]!);
    return segmentsIntersect(
      [wx[i]!, wy[i]!],
      [ex[i]!, ey[i]!],
      [wx[j]!, wy[j]!],
      [ex[j]!, ey[j]!],
    );
  };
  // The y of edge i where the sweep stands at (x, y): exact at its ends; an upright edge's is y.
  const yAt = (i: number, x: number, y: number): number => {
    const x1 = wx[i]!;
    const x2 = ex[i]!;
    if (x1 === x2) return Math.min(Math.max(y, wy[i]!), ey[i]!);
    if (x === x1) return wy[i]!;
    if (x === x2) return ey[i]!;
    return wy[i]! + ((ey[i]! - wy[i]!) * (x - x1)) / (x2 - x1);
  };
  const slopeOf = (i: number) =>
    wx[i] === ex[i] ? Infinity : (ey[i]! - wy[i]!) / (ex[i]! - wx[i]!);
  // Event 2i starts edge i at its western end, 2i + 1 ends it; at one point starts come first,
  // so edges that only meet there are side by side once.
  const events = Int32Array.from({ length: 2 * n }, (_, k) => k);
  const ax = (k: number) => (k & 1 ? ex : wx)[k >> 1]!;
  const ay = (k: number) => (k & 1 ? ey : wy)[k >> 1]!;
  events.sort((k, m) => ax(k) - ax(m) || ay(k) - ay(m) || (k & 1) - (m & 1));
  // The edges the sweep crosses, south to north.
  const status: number[] = [];
  for (const event of events) {
    const edge = event >> 1;
    const x = ax(event);
    const y = ay(event);
    if ((event & 1) === 0) {
      const slope = slopeOf(edge);
      let lo = 0;
      let hi = status.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        const ky = yAt(status[mid]!, x, y);
        if (ky < y || (ky === y && slopeOf(status[mid]!) < slope)) lo = mid + 1;
        else hi = mid;
      }
      // Every edge through this point (all touch the new one), and the first beyond on each side.
      for (let k = lo - 1; k >= 0; k--) {
        if (bad(status[k]!, edge)) return true;
        if (yAt(status[k]!, x, y) !== y) break;
      }
      for (let k = lo; k < status.length; k++) {
        if (bad(status[k]!, edge)) return true;
        if (yAt(status[k]!, x, y) !== y) break;
      }
      status.splice(lo, 0, edge);
    } else {
      // Where it ends, it is among the edges through this point: look there first.
      let lo = 0;
      let hi = status.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (yAt(status[mid]!, x, y) < y) lo = mid + 1;
        else hi = mid;
      }
      let at = -1;
      for (let k = lo; k < status.length && yAt(status[k]!, x, y) === y; k++)
        if (status[k] === edge) at = k;
      // Rounding in a nearly flat edge can put it just off: then the slow way.
      if (at < 0) at = status.indexOf(edge);
      status.splice(at, 1);
      if (at > 0 && at < status.length && bad(status[at - 1]!, status[at]!)) return true;
    }
  }
  return false;
}
