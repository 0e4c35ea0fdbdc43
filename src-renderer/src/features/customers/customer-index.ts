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

  /** Customers in display order. */
  get rows(): readonly CustomerView[] {
    if (!this.#rows) this.#rows = this.#pick(() => true);
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
    const { rows, haystacks } = this.keys;
    // A needle holding the separator could match across two fields: use the exact rule then.
    if (needle.includes(SEPARATOR)) return (i) => matchesSearch(rows[i]!, term);
    return (i) => haystacks[i]!.includes(needle);
  }

  /** Records (indices) passing the colour, group and visit filters; null when none is set. */
  filterTest({
    color,
    group,
    visit,
  }: Omit<CustomerFilter, 'term'>): ((i: number) => boolean) | null {
    const colorTest = color === null ? null : this.keys.colorTest(color);
    const bits = group === null ? null : this.keys.groupBits(group);
    const visitTest = visit ? this.keys.visitTest(visit.filter, visit.nowMs) : null;
    if (colorTest === null && bits === null && visitTest === null) return null;
    return (i) =>
      (colorTest === null || colorTest(i)) &&
      (bits === null || bits[i] === 1) &&
      (visitTest === null || visitTest(i));
  }

  /** The list's view: search (when a non-blank term is typed) and the filters, in display order. */
  filter(filter: CustomerFilter): CustomerView[] {
    // Blank is "no search" (the service refuses a blank term); any other term searches as typed.
    const search = filter.term.trim() === '' ? null : this.#searchTest(filter.term);
    if (filter.term.trim() !== '' && search === null) return [];
    const rest = this.filterTest(filter);
    if (search === null && rest === null) return this.rows as CustomerView[];
    return this.#pick((i) => (search === null || search(i)) && (rest === null || rest(i)));
  }
}
