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
