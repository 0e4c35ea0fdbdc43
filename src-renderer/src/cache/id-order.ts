// The cache's customers are read in primary key order (by id); both CustomerFeed's patches and
// the list's keys find records in such arrays by binary search; the page's kept snapshot is put
// in that order by sorting and merging its pieces.

/** Index of the first row whose id is not below `id` in rows sorted by id. */
export function lowerBoundById(rows: readonly { id: string }[], id: string): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid]!.id < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Orders rows by id, as IndexedDB orders the primary keys (code units). */
export function compareById(a: { id: string }, b: { id: string }): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * One array in id order from two in id order, each id once: its last copy, `newer`'s over
 * `older`'s (and within either, a later copy over an earlier one; the merge is stable). Made a
 * step at a time (`step`), or at once (`all`).
 */
export class RunMerge<R extends { id: string }> {
  readonly out: R[] = [];
  #i = 0;
  #j = 0;

  constructor(
    readonly older: readonly R[],
    readonly newer: readonly R[],
  ) {}

  get done(): boolean {
    return this.#i >= this.older.length && this.#j >= this.newer.length;
  }

  /** Takes up to `n` more rows; true once every row is taken. */
  step(n: number): boolean {
    const { older, newer, out } = this;
    let i = this.#i;
    let j = this.#j;
    for (let taken = 0; taken < n && (i < older.length || j < newer.length); taken++) {
      const row =
        j >= newer.length || (i < older.length && older[i]!.id <= newer[j]!.id)
          ? older[i++]!
          : newer[j++]!;
      const last = out.length - 1;
      if (last >= 0 && out[last]!.id === row.id) out[last] = row;
      else out.push(row);
    }
    this.#i = i;
    this.#j = j;
    return this.done;
  }

  /** Every row merged. */
  all(): R[] {
    this.step(Infinity);
    return this.out;
  }
}

/**
 * `base` (in id order) with the rows of `ids` as they are now (`found`, any order; an id without
 * a row is removed): replaced, removed or inserted in id order. A new array; `base` is kept.
 */
export function patchById<R extends { id: string }>(
  base: readonly R[],
  ids: Iterable<string>,
  found: ReadonlyArray<R | undefined>,
): R[] {
  const rows = base.slice();
  const removed = new Set<string>();
  const added: R[] = [];
  const byId = new Map<string, R>();
  for (const row of found) if (row) byId.set(row.id, row);
  for (const id of ids) {
    const i = lowerBoundById(rows, id);
    const at = rows[i]?.id === id ? i : -1;
    const row = byId.get(id);
    if (row && at >= 0) rows[at] = row;
    else if (row) added.push(row);
    else if (at >= 0) removed.add(id);
  }
  if (removed.size === 0 && added.length === 0) return rows;
  const kept = removed.size > 0 ? rows.filter((row) => !removed.has(row.id)) : rows;
  for (const row of added.sort(compareById)) kept.splice(lowerBoundById(kept, row.id), 0, row);
  return kept;
}
