// The list's sort and filter keys, computed once per data version: lower-cased text keys per
// sort column, last visit and reminder as epoch-ms typed arrays, search haystacks, colour codes
// and one membership bitmap per group, and one index order per sort (list-orders.ts: sorted in
// the sort worker, or on first use, then cached). A new data version reuses the previous one's
// keys: an edit that CustomerFeed patched in names its changed ids, and only those records are
// computed again (the other keys are copied as whole runs of columns, no per-record walk);
// without that, unchanged records are found by walking both versions. Each cached order is
// repaired by placing only the changed records (binary search), so an edit or a sort switch
// never re-sorts or re-lowercases 100k records.
import { CUSTOMER_SEARCH_FIELDS, searchHaystack } from '../../../../src-shared';
import { fromAccountTime } from '../../../../src-shared/time-units';
import { VISIT_AGE_BUCKETS, reminderDueBy, type VisitFilter } from '../../../../src-shared/visits';
import type { CustomerView } from '../../types';
import {
  SORT_KEYS,
  TEXT_SORTS,
  comparator,
  descendingFrom,
  mergedOrder,
  orderName,
  repairedOrder,
  sortedOrder,
  type SortColumns,
  type SortDirection,
  type SortKey,
  type TextSort,
} from './list-orders';
import { copyRuns, indexOfId, keptRuns, type Run } from './list-runs';

export type { SortDirection, SortKey } from './list-orders';

/** Fields whose change invalidates a record's keys. */
const KEYED_FIELDS = [
  ...new Set<string>([...CUSTOMER_SEARCH_FIELDS, ...TEXT_SORTS, 'color', 'lastVisit', 'remindAt']),
] as (keyof CustomerView)[];
/** Above this many changed records a full sort is cheaper than re-inserting each one. */
const MAX_REPAIRS = 512;
/** Search terms whose hits a data version keeps (the last ones typed). */
const KEPT_SEARCHES = 8;
const DAY_MS = 86_400_000;

/**
 * A small number per colour name, shared by every data version (names are few: the palette and
 * an account's own): the colour filter compares numbers in a typed array instead of reading the
 * `color` of every record (a long task at 100k; the typed compare is a short one).
 */
const COLOR_CODES = new Map<string, number>();

function colorCode(name: string): number {
  let code = COLOR_CODES.get(name);
  if (code === undefined) {
    code = COLOR_CODES.size;
    COLOR_CODES.set(name, code);
  }
  return code;
}

function sameKeys(a: CustomerView, b: CustomerView): boolean {
  for (const f of KEYED_FIELDS) if (a[f] !== b[f]) return false;
  if (a.groups.length !== b.groups.length) return false;
  for (let i = 0; i < a.groups.length; i++) if (a.groups[i] !== b.groups[i]) return false;
  return (a.position === null) === (b.position === null);
}

/**
 * True when every record kept its index and the changed ones (`fresh`) are where the records
 * they replace were: `kept` maps each previous index to itself, or to -1 for exactly those.
 */
function editedInPlace(kept: Int32Array, fresh: readonly number[], n: number): boolean {
  if (kept.length !== n) return false;
  let gone = 0;
  for (let p = 0; p < n; p++) {
    const i = kept[p]!;
    if (i === -1) gone++;
    else if (i !== p) return false;
  }
  return gone === fresh.length && fresh.every((i) => kept[i] === -1);
}

/** True when record `i` has the same key for `key` in both (as the sort compares it). */
function sameSortKey(a: SortColumns, b: SortColumns, key: SortKey, i: number): boolean {
  if (key === 'lastVisit') return (a.lastVisitMs[i]! || 0) === (b.lastVisitMs[i]! || 0);
  return a.text[key][i] === b.text[key][i];
}

/** A visit filter as a range of a column (visitRange). */
export interface VisitRange {
  column: Float64Array;
  lo: number;
  hi: number;
  /** Only records without a value (never visited) pass. */
  never?: boolean;
}

export class ListKeys implements SortColumns {
  readonly haystacks: string[];
  readonly text: Record<TextSort, string[]>;
  /** Last visit in epoch ms, NaN when never visited. */
  readonly lastVisitMs: Float64Array;
  /** Reminder time in epoch ms, NaN when none. */
  readonly remindMs: Float64Array;
  readonly hasPosition: Uint8Array;
  /** The colour of each record as its code (colorCode). */
  readonly colors: Uint16Array;
  /** 1 for each record in the group, per group any record names. */
  readonly groups = new Map<string, Uint8Array>();
  #byId: Map<string, number> | null = null;
  #orders = new Map<string, Uint32Array>();
  /**
   * 1 for each record whose haystack holds the needle, per needle searched (the last
   * KEPT_SEARCHES). A new data version carries them like the other columns and tests only the
   * changed records: an edit saved while a search is typed would re-filter every haystack of
   * the account on the UI thread; this is a copy.
   */
  #hits = new Map<string, Uint8Array>();

