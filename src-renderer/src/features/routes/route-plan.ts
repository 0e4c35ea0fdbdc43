// Plans the order of a route's stops with the optimiser, and applies an order to the builder.
import type { LngLat } from '../../../../src-shared';
import { optimizeRoute, routeLength, type RouteStop } from '../../../../src-shared/route-optimizer';

export interface RoutePlan {
  /** Stop ids in the proposed order (unmapped stops last, in their order). */
  order: string[];
  metersBefore: number;
  metersAfter: number;
}

/** Parses "lat, lng" typed by the rep; null when blank or malformed. */
export function parseStart(text: string): LngLat | null {
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*[,;\s]\s*(-?\d+(?:\.\d+)?)\s*$/.exec(text);
  if (!m) return null;
  const lat = Number(m[1]);
  const lng = Number(m[2]);
  return Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? [lng, lat] : null;
}

/** The optimised order of `ids` (positions from `positionOf`; stops without one keep the end). */
export function planRoute(
  ids: readonly string[],
  positionOf: (id: string) => LngLat | null,
  start: LngLat | null,
): RoutePlan {
  const mapped: RouteStop[] = [];
  const unmapped: string[] = [];
  for (const id of ids) {
    const position = positionOf(id);
    if (position) mapped.push({ id, position });
    else unmapped.push(id);
  }
  const result = optimizeRoute(mapped, { start });
  return {
    order: [...result.stops.map((s) => s.id), ...unmapped],
    metersBefore: routeLength(mapped, start),
    metersAfter: result.metersAfter,
  };
}

/** Reorders with single moves (the builder's only way to reorder). */
export function applyOrder(
  current: () => readonly string[],
  move: (from: number, to: number) => void,
  order: readonly string[],
): void {
  order.forEach((id, to) => {
    const from = current().indexOf(id);
    if (from >= 0 && from !== to) move(from, to);
  });
}
