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

/** One array in id order from two in id order. */
export function mergeById<R extends { id: string }>(a: readonly R[], b: readonly R[]): R[] {
  const out = new Array<R>(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = a[i]!.id <= b[j]!.id ? a[i++]! : b[j++]!;
  while (i < a.length) out[k++] = a[i++]!;
  while (j < b.length) out[k++] = b[j++]!;
  return out;
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
