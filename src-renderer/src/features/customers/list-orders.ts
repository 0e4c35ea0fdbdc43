// The list's display orders as pure functions of the sort keys (list-keys.ts), shared by the UI
// thread (a fallback, and the repair of an order after an edit) and the sort worker
// (list-sort.worker.ts), so both give the same order by construction: lower-cased text compared
// by UTF-16 code units (no Intl), last visit in epoch ms (never visited sorts as 0, the oldest),
// ties in cache order in both directions.

export type SortKey = 'name' | 'company' | 'city' | 'lastVisit';
export type SortDirection = 'asc' | 'desc';
export const TEXT_SORTS = ['name', 'company', 'city'] as const;
export type TextSort = (typeof TEXT_SORTS)[number];
export const SORT_KEYS: readonly SortKey[] = [...TEXT_SORTS, 'lastVisit'];

/** What an order is computed from: one text column per text sort, last visit in epoch ms. */
export interface SortColumns {
  readonly text: Readonly<Record<TextSort, readonly string[]>>;
  /** NaN when never visited. */
  readonly lastVisitMs: Float64Array;
}

export const orderName = (key: SortKey, direction: SortDirection): string => `${key}:${direction}`;

/** a before b in this sort (ties in cache order, in both directions). */
export function comparator(
  columns: SortColumns,
  key: SortKey,
  direction: SortDirection,
): (a: number, b: number) => number {
  const sign = direction === 'asc' ? 1 : -1;
  if (key === 'lastVisit') {
    const ms = columns.lastVisitMs;
    return (a, b) => sign * ((ms[a]! || 0) - (ms[b]! || 0)) || a - b;
  }
  const text = columns.text[key];
  return (a, b) => {
    const ka = text[a]!;
    const kb = text[b]!;
    return ka === kb ? a - b : ka < kb ? -sign : sign;
  };
}

/** True when a and b have the same key in this sort (a tie, broken by cache order). */
function sameKey(columns: SortColumns, key: SortKey): (a: number, b: number) => boolean {
  if (key === 'lastVisit') {
    const ms = columns.lastVisitMs;
    return (a, b) => (ms[a]! || 0) === (ms[b]! || 0);
  }
  const text = columns.text[key];
  return (a, b) => text[a] === text[b];
}

/** Indices 0..n-1 in ascending order of `key`. */
export function sortedOrder(columns: SortColumns, key: SortKey, n: number): Uint32Array {
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  return order.sort(comparator(columns, key, 'asc'));
}

/**
 * The descending order from the ascending one without a sort: runs of equal keys, last run
 * first, each run still in cache order (the tie rule of both directions).
 */
export function descendingFrom(columns: SortColumns, key: SortKey, asc: Uint32Array): Uint32Array {
  const same = sameKey(columns, key);
  const out = new Uint32Array(asc.length);
  let at = 0;
  let end = asc.length;
  while (end > 0) {
    let start = end - 1;
    while (start > 0 && same(asc[start - 1]!, asc[end - 1]!)) start--;
    out.set(asc.subarray(start, end), at);
    at += end - start;
    end = start;
  }
  return out;
}

/**
 * `previous` (an order of the version before) brought to this version: records kept map to their
 * new index (`kept`, -1 when gone or changed), then each changed record (new indices) is placed
 * by binary search. O(n) copies and O(changed log n) comparisons: never a sort.
 */
export function repairedOrder(
  previous: Uint32Array,
  kept: Int32Array,
  changed: readonly number[],
  compare: (a: number, b: number) => number,
): Uint32Array {
  const base = new Uint32Array(previous.length);
  let n = 0;
  for (let k = 0; k < previous.length; k++) {
    const i = kept[previous[k]!]!;
    if (i >= 0) base[n++] = i;
  }
  // Cache order is id order, so kept records keep their relative index order (ties stay right).
  const placed = [...changed].sort(compare);
  const at = placed.map((i) => {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(base[mid]!, i) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  });
  const out = new Uint32Array(n + placed.length);
  let from = 0;
  let to = 0;
  for (let j = 0; j < placed.length; j++) {
    out.set(base.subarray(from, at[j]!), to);
    to += at[j]! - from;
    from = at[j]!;
    out[to++] = placed[j]!;
  }
  out.set(base.subarray(from, n), to);
  return out;
}

/** One order from orders of consecutive pieces (each already in this version's indices). */
export function mergedOrder(
  runs: readonly Uint32Array[],
  compare: (a: number, b: number) => number,
): Uint32Array {
  let level = [...runs];
  if (level.length === 0) return new Uint32Array(0);
  while (level.length > 1) {
    const next: Uint32Array[] = [];
    for (let k = 0; k < level.length; k += 2) {
      const a = level[k]!;
      const b = level[k + 1];
      next.push(b ? mergeTwo(a, b, compare) : a);
    }
    level = next;
  }
  return level[0]!;
}

function mergeTwo(
  a: Uint32Array,
  b: Uint32Array,
  compare: (a: number, b: number) => number,
): Uint32Array {
  const out = new Uint32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) out[k++] = compare(a[i]!, b[j]!) <= 0 ? a[i++]! : b[j++]!;
  out.set(a.subarray(i), k);
  out.set(b.subarray(j), k + a.length - i);
  return out;
}
