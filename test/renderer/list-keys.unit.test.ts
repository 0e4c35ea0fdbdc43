// The list's filters and sorts on precomputed keys (list-keys.ts, customer-index.ts) answer
// exactly like the plain rules (filterByVisit, a fresh sort, colour and group checks), and a
// new data version after one edit repairs the cached sort orders without sorting again.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { positionOf, type Customer } from '../../src-shared';
import { fromAccountTime } from '../../src-shared/time-units';
import { filterByVisit, type VisitFilter } from '../../src-shared/visits';
import { CustomerIndex } from '../../src-renderer/src/features/customers/customer-index';
import { ListKeys, type SortKey } from '../../src-renderer/src/features/customers/list-keys';
import type { CustomerView } from '../../src-renderer/src/types';
import { makeCustomers } from './pages/fixtures';

const NOW = 1_700_000_000_000 + 40 * 86_400_000;
const DAY = 86_400_000;

/** Fresh view objects each call, as every liveQuery answer is. */
function viewsOf(customers: Customer[]): CustomerView[] {
  return customers.map((c) => ({ ...c, pending: false, position: positionOf(c) }));
}

/** Customers with visits and reminders spread over every bucket, in both time units. */
function customers(n: number): Customer[] {
  return makeCustomers(n, 9).map((c, i) => {
    const ms = i % 6 === 5 ? 0 : NOW - (i % 200) * DAY * 0.7 + (i % 3) * 3_600_000;
    const seconds = i % 2 === 0;
    const lastVisit = ms === 0 ? 0 : seconds ? Math.floor(ms / 1000) : ms;
    const remindAt = i % 4 === 0 ? NOW + (i % 9) * DAY - 4 * DAY : 0;
    return { ...c, lastVisit, remindAt, name: i % 50 === 0 ? c.name.toUpperCase() : c.name };
  });
}

const ids = (list: readonly { id: string }[]) => list.map((c) => c.id).join(' ');

/** The display order of the plain rule: lower-cased text or last visit, ties in cache order. */
function plainSort(list: CustomerView[], key: SortKey, direction: 'asc' | 'desc'): CustomerView[] {
  const sign = direction === 'asc' ? 1 : -1;
  const value = (c: CustomerView) =>
    key === 'lastVisit' ? (fromAccountTime(c.lastVisit) ?? 0) : String(c[key]).toLowerCase();
  return list
    .map((c, i) => ({ c, i, k: value(c) }))
    .sort((a, b) => (a.k === b.k ? a.i - b.i : a.k < b.k ? -sign : sign))
    .map((e) => e.c);
}

const VISITS: VisitFilter[] = [
  { kind: 'due' },
  ...(['week', 'month', 'quarter', 'older', 'never'] as const).map((bucket): VisitFilter => ({
    kind: 'age',
    bucket,
  })),
];

afterEach(() => vi.restoreAllMocks());

