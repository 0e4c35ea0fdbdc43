// Runs of records a new data version keeps from the one before (both in id order, the cache's
// primary key order): the keys of a kept run are copied as a block instead of record by record.
import { lowerBoundById } from '../../cache/id-order';

/** `length` records at `from` in the previous version are at `to` in the new one. */
export interface Run {
  from: number;
  to: number;
  length: number;
}

/** Index of the row with this id in rows sorted by id (the cache's order), or -1. */
export function indexOfId(rows: readonly { id: string }[], id: string): number {
  const i = lowerBoundById(rows, id);
  return rows[i]?.id === id ? i : -1;
}

/**
 * The kept runs when the records at previous indices `gone` left and those at new indices
 * `fresh` came (both changed in place count as gone and fresh); null when the two versions'
 * lengths disagree with that (then the caller walks every record).
 */
export function keptRuns(
  before: number,
  after: number,
  gone: number[],
  fresh: number[],
): Run[] | null {
  gone.sort((a, b) => a - b);
  fresh.sort((a, b) => a - b);
  if (before - gone.length !== after - fresh.length) return null;
  const runs: Run[] = [];
  let p = 0;
  let i = 0;
  let g = 0;
  let f = 0;
  while (p < before && i < after) {
    if (gone[g] === p) {
      p++;
      g++;
    } else if (fresh[f] === i) {
      i++;
      f++;
    } else {
      const length = Math.min((gone[g] ?? before) - p, (fresh[f] ?? after) - i);
      runs.push({ from: p, to: i, length });
      p += length;
      i += length;
    }
  }
  return runs;
}

type Column = { [index: number]: unknown; length: number };

/** Below this many records a typed run is copied one by one (see copyRuns). */
const BLOCK_RUN = 64;

/**
 * Copies each run of `from` into `to` (typed arrays' long runs as blocks). A sync that changed
 * thousands of records leaves as many short runs: a subarray per run and column was an object
 * each, and their collection the most of an edit's longest task.
 */
export function copyRuns<T extends Column>(from: T, to: T, runs: readonly Run[]): void {
  if (ArrayBuffer.isView(from) && ArrayBuffer.isView(to)) {
    const src = from as unknown as Uint8Array;
    const dst = to as unknown as Uint8Array;
    for (const r of runs) {
      if (r.length >= BLOCK_RUN) dst.set(src.subarray(r.from, r.from + r.length), r.to);
      else for (let k = 0; k < r.length; k++) dst[r.to + k] = src[r.from + k]!;
    }
    return;
  }
  for (const r of runs) for (let k = 0; k < r.length; k++) to[r.to + k] = from[r.from + k];
}