  private constructor(readonly rows: readonly CustomerView[]) {
    const n = rows.length;
    this.haystacks = new Array<string>(n);
    this.text = { name: new Array<string>(n), company: new Array<string>(n), city: new Array(n) };
    this.lastVisitMs = new Float64Array(n);
    this.remindMs = new Float64Array(n);
    this.hasPosition = new Uint8Array(n);
    this.colors = new Uint16Array(n);
  }

  /** Index of each record by id (built on first use). */
  get byId(): Map<string, number> {
    if (!this.#byId) this.#byId = new Map(this.rows.map((c, i) => [c.id, i]));
    return this.#byId;
  }

  /**
   * Keys of `rows` (in cache order, which is id order). With `previous`, its keys are reused:
   * `changed` (the ids CustomerFeed patched since `previous.rows`) limits the work to those
   * records; without it, every record is compared with its previous version.
   */
  static build(
    rows: readonly CustomerView[],
    previous?: ListKeys | null,
    changed?: ReadonlySet<string> | null,
  ): ListKeys {
    if (previous && changed) {
      const patched = ListKeys.#patch(rows, previous, changed);
      if (patched) return patched;
    }
    const keys = new ListKeys(rows);
    const kept = previous ? new Int32Array(previous.rows.length).fill(-1) : null;
    const fresh: number[] = [];
    for (let i = 0; i < rows.length; i++) {
      const c = rows[i]!;
      const p = previous ? indexIn(previous, c.id, i) : undefined;
      // The same object (CustomerFeed keeps unchanged records' objects) has the same keys.
      const before = p === undefined ? undefined : previous?.rows[p];
      if (previous && kept && p !== undefined && (before === c || sameKeys(before!, c))) {
        kept[p] = i;
        keys.#copyFrom(previous, p, i);
      } else {
        fresh.push(i);
        keys.#compute(c, i);
      }
    }
    if (previous && kept) {
      keys.#carry(previous, kept, fresh);
      keys.#carryHits(previous, kept, fresh);
    }
    return keys;
  }

  /** `previous`'s search hits for these rows: kept records copied, `fresh` ones tested. */
  #carryHits(previous: ListKeys, kept: Int32Array, fresh: readonly number[]): void {
    for (const [needle, bits] of previous.#hits) {
      const hits = new Uint8Array(this.rows.length);
      for (let p = 0; p < kept.length; p++) if (kept[p]! >= 0) hits[kept[p]!] = bits[p]!;
      for (const i of fresh) hits[i] = this.haystacks[i]!.includes(needle) ? 1 : 0;
      this.#hits.set(needle, hits);
    }
  }

  /**
   * 1 for each record whose search haystack holds `needle` (a normalised search term), kept
   * for the next data version (see #hits).
   */
  searchHits(needle: string): Uint8Array {
    let hits = this.#hits.get(needle);
    if (hits) {
      // The most recently used last: the oldest goes first.
      this.#hits.delete(needle);
      this.#hits.set(needle, hits);
      return hits;
    }
    const { haystacks } = this;
    hits = new Uint8Array(haystacks.length);
    for (let i = 0; i < haystacks.length; i++) hits[i] = haystacks[i]!.includes(needle) ? 1 : 0;
    this.#hits.set(needle, hits);
    if (this.#hits.size > KEPT_SEARCHES) this.#hits.delete(this.#hits.keys().next().value!);
    return hits;
  }

  /** `previous` with the records of `changed` ids computed again; null when they disagree. */
  static #patch(
    rows: readonly CustomerView[],
    previous: ListKeys,
    changed: ReadonlySet<string>,
  ): ListKeys | null {
    const gone: number[] = [];
    const fresh: number[] = [];
    for (const id of changed) {
      const p = indexOfId(previous.rows, id);
      if (p >= 0) gone.push(p);
      const i = indexOfId(rows, id);
      if (i >= 0) fresh.push(i);
    }
    const runs = keptRuns(previous.rows.length, rows.length, gone, fresh);
    if (!runs) return null;
    const keys = new ListKeys(rows);
    keys.#copyRuns(previous, runs);
    for (const i of fresh) keys.#compute(rows[i]!, i);
    for (const [needle, bits] of previous.#hits) {
      const hits = new Uint8Array(rows.length);
      copyRuns(bits, hits, runs);
      for (const i of fresh) hits[i] = keys.haystacks[i]!.includes(needle) ? 1 : 0;
      keys.#hits.set(needle, hits);
    }
    const kept = new Int32Array(previous.rows.length).fill(-1);
    for (const { from, to, length } of runs)
      for (let k = 0; k < length; k++) kept[from + k] = to + k;
    keys.#carry(previous, kept, fresh);
    return keys;
  }

