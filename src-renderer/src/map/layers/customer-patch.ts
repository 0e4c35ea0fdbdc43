// The difference between the pins on the map and a new customer list, as a patch of a few
// features: an edit, a logged visit or a create changes one pin, and the clustered source of
// every customer is left alone (re-clustering 100k points costs seconds of the map's worker).
// The diff costs O(changed): the cache feed keeps the object of every record a write did not
// touch, so a customer that is the same object as when its pin was drawn is skipped without
// building its pin (building and comparing every pin per edit is a long task at 100k).
import type { CustomerView } from '../../types';
import { pinOf, type PinFeature } from './geojson';

/** The pins as drawn now: the feature-id table and each feature id's current pin. */
export type PinTable = {
  /** ids[featureId] = customer id. */
  readonly ids: readonly string[];
  featureIdOf(customerId: string): number | undefined;
  /** The pin drawn for a feature id, or null when it is not drawn (removed). */
  current(featureId: number): PinFeature | null;
  /** The customers the pins were built or patched from, and each one's feature id (-1: none). */
  readonly drawn: { readonly customers: readonly CustomerView[]; readonly fids: Int32Array };
};

export type PinPatch = {
  /** New or changed pins, each with its feature id (new customers get ids past the table). */
  upserts: PinFeature[];
  /** Feature ids whose pin goes away (deleted or now unmapped). */
  removes: number[];
  /** Customer ids of the new feature ids, in order from `ids.length`. */
  added: string[];
  /** Feature id of each customer of the new list (-1: no pin), for the next diff. */
  fids: Int32Array;
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
  const patch: PinPatch = {
    upserts: [],
    removes: [],
    added: [],
    fids: new Int32Array(customers.length),
  };
  const seen = new Uint8Array(table.ids.length);
  const { customers: before, fids: fidsBefore } = table.drawn;
  let changes = 0;
  const now = Date.now();
  // k walks the list the pins were drawn from: an unchanged record is the same object there.
  let k = 0;
  for (let j = 0; j < customers.length; j++) {
    const c = customers[j]!;
    if (before[k] !== c && before[k + 1] === c) k++; // before[k] was deleted
    if (before[k] === c) {
      const fid = fidsBefore[k++]!;
      patch.fids[j] = fid;
      if (fid >= 0) seen[fid] = 1;
      continue;
    }
    if (before[k]?.id === c.id) k++; // the same record, changed
    const known = table.featureIdOf(c.id);
    const fid = known ?? table.ids.length + patch.added.length;
    const pin = pinOf(fid, c, now);
    patch.fids[j] = pin ? fid : -1;
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
