// A count per key over every customer of a data version (the custom fields any customer holds,
// the groups they use, how their visit times are stored), kept from one version to the next by
// the ids that changed (CustomerFeed.changedSince). Recounting 100k records at each version was
// the page's longest task after every edit: each saved change, its send and its read-back make
// a version, and the details panel reads these.
import { lowerBoundById } from './id-order';

/** The ids that may differ from `base` to `rows`; null: unknown (the caller counts afresh). */
export type ChangedSince<R> = (base: readonly R[], rows: readonly R[]) => Set<string> | null;

export class KeyCounts<R extends { id: string }> {
  #rows: readonly R[] | null = null;
  #counts = new Map<string, number>();

  /** `keysOf` gives a row's keys; a key it gives twice counts twice. */
  constructor(
    private readonly keysOf: (row: R) => Iterable<string>,
    private readonly changedSince: ChangedSince<R>,
  ) {}

  /** The counts of `rows` (rows in id order); the map is the counter's own: read, never keep. */
  of(rows: readonly R[]): ReadonlyMap<string, number> {
    const before = this.#rows;
    if (before === rows) return this.#counts;
    const changed = before ? this.changedSince(before, rows) : null;
    if (changed === null) {
      this.#counts = new Map();
      for (const row of rows) this.#add(row, 1);
    } else {
      for (const id of changed) {
        const was = rowOf(before!, id);
        if (was) this.#add(was, -1);
        const now = rowOf(rows, id);
        if (now) this.#add(now, 1);
      }
    }
    this.#rows = rows;
    return this.#counts;
  }

  #add(row: R, by: 1 | -1): void {
    for (const key of this.keysOf(row)) {
      const n = (this.#counts.get(key) ?? 0) + by;
      if (n === 0) this.#counts.delete(key);
      else this.#counts.set(key, n);
    }
  }
}

function rowOf<R extends { id: string }>(rows: readonly R[], id: string): R | undefined {
  const row = rows[lowerBoundById(rows, id)];
  return row?.id === id ? row : undefined;
}
