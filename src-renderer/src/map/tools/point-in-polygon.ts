// Which customers lie inside a drawn area (lasso or box).
import type { LngLat } from '../../../../src-shared';
import { insideRing } from '../../../../src-shared/area-ring';

/** Ids of the items whose position is inside the ring, in the items' order. */
export function idsInside<T extends { id: string; position: LngLat | null }>(
  items: readonly T[],
  ring: readonly LngLat[],
): string[] {
  if (ring.length < 3) return [];
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const [x, y] of ring) {
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
  }
  const ids: string[] = [];
  for (const item of items) {
    const p = item.position;
    if (!p || p[0] < minX || p[0] > maxX || p[1] < minY || p[1] > maxY) continue;
    if (insideRing(p, ring)) ids.push(item.id);
  }
  return ids;
}