describe('list keys', () => {
  it('every sort, visit filter, colour and group answers like the plain rules', () => {
    const data = customers(3_000);
    const views = viewsOf(data);
    const keys = ListKeys.build(views);
    for (const key of ['name', 'company', 'city', 'lastVisit'] as const) {
      for (const direction of ['asc', 'desc'] as const) {
        const index = new CustomerIndex(keys, key, direction);
        const sorted = plainSort(views, key, direction);
        expect(ids(index.rows), `${key} ${direction}`).toBe(ids(sorted));
        expect(ids(index.unmapped), `unmapped ${key} ${direction}`).toBe(
          ids(sorted.filter((c) => c.position === null)),
        );
        for (const visit of VISITS) {
          const expected = filterByVisit(sorted, visit, NOW);
          const got = index.filter({
            term: '',
            color: null,
            group: null,
            visit: { filter: visit, nowMs: NOW },
          });
          expect(ids(got), JSON.stringify(visit)).toBe(ids(expected));
        }
      }
    }
    const index = new CustomerIndex(keys, 'city', 'asc');
    const sorted = plainSort(views, 'city', 'asc');
    const color = views[7]!.color;
    const group = views.find((c) => c.groups.length > 0)!.groups[0]!;
    const got = index.filter({
      term: 'a',
      color,
      group,
      visit: { filter: { kind: 'age', bucket: 'quarter' }, nowMs: NOW },
    });
    const expected = filterByVisit(sorted, { kind: 'age', bucket: 'quarter' }, NOW).filter(
      (c) => c.color === color && c.groups.includes(group) && index.search('a').includes(c),
    );
    expect(got.length).toBeGreaterThan(0);
    expect(ids(got)).toBe(ids(expected));
  });

  it('a new data version after one edit, one create and one delete repairs each cached order without a sort', () => {
    const data = customers(5_000);
    const first = ListKeys.build(viewsOf(data));
    for (const key of ['name', 'lastVisit'] as const) first.order(key, 'asc');
    first.order('city', 'desc');

    const edited = data.slice();
    edited[100] = { ...edited[100]!, name: 'Aaaa first now', city: 'Zzz', lastVisit: NOW };
    edited.splice(2_000, 1);
    edited.splice(3_000, 0, { ...data[5]!, id: `${data[3_000]!.id}-new`, name: 'mid' });
    const views = viewsOf(edited);
    const sort = vi.spyOn(Uint32Array.prototype, 'sort');
    const next = ListKeys.build(views, first);
    for (const [key, direction] of [
      ['name', 'asc'],
      ['lastVisit', 'asc'],
      ['city', 'desc'],
    ] as const) {
      expect(ids(new CustomerIndex(next, key, direction).rows), key).toBe(
        ids(plainSort(views, key, direction)),
      );
    }
    expect(sort).not.toHaveBeenCalled();
    // An order the previous version never built is sorted once, and right.
    expect(ids(new CustomerIndex(next, 'company', 'desc').rows)).toBe(
      ids(plainSort(views, 'company', 'desc')),
    );
    expect(sort).toHaveBeenCalledTimes(1);
    // Search follows the edit (the edited record's haystack is new, the others reused).
    expect(ids(new CustomerIndex(next).search('aaaa first now'))).toBe(edited[100]!.id);
  });

  it("an edit that leaves a sort key as it was keeps that sort's orders, and repairs the others", () => {
    const data = customers(5_000).sort((a, b) => (a.id < b.id ? -1 : 1));
    const first = ListKeys.build(viewsOf(data));
    const sorts = [
      ['name', 'asc'],
      ['lastVisit', 'asc'],
      ['city', 'desc'],
    ] as const;
    for (const [key, direction] of sorts) first.order(key, direction);
    const colour = data.map((c, i) => (i === 100 ? { ...c, color: 'purple' } : c));
    const moved = colour.map((c, i) => (i === 100 ? { ...c, city: 'Aaa first city' } : c));
    // Both ways in: the ids the feed patched, and a walk of both versions.
    for (const changed of [new Set([data[100]!.id]), null]) {
      const views = viewsOf(colour);
      const recoloured = ListKeys.build(views, first, changed);
      for (const [key, direction] of sorts) {
        expect(recoloured.order(key, direction), key).toBe(first.order(key, direction));
        expect(ids(new CustomerIndex(recoloured, key, direction).rows)).toBe(
          ids(plainSort(views, key, direction)),
        );
      }
      const movedViews = viewsOf(moved);
      const next = ListKeys.build(movedViews, recoloured, changed);
      expect(next.order('city', 'desc')).not.toBe(first.order('city', 'desc'));
      expect(next.order('name', 'asc')).toBe(first.order('name', 'asc'));
      for (const [key, direction] of sorts) {
        expect(ids(new CustomerIndex(next, key, direction).rows), key).toBe(
          ids(plainSort(movedViews, key, direction)),
        );
      }
    }
    // A create or a delete moves indices: every order is repaired, none shared.
    const fewer = viewsOf(colour.filter((_, i) => i !== 2_000));
    const after = ListKeys.build(fewer, first, new Set([data[2_000]!.id, data[100]!.id]));
    expect(after.order('name', 'asc')).not.toBe(first.order('name', 'asc'));
    expect(ids(new CustomerIndex(after, 'name', 'asc').rows)).toBe(
      ids(plainSort(fewer, 'name', 'asc')),
    );
  });

  it('search hits follow an edit, a create and a delete, testing only the changed records', () => {
    const data = customers(5_000).sort((a, b) => (a.id < b.id ? -1 : 1));
    const first = ListKeys.build(viewsOf(data));
    const filter = (keys: ListKeys, term: string) =>
      ids(new CustomerIndex(keys).filter({ term, color: null, group: null }));
    const terms = ['zzqq', data[300]!.name.slice(0, 5), 'a'];
    for (const term of terms) filter(first, term);

    const edited = data.slice();
    edited[100] = { ...edited[100]!, name: 'Has zzqq now' };
    const blank = { name: 'x', company: 'x', address: 'x', city: 'x', state: 'x', zip: 'x' };
    edited[300] = { ...edited[300]!, ...blank, country: 'x' };
    edited.splice(2_000, 1);
    edited.push({ ...data[5]!, id: 'zzzz-new', name: 'New zzqq and a' });
    const changed = new Set([edited[100]!.id, edited[300]!.id, data[2_000]!.id, 'zzzz-new']);
    const views = viewsOf(edited);
    // The oracle: keys built afresh, every haystack tested.
    const fresh = ListKeys.build(views);

    const expected = terms.map((term) => filter(fresh, term));
    for (const build of [
      () => ListKeys.build(views, first, changed),
      () => ListKeys.build(views, first),
    ]) {
      const includes = vi.spyOn(String.prototype, 'includes');
      const next = build();
      const got = terms.map((term) => filter(next, term));
      // Three terms carried: only the 3 changed records' haystacks were tested per term (and
      // the filter's own check of the term); a fresh scan would test 5,000 per term.
      expect(includes.mock.calls.length).toBeLessThanOrEqual(4 * terms.length);
      includes.mockRestore();
      expect(got).toEqual(expected);
    }
    const patched = ListKeys.build(views, first, changed);
    expect(filter(patched, 'zzqq')).toBe(`${edited[100]!.id} zzzz-new`);
    expect(filter(patched, terms[1]!)).not.toContain(edited[300]!.id);
  });
});
