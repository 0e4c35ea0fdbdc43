// The list's sort and filter keys, computed once per data version: lower-cased text keys per
// sort column, last visit and reminder as epoch-ms typed arrays, search haystacks, group
// membership bitmaps, and one index order per sort (built on first use, then cached). A new data
// version after a small edit reuses the previous version's keys for unchanged records and
// repairs each cached order by re-inserting only the changed records (binary search), so an
// edit or a sort switch never re-sorts or re-lowercases 100k records.
import { CUSTOMER_SEARCH_FIELDS, searchHaystack } from '../../../../src-shared';
import { fromAccountTime } from '../../../../src-shared/time-units';
import { VISIT_AGE_BUCKETS, type VisitFilter } from '../../../../src-shared/visits';
import type { CustomerView } from '../../types';

export type SortKey = 'name' | 'company' | 'city' | 'lastVisit';
export type SortDirection = 'asc' | 'desc';

const TEXT_SORTS = ['name', 'company', 'city'] as const;
type TextSort = (typeof TEXT_SORTS)[number];
/** Fields whose change invalidates a record's keys. */
const KEYED_FIELDS = [
  ...new Set<string>([...CUSTOMER_SEARCH_FIELDS, ...TEXT_SORTS, 'color', 'lastVisit', 'remindAt']),
] as (keyof CustomerView)[];
/** Above this many changed records a full sort is cheaper than re-inserting each one. */
const MAX_REPAIRS = 512;
const DAY_MS = 86_400_000;

/**
 * A small number per colour name, shared by every data version (names are few: the palette and
 * an account's own): the colour filter compares numbers in a typed array instead of reading the
 * `color` of 100k records (about 45 ms at 100k in Chromium, against about 1 ms).
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

/** What a new version keeps of the previous one: its computed orders, mapped to new indices. */
interface Carried {
  orders: Map<string, Uint32Array>;
  /** New index of each previous index, -1 when the record is gone or its keys changed. */
  kept: Int32Array;
  /** New indices whose keys are new (changed or added records). */
  changed: number[];
}

export class ListKeys {
  readonly haystacks: string[];
  readonly text: Record<TextSort, string[]>;
  /** Last visit in epoch ms, NaN when never visited. */
  readonly lastVisitMs: Float64Array;
  /** Reminder time in epoch ms, NaN when none. */
  readonly remindMs: Float64Array;
  readonly hasPosition: Uint8Array;
  /** The colour of each record as its code (colorCode). */
  readonly colors: Uint16Array;
  #byId: Map<string, number> | null = null;
  #orders = new Map<string, Uint32Array>();
  #groups = new Map<string, Uint8Array>();
  #carried: Carried | null = null;

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

