// The difference between the pins on the map and a new customer list, as a patch of a few
// features: an edit, a logged visit or a create changes one pin, and the clustered source of
// every customer is left alone (re-clustering 100k points costs seconds of the map's worker).
import type { CustomerView } from '../../types';
import { pinOf, type PinFeature } from './geojson';

/** The pins as drawn now: the feature-id table and each feature id's current pin. */
export type PinTable = {
  /** ids[featureId] = customer id. */
  readonly ids: readonly string[];
  featureIdOf(customerId: string): number | undefined;
  /** The pin drawn for a feature id, or null when it is not drawn (removed). */
  current(featureId: number): PinFeature | null;
};

export type PinPatch = {
  /** New or changed pins, each with its feature id (new customers get ids past the table). */
  upserts: PinFeature[];
  /** Feature ids whose pin goes away (deleted or now unmapped). */
  removes: number[];
  /** Customer ids of the new feature ids, in order from `ids.length`. */
  added: string[];
};

function samePin(a: PinFeature, b: PinFeature): boolean {
  const [ax, ay] = a.geometry.coordinates;
  const [bx, by] = b.geometry.coordinates;
  const p = a.properties;
  const q = b.properties;
  return (
    ax === bx &&
    ay === by &&
    p.name === q.name &&
    p.color === q.color &&
    p.pending === q.pending &&
    p.age === q.age &&
    p.due === q.due &&
    p.id === q.id
  );
}

/**
 * The patch from the drawn pins to `customers` (one pass, no allocation for unchanged pins);
 * null as soon as more than `limit` pins differ: then reloading the source is the cheaper way.
 */
export function diffPins(
  customers: readonly CustomerView[],
  table: PinTable,
  limit: number,
): PinPatch | null {
  const patch: PinPatch = { upserts: [], removes: [], added: [] };
  const seen = new Uint8Array(table.ids.length);
  let changes = 0;
  const now = Date.now();
  for (const c of customers) {
    const known = table.featureIdOf(c.id);
    const fid = known ?? table.ids.length + patch.added.length;
    const pin = pinOf(fid, c, now);
    if (known === undefined) {
      if (!pin) continue;
      patch.added.push(c.id);
      patch.upserts.push(pin);
    } else {
      seen[known] = 1;
      const drawn = table.current(known);
      if (pin && drawn && samePin(pin, drawn)) continue;
      if (pin) patch.upserts.push(pin);
      else if (drawn) patch.removes.push(known);
      else continue;
    }
    if (++changes > limit) return null;
  }
  for (let fid = 0; fid < seen.length; fid++) {
    if (seen[fid] || !table.current(fid)) continue;
    patch.removes.push(fid);
    if (++changes > limit) return null;
  }
  return patch;
}
