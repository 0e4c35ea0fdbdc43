// The list's view of the customers: display order for one sort, search-as-you-type over the
// precomputed haystacks (the service's search rule), and the colour, group and visit filters
// over typed-array keys (list-keys.ts). One pass over the order per change; IndexedDB is never
// queried and nothing is re-sorted or re-lowercased on a filter or search change.
import { matchesSearch, normaliseSearchTerm } from '../../../../src-shared';
import type { VisitFilter } from '../../../../src-shared/visits';
import type { CustomerView } from '../../types';
import { ListKeys, type SortDirection, type SortKey } from './list-keys';

export type { SortDirection, SortKey } from './list-keys';

export type CustomerFilter = {
  term: string;
  color: string | null;
  group: string | null;
  /** The visit filter and the "now" it is read at (none: every visit date). */
  visit?: { filter: VisitFilter; nowMs: number };
};

const SEPARATOR = '\u0000';

export class CustomerIndex {
  /** Indices into `keys.rows`, in display order. */
  readonly order: Uint32Array;
  #rows: CustomerView[] | null = null;

  constructor(
    readonly keys: ListKeys,
    key: SortKey = 'name',
    direction: SortDirection = 'asc',
  ) {
    this.order = keys.order(key, direction);
  }

  static build(
    customers: readonly CustomerView[],
    key: SortKey = 'name',
    direction: SortDirection = 'asc',
  ): CustomerIndex {
    return new CustomerIndex(ListKeys.build(customers), key, direction);
  }

  /** Customers without a position, in display order (read from the keys, not the records). */
  get unmapped(): CustomerView[] {
    const { order } = this;
    const { rows, hasPosition } = this.keys;
    const out: CustomerView[] = [];
    for (let k = 0; k < order.length; k++) {
      const i = order[k]!;
      if (hasPosition[i] === 0) out.push(rows[i]!);
    }
    return out;
  }

  /** Customers in display order. */
  get rows(): readonly CustomerView[] {
    if (!this.#rows) {
      // Sized once and no test per record: at a first read's end this runs over the whole
      // account, once, in the task that shows it (too soon for the JIT to speed up a closure).
      const { order } = this;
      const { rows } = this.keys;
      const out = new Array<CustomerView>(order.length);
      for (let k = 0; k < order.length; k++) out[k] = rows[order[k]!]!;
      this.#rows = out;
    }
    return this.#rows;
  }

  #pick(keep: (i: number) => boolean): CustomerView[] {
    const { order } = this;
    const { rows } = this.keys;
    const out: CustomerView[] = [];
    for (let k = 0; k < order.length; k++) {
      const i = order[k]!;
      if (keep(i)) out.push(rows[i]!);
    }
    return out;
  }

  /** Customers matching the service's search rule (an empty term matches nothing, like the service). */
  search(term: string): CustomerView[] {
    const test = this.#searchTest(term);
    return test === null ? [] : this.#pick(test);
  }

  #searchTest(term: string): ((i: number) => boolean) | null {
    const needle = normaliseSearchTerm(term);
    if (needle === '') return null;
    const { rows } = this.keys;
    // A needle holding the separator could match across two fields: use the exact rule then.
    if (needle.includes(SEPARATOR)) return (i) => matchesSearch(rows[i]!, term);
    const hits = this.keys.searchHits(needle);
    return (i) => hits[i] === 1;
  }

  /**
   * The list's view: search (when a non-blank term is typed) and the filters, in display order.
   * One pass over the order reading typed columns (no closure per record).
   */
  filter(filter: CustomerFilter): CustomerView[] {
    // Blank is "no search" (the service refuses a blank term); any other term searches as typed.
    const blank = filter.term.trim() === '';
    const needle = blank ? '' : normaliseSearchTerm(filter.term);
    if (!blank && needle === '') return [];
    const { keys, order } = this;
    const { rows, colors } = keys;
    const code = filter.color === null ? -1 : keys.colorCode(filter.color);
    const bits = filter.group === null ? null : keys.groupBits(filter.group);
    const visit = filter.visit ? keys.visitRange(filter.visit.filter, filter.visit.nowMs) : null;
    const { column, lo, hi, never } = visit ?? { column: null, lo: 0, hi: 0 };
    // A needle holding the separator could match across two fields: use the exact rule then.
    const exact = needle.includes(SEPARATOR);
    if (blank && code === -1 && bits === null && visit === null) return this.rows as CustomerView[];
    const hits = blank || exact ? null : keys.searchHits(needle);
    const out: CustomerView[] = [];
    for (let k = 0; k < order.length; k++) {
      const i = order[k]!;
      if (code !== -1 && colors[i] !== code) continue;
      if (bits !== null && bits[i] === 0) continue;
      if (column !== null) {
        const v = column[i]!;
        if (never ? v === v : !(v > lo && v <= hi)) continue;
      }
      if (hits !== null ? hits[i] === 0 : !blank && !matchesSearch(rows[i]!, filter.term)) continue;
      out.push(rows[i]!);
    }
    return out;
  }
}