  /** `previous`'s index of the record with this id (its same index first: edits keep order). */
  #indexIn(previous: ListKeys, id: string, i: number): number | undefined {
    return previous.rows[i]?.id === id ? i : previous.byId.get(id);
  }

  /** Keys of `rows` (in cache order), reusing `previous`'s for records whose keyed fields are unchanged. */
  static build(rows: readonly CustomerView[], previous?: ListKeys | null): ListKeys {
    const keys = new ListKeys(rows);
    const kept = previous ? new Int32Array(previous.rows.length).fill(-1) : null;
    const changed: number[] = [];
    for (let i = 0; i < rows.length; i++) {
      const c = rows[i]!;
      const p = previous ? keys.#indexIn(previous, c.id, i) : undefined;
      // The same object (CustomerFeed keeps unchanged records' objects) has the same keys.
      const before = p === undefined ? undefined : previous?.rows[p];
      if (previous && kept && p !== undefined && (before === c || sameKeys(before!, c))) {
        kept[p] = i;
        keys.#copyFrom(previous, p, i);
      } else {
        changed.push(i);
        keys.#compute(c, i);
      }
    }
    if (previous && kept && changed.length <= MAX_REPAIRS && previous.#orders.size > 0) {
      keys.#carried = { orders: new Map(previous.#orders), kept, changed };
    }
    return keys;
  }

  #compute(c: CustomerView, i: number): void {
    this.haystacks[i] = searchHaystack(c);
    for (const f of TEXT_SORTS) this.text[f][i] = String(c[f] ?? '').toLowerCase();
    this.lastVisitMs[i] = fromAccountTime(c.lastVisit) ?? NaN;
    this.remindMs[i] = fromAccountTime(c.remindAt) ?? NaN;
    this.hasPosition[i] = c.position === null ? 0 : 1;
    this.colors[i] = colorCode(c.color);
  }

  #copyFrom(previous: ListKeys, p: number, i: number): void {
    this.haystacks[i] = previous.haystacks[p]!;
    for (const f of TEXT_SORTS) this.text[f][i] = previous.text[f][p]!;
    this.lastVisitMs[i] = previous.lastVisitMs[p]!;
    this.remindMs[i] = previous.remindMs[p]!;
    this.hasPosition[i] = previous.hasPosition[p]!;
    this.colors[i] = previous.colors[p]!;
  }

  /** a before b in this sort (ties in cache order, in both directions). */
  #comparator(key: SortKey, direction: SortDirection): (a: number, b: number) => number {
    const sign = direction === 'asc' ? 1 : -1;
    if (key === 'lastVisit') {
      const ms = this.lastVisitMs;
      // Never visited sorts as 0 (the oldest).
      return (a, b) => sign * ((ms[a]! || 0) - (ms[b]! || 0)) || a - b;
    }
    const text = this.text[key];
    return (a, b) => {
      const ka = text[a]!;
      const kb = text[b]!;
      return ka === kb ? a - b : ka < kb ? -sign : sign;
    };
  }

  /** Indices into `rows` in display order for this sort. */
  order(key: SortKey, direction: SortDirection): Uint32Array {
    const name = `${key}:${direction}`;
    let order = this.#orders.get(name);
    if (order) return order;
    const compare = this.#comparator(key, direction);
    const previous = this.#carried?.orders.get(name);
    order = previous ? this.#repair(previous, compare) : this.#sorted(compare);
    this.#orders.set(name, order);
    return order;
  }

  #sorted(compare: (a: number, b: number) => number): Uint32Array {
    const order = new Uint32Array(this.rows.length);
    for (let i = 0; i < order.length; i++) order[i] = i;
    return order.sort(compare);
  }

  /** The previous order with gone and changed records dropped, then each changed one inserted. */
  #repair(previous: Uint32Array, compare: (a: number, b: number) => number): Uint32Array {
    const { kept, changed } = this.#carried!;
    const out: number[] = [];
    // Cache order is id order, so kept records keep their relative index order (ties stay right).
    for (const p of previous) if (kept[p]! >= 0) out.push(kept[p]!);
    for (const i of changed) {
      let lo = 0;
      let hi = out.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (compare(out[mid]!, i) < 0) lo = mid + 1;
        else hi = mid;
      }
      out.splice(lo, 0, i);
    }
    return Uint32Array.from(out);
  }

  /** A test of record index against a colour name (no record has a name never seen). */
  colorTest(color: string): (i: number) => boolean {
    const code = COLOR_CODES.get(color);
    if (code === undefined) return () => false;
    const colors = this.colors;
    return (i) => colors[i] === code;
  }

  /** 1 for each record in `group`, built once per group and data version. */
  groupBits(group: string): Uint8Array {
    let bits = this.#groups.get(group);
    if (!bits) {
      bits = new Uint8Array(this.rows.length);
      for (let i = 0; i < bits.length; i++) if (this.rows[i]!.groups.includes(group)) bits[i] = 1;
      this.#groups.set(group, bits);
    }
    return bits;
  }

  /** A test of record index against a visit filter at `nowMs` (same rule as filterByVisit), or null for "all". */
  visitTest(filter: VisitFilter, nowMs: number): ((i: number) => boolean) | null {
    if (filter.kind === 'all') return null;
    const remind = this.remindMs;
    if (filter.kind === 'due') return (i) => remind[i]! <= nowMs;
    const visit = this.lastVisitMs;
    if (filter.bucket === 'never') return (i) => Number.isNaN(visit[i]!);
    const at = VISIT_AGE_BUCKETS.findIndex((b) => b.key === filter.bucket);
    const max = VISIT_AGE_BUCKETS[at]!.maxDays ?? Infinity;
    const min = at === 0 ? 0 : (VISIT_AGE_BUCKETS[at - 1]!.maxDays ?? Infinity) + 1;
    return (i) => {
      const ms = visit[i]!;
      if (Number.isNaN(ms)) return false;
      const days = Math.max(0, Math.floor((nowMs - ms) / DAY_MS));
      return days >= min && days <= max;
    };
  }
}