  /**
   * The keys of `rows` from keys built piece by piece as CustomerFeed read them (consecutive
   * pieces of `rows`), so a first read never computes 100k records' keys in one task. Orders
   * every piece knows are merged (no sort). Null when the pieces are not exactly `rows`.
   */
  static concat(rows: readonly CustomerView[], pieces: readonly ListKeys[]): ListKeys | null {
    // Joined over these very rows already (ReadKeys.join): nothing left to copy or merge.
    if (pieces.length === 1 && pieces[0]!.rows === rows) return pieces[0]!;
    let at = 0;
    for (const piece of pieces) {
      const n = piece.rows.length;
      if (n > 0 && (piece.rows[0] !== rows[at] || piece.rows[n - 1] !== rows[at + n - 1]))
        return null;
      at += n;
    }
    if (at !== rows.length) return null;
    const keys = new ListKeys(rows);
    at = 0;
    for (const piece of pieces) {
      keys.#copyRuns(piece, [{ from: 0, to: at, length: piece.rows.length }]);
      at += piece.rows.length;
    }
    const first = pieces[0];
    for (const name of first ? first.#orders.keys() : []) {
      if (!pieces.every((piece) => piece.#orders.has(name))) continue;
      const [key, direction] = name.split(':') as [SortKey, SortDirection];
      let offset = 0;
      const runs = pieces.map((piece) => {
        // A plain loop: Uint32Array#map with a closure cost more than the merge it feeds.
        const order = piece.#orders.get(name)!;
        const run = offset === 0 ? order : new Uint32Array(order.length);
        if (offset > 0) for (let k = 0; k < order.length; k++) run[k] = order[k]! + offset;
        offset += piece.rows.length;
        return run;
      });
      keys.#orders.set(name, mergedOrder(runs, comparator(keys, key, direction)));
    }
    return keys;
  }

  #copyRuns(previous: ListKeys, runs: readonly Run[]): void {
    copyRuns(previous.haystacks, this.haystacks, runs);
    for (const f of TEXT_SORTS) copyRuns(previous.text[f], this.text[f], runs);
    copyRuns(previous.lastVisitMs, this.lastVisitMs, runs);
    copyRuns(previous.remindMs, this.remindMs, runs);
    copyRuns(previous.hasPosition, this.hasPosition, runs);
    copyRuns(previous.colors, this.colors, runs);
    for (const [group, bits] of previous.groups) copyRuns(bits, this.#groupBits(group), runs);
  }

  /**
   * The previous version's orders, repaired for the changed records (few of them only). After an
   * edit in place (no record added, removed or moved) that left a sort's key of every changed
   * record as it was, that sort's orders are the previous ones, shared (orders are never
   * written after they are made): a colour change would repair every cached order, each a pass
   * over the account, in the UI thread's work between Save and the pin.
   */
  #carry(previous: ListKeys, kept: Int32Array, fresh: readonly number[]): void {
    if (fresh.length > MAX_REPAIRS) return;
    const inPlace = editedInPlace(kept, fresh, this.rows.length);
    for (const key of SORT_KEYS) {
      const same = inPlace && fresh.every((i) => sameSortKey(previous, this, key, i));
      for (const direction of ['asc', 'desc'] as const) {
        const name = orderName(key, direction);
        const order = previous.#orders.get(name);
        if (!order) continue;
        this.#orders.set(
          name,
          same ? order : repairedOrder(order, kept, fresh, comparator(this, key, direction)),
        );
      }
    }
  }

