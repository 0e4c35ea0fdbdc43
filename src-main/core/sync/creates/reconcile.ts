// Finding the server record a create produced when the answer did not say (or never came):
// match records whose writable fields are what was sent in the service's own form (match.ts),
// among ids nobody knew before.
import type { Customer, CustomerFields, Route } from '../../../../src-shared/domain';
import { sameRecord } from './match';

/** A create whose server id is still unknown. */
export interface UnresolvedCreate {
  key: string;
  fields: CustomerFields;
}

/** A route create whose server record is still unknown. */
export interface UnresolvedRoute {
  key: string;
  routeName: string;
  pointCount: number;
}

/**
 * Matches creates to new server records in order. Several identical creates take distinct
 * records, oldest record first, so a batch of N equal creates maps to N records.
 */
export function matchCreates(
  creates: UnresolvedCreate[],
  serverCustomers: Customer[],
  excludedIds: ReadonlySet<string>,
): Map<string, string> {
  const claimed = new Set<string>();
  const fresh = serverCustomers.filter((c) => !excludedIds.has(c.id));
  const result = new Map<string, string>();
  for (const create of creates) {
    const hit = fresh.find((c) => !claimed.has(c.id) && sameRecord(create.fields, c));
    if (!hit) continue;
    claimed.add(hit.id);
    result.set(create.key, hit.id);
  }
  return result;
}

/** Matches route creates by name and point count among routes nobody knew before. */
export function matchRoutes(
  routes: UnresolvedRoute[],
  serverRoutes: Route[],
  excludedIds: ReadonlySet<string>,
): Map<string, string> {
  const claimed = new Set<string>();
  const result = new Map<string, string>();
  for (const route of routes) {
    const hit = serverRoutes.find(
      (r) =>
        !excludedIds.has(r.id) &&
        !claimed.has(r.id) &&
        r.name === route.routeName &&
        r.points.length === route.pointCount,
    );
    if (!hit) continue;
    claimed.add(hit.id);
    result.set(route.key, hit.id);
  }
  return result;
}
