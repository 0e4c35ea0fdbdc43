// The cache's customers are read in primary key order (by id); both CustomerFeed's patches and
// the list's keys find records in such arrays by binary search.

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
