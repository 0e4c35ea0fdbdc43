// The in-memory index behind search-as-you-type: customers in display order with their
// precomputed haystacks (the service's search rule), rebuilt once per data or sort change and
// scanned per keystroke. 100k substring checks take a few milliseconds; IndexedDB is never queried.
import { matchesSearch, normaliseSearchTerm, searchHaystack } from '../../../../src-shared';
import { fromAccountTime } from '../../../../src-shared/time-units';
import type { CustomerView } from '../../types';

export type SortKey = 'name' | 'company' | 'city' | 'lastVisit';
export type SortDirection = 'asc' | 'desc';

export type CustomerFilter = {
  term: string;
  color: string | null;
  group: string | null;
};

const SEPARATOR = '\u0000';

export class CustomerIndex {
  private constructor(
    /** Customers in display order. */
    readonly rows: readonly CustomerView[],
    /** `searchHaystack` of each row, same order. */
    private readonly haystacks: readonly string[],
  ) {}

  static build(
    customers: readonly CustomerView[],
    key: SortKey = 'name',
    direction: SortDirection = 'asc',
  ): CustomerIndex {
    const n = customers.length;
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    const sign = direction === 'asc' ? 1 : -1;
    if (key === 'lastVisit') {
      // Read by the one unit rule, so seconds and milliseconds values sort together.
      const keys = customers.map((c) => fromAccountTime(c.lastVisit) ?? 0);
      order.sort((a, b) => sign * (keys[a]! - keys[b]!) || a - b);
    } else {
      // Precomputed sort keys: a plain `<` over 100k strings is far faster than a collator.
      const keys = customers.map((c) => String(c[key] ?? '').toLowerCase());
      order.sort((a, b) => {
        const ka = keys[a]!;
        const kb = keys[b]!;
        return ka === kb ? a - b : ka < kb ? -sign : sign;
      });
    }
    const rows = new Array<CustomerView>(n);
    const haystacks = new Array<string>(n);
    for (let i = 0; i < n; i++) {
      const c = customers[order[i]!]!;
      rows[i] = c;
      haystacks[i] = searchHaystack(c);
    }
    return new CustomerIndex(rows, haystacks);
  }

  /** Customers matching the service's search rule (an empty term matches nothing, like the service). */
  search(term: string): CustomerView[] {
    const needle = normaliseSearchTerm(term);
    if (needle === '') return [];
    // A needle holding the separator could match across two fields: use the exact rule then.
    if (needle.includes(SEPARATOR)) return this.rows.filter((c) => matchesSearch(c, term));
    const out: CustomerView[] = [];
    const { rows, haystacks } = this;
    for (let i = 0; i < haystacks.length; i++)
      if (haystacks[i]!.includes(needle)) out.push(rows[i]!);
    return out;
  }

  /** The list's view: search (when a non-blank term is typed), color and group filters, in display order. */
  filter({ term, color, group }: CustomerFilter): CustomerView[] {
    // Blank is "no search" (the service refuses a blank term); any other term searches as typed.
    const searched = term.trim() === '' ? this.rows : this.search(term);
    if (color === null && group === null) return searched as CustomerView[];
    return searched.filter(
      (c) => (color === null || c.color === color) && (group === null || c.groups.includes(group)),
    );
  }
}
