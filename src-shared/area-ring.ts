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

/** Why the ring is not an area to download (a sentence for the rep), or null when it is. */
export function ringProblem(ring: readonly Point[]): string | null {
  // Repeated clicks on one spot and the closing point are not corners.
  const points: Point[] = [];
  for (const p of ring) if (!points.length || !same(points[points.length - 1]!, p)) points.push(p);
  if (points.length > 1 && same(points[0]!, points[points.length - 1]!)) points.pop();
  const distinct = new Set(points.map(([x, y]) => `${x},${y}`)).size;
  if (distinct < 3)
    return `An area needs at least 3 different corners (this one has ${distinct}); draw it again.`;
  const flat = 'This area has no surface (its corners lie on one line); draw it again.';
  // Every corner near the line from the first to the farthest one: a line, not an area.
  const [x0, y0] = points[0]!;
  const far = points.reduce((f, p) =>
    Math.hypot(p[0] - x0, p[1] - y0) > Math.hypot(f[0] - x0, f[1] - y0) ? p : f,
  );
  const offLine = (p: Point) =>
    Math.abs((far[0] - x0) * (p[1] - y0) - (far[1] - y0) * (p[0] - x0)) / 2;
  if (points.every((p) => offLine(p) < MIN_RING_AREA)) return flat;
  const n = points.length;
  const crossing = "The area's outline crosses itself; draw it again without crossing lines.";
  for (let i = 0; i < n; i++) {
    const a = points[i]!;
    const b = points[(i + 1) % n]!;
    for (let j = i + 1; j < n; j++) {
      const c = points[j]!;
      const d = points[(j + 1) % n]!;
      if (j === i + 1) {
        if (foldsBack(b, a, d)) return crossing;
      } else if (i === 0 && j === n - 1) {
        if (foldsBack(a, b, c)) return crossing;
      } else if (segmentsIntersect(a, b, c, d)) return crossing;
    }
  }
  let twiceArea = 0;
  for (let i = 0; i < n; i++) {
    const [x1, y1] = points[i]!;
    const [x2, y2] = points[(i + 1) % n]!;
    twiceArea += x1 * y2 - x2 * y1;
  }
  return Math.abs(twiceArea) / 2 < MIN_RING_AREA ? flat : null;
}