  #groupBits(group: string): Uint8Array {
    let bits = this.groups.get(group);
    if (!bits) {
      bits = new Uint8Array(this.rows.length);
      this.groups.set(group, bits);
    }
    return bits;
  }

  #compute(c: CustomerView, i: number): void {
    this.haystacks[i] = searchHaystack(c);
    for (const f of TEXT_SORTS) this.text[f][i] = String(c[f] ?? '').toLowerCase();
    this.lastVisitMs[i] = fromAccountTime(c.lastVisit) ?? NaN;
    this.remindMs[i] = fromAccountTime(c.remindAt) ?? NaN;
    this.hasPosition[i] = c.position === null ? 0 : 1;
    this.colors[i] = colorCode(c.color);
    for (const group of c.groups) this.#groupBits(group)[i] = 1;
  }

  #copyFrom(previous: ListKeys, p: number, i: number): void {
    this.haystacks[i] = previous.haystacks[p]!;
    for (const f of TEXT_SORTS) this.text[f][i] = previous.text[f][p]!;
    this.lastVisitMs[i] = previous.lastVisitMs[p]!;
    this.remindMs[i] = previous.remindMs[p]!;
    this.hasPosition[i] = previous.hasPosition[p]!;
    this.colors[i] = previous.colors[p]!;
    for (const group of this.rows[i]!.groups) this.#groupBits(group)[i] = 1;
  }

  /** Indices into `rows` in display order for this sort (sorted here when not yet known). */
  order(key: SortKey, direction: SortDirection): Uint32Array {
    const name = orderName(key, direction);
    let order = this.#orders.get(name);
    if (order) return order;
    const asc = orderName(key, 'asc');
    const ascending = this.#orders.get(asc) ?? sortedOrder(this, key, this.rows.length);
    this.#orders.set(asc, ascending);
    if (direction === 'asc') return ascending;
    order = descendingFrom(this, key, ascending);
    this.#orders.set(name, order);
    return order;
  }

  /** True when this order is known (no sort on the UI thread to show it). */
  hasOrder(key: SortKey, direction: SortDirection): boolean {
    return this.#orders.has(orderName(key, direction));
  }

  /** Orders computed elsewhere (the sort worker) from these keys' columns; known ones are kept. */
  adopt(orders: ReadonlyMap<string, Uint32Array>): void {
    for (const [name, order] of orders) {
      if (order.length === this.rows.length && !this.#orders.has(name))
        this.#orders.set(name, order);
    }
  }

  /** The code of a colour name in `colors`: a number no record has when no record has the name. */
  colorCode(color: string): number {
    return COLOR_CODES.get(color) ?? 0xffff_ffff;
  }

  /** 1 for each record in `group` (all 0 when no record names it). */
  groupBits(group: string): Uint8Array {
    return this.groups.get(group) ?? new Uint8Array(this.rows.length);
  }

  /**
   * The visit filter at `nowMs` as a range of one column (same rule as filterByVisit), or null
   * for "all": a record passes when its value is in (lo, hi], or is NaN when `never`. A range
   * check on a typed array is what the filter loop runs 100k times (no call per record).
   */
  visitRange(filter: VisitFilter, nowMs: number): VisitRange | null {
    if (filter.kind === 'all') return null;
    if (filter.kind === 'due')
      return { column: this.remindMs, lo: -Infinity, hi: reminderDueBy(nowMs) };
    const column = this.lastVisitMs;
    if (filter.bucket === 'never') return { column, lo: NaN, hi: NaN, never: true };
    const at = VISIT_AGE_BUCKETS.findIndex((b) => b.key === filter.bucket);
    const max = VISIT_AGE_BUCKETS[at]!.maxDays ?? Infinity;
    const min = at === 0 ? 0 : (VISIT_AGE_BUCKETS[at - 1]!.maxDays ?? Infinity) + 1;
    // days = max(0, floor((now - ms) / day)) in [min, max]: a visit after now counts as 0 days.
    return {
      column,
      lo: max === Infinity ? -Infinity : nowMs - (max + 1) * DAY_MS,
      hi: min === 0 ? Infinity : nowMs - min * DAY_MS,
    };
  }
}

/** `previous`'s index of the record with this id (its same index first: edits keep order). */
function indexIn(previous: ListKeys, id: string, i: number): number | undefined {
  return previous.rows[i]?.id === id ? i : previous.byId.get(id);
}

/**
 * The keys of a full read's pieces as they arrive (in order), two neighbours of one length
 * concatenated into one in the task of the piece that made them so (a binary counter: each
 * record is copied and merged about log2(pieces) times, a few records per task). The read's
 * last step then concatenates a few runs instead of merging the list's order of every piece,
 * which in one task was the first sync's longest task of the app's own.
 */
export class ReadKeys {
  #runs: ListKeys[] = [];

  add(keys: ListKeys): void {
    const runs = this.#runs;
    runs.push(keys);
    while (runs.length >= 2) {
      const newer = runs[runs.length - 1]!;
      const older = runs[runs.length - 2]!;
      if (newer.rows.length < older.rows.length) break;
      const merged = ListKeys.concat([...older.rows, ...newer.rows], [older, newer]);
      if (!merged) break;
      runs.splice(runs.length - 2, 2, merged);
    }
  }

  /**
   * Once the read is whole (`rows`, the array the list will be given): the runs concatenated
   * into one, their orders merged. Called in a task of its own, so the merge over the whole
   * account is not added to the task that then shows the list (concat returns this one).
   */
  join(rows: readonly CustomerView[]): void {
    if (this.#runs.length === 0) return;
    const whole = ListKeys.concat(rows, this.#runs);
    if (whole) this.#runs = [whole];
  }

  /** The runs, in the read's order. */
  get runs(): readonly ListKeys[] {
    return this.#runs;
  }
}
