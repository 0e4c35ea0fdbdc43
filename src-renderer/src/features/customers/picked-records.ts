// A few hundred customers read by id at every data version (the Selection panel's), kept per
// ids array and patched by the ids a new version changed. While a bulk change of them drains,
// each acknowledged change is a version: a binary search of 100k records per selected customer
// per version was a share of the page's long tasks.
import type { CustomerView } from '../../types';

type ChangedSince = (
  base: readonly CustomerView[],
  rows: readonly CustomerView[],
) => ReadonlySet<string> | null;

interface Picked {
  rows: readonly CustomerView[];
  /** Renames known when it was read: a new one may let an id find a record. */
  renames: number;
  /** The record of each of the ids, by place (undefined: none). */
  slots: Array<CustomerView | undefined>;
  /** The places of each id among the ids. */
  at: Map<string, number[]>;
  picked: CustomerView[];
}

export class PickedRecords {
  readonly #last = new WeakMap<readonly string[], Picked>();

  constructor(
    private readonly changedSince: ChangedSince,
    private readonly byId: (id: string) => CustomerView | undefined,
  ) {}

  /** The records of `ids` that exist in `rows`, in the order of `ids`. */
  pick(ids: readonly string[], rows: readonly CustomerView[], renames: number): CustomerView[] {
    const last = this.#last.get(ids);
    const changed = last?.renames === renames ? this.changedSince(last.rows, rows) : null;
    if (last && changed?.size === 0) return last.picked;
    let slots: Array<CustomerView | undefined>;
    let at: Map<string, number[]>;
    if (last && changed) {
      ({ at } = last);
      slots = last.slots.slice();
      for (const id of changed) for (const i of at.get(id) ?? []) slots[i] = this.byId(id);
    } else {
      at = new Map();
      ids.forEach((id, i) => at.set(id, [...(at.get(id) ?? []), i]));
      slots = ids.map((id) => this.byId(id));
    }
    const picked = slots.filter((c): c is CustomerView => c !== undefined);
    this.#last.set(ids, { rows, renames, slots, at, picked });
    return picked;
  }
}
