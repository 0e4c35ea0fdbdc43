// The list's keys and orders as the app builds them at scale: sort orders computed by the sort
// worker's code (over a real MessageChannel) equal the UI thread's for tricky text, and a data
// version CustomerFeed patched (an edit, a create, a delete) gets keys equal to a fresh build
// while reading only the changed records, not every row.
import { MessageChannel } from 'node:worker_threads';
import { describe, expect, it, vi } from 'vitest';
import { positionOf, type Customer } from '../../src-shared';
import { ListKeys, ReadKeys } from '../../src-renderer/src/features/customers/list-keys';
import { SORT_KEYS, orderName } from '../../src-renderer/src/features/customers/list-orders';
import {
  serveSorts,
  type SortPort,
} from '../../src-renderer/src/features/customers/list-sort-worker';
import { ListSorter, MIN_WORKER_ROWS } from '../../src-renderer/src/features/customers/list-sorter';
import type { CustomerView } from '../../src-renderer/src/types';
import { until } from '../support/until';
import { makeCustomers } from './pages/fixtures';

/** Views in the cache's order (primary key, i.e. id order), as CustomerFeed holds them. */
function viewsOf(customers: Customer[]): CustomerView[] {
  return customers
    .map((c) => ({ ...c, pending: false, position: positionOf(c) }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Keys of `rows` as a full read gets them: pieces of 1,000, each with the list's order by name. */
function readInPieces(rows: readonly CustomerView[]): ReadKeys {
  const read = new ReadKeys();
  for (let from = 0; from < rows.length; from += 1_000) {
    const piece = ListKeys.build(rows.slice(from, from + 1_000));
    piece.order('name', 'asc');
    read.add(piece);
  }
  return read;
}

/** Names the service really sends: accents, case, blanks, numbers as strings (PHP), ties. */
const TRICKY = [
  'émile',
  'Emile',
  'EMILE',
  'Émile',
  '',
  ' ',
  '10',
  '9',
  '010',
  '1e3',
  'Zoë',
  'zoe',
  'Ærø',
  'ß',
  'SS',
  '日本',
  'Ångström',
  'angstrom',
  'a\u0000b',
];

function tricky(n: number): Customer[] {
  return makeCustomers(n, 5).map((c, i) => ({
    ...c,
    name: TRICKY[i % TRICKY.length]!,
    // PHP sends a numeric company or city as a number now and then.
    company: (i % 7 === 0 ? 1000 + (i % 13) : TRICKY[(i * 3) % TRICKY.length]!) as string,
    city: i % 5 === 0 ? '' : TRICKY[(i * 7) % TRICKY.length]!,
    lastVisit: i % 4 === 0 ? 0 : 1_700_000_000 + (i % 11) * 86_400,
  }));
}

/** Every column and every order of two key sets, as plain values. */
function snapshot(keys: ListKeys) {
  const groups = [...keys.groups].map(([g, bits]) => [g, [...bits].join('')] as const);
  return {
    ids: keys.rows.map((c) => c.id),
    haystacks: keys.haystacks,
    text: keys.text,
    lastVisitMs: [...keys.lastVisitMs],
    remindMs: [...keys.remindMs],
    hasPosition: [...keys.hasPosition],
    colors: [...keys.colors],
    groups: groups.filter(([, bits]) => bits.includes('1')).sort(),
    orders: SORT_KEYS.flatMap((key) =>
      (['asc', 'desc'] as const).map((d) => [orderName(key, d), [...keys.order(key, d)]]),
    ),
  };
}

/** One end of a MessageChannel served by the sort worker's code (what the Worker runs). */
function workerPort(): SortPort {
  const { port1, port2 } = new MessageChannel();
  serveSorts(port2 as unknown as SortPort);
  return port1 as unknown as SortPort;
}

describe('list sorts off the UI thread', () => {
  it('the sort worker answers every order exactly as the UI thread sorts it, tricky text included', async () => {
    const views = viewsOf(tricky(MIN_WORKER_ROWS));
    const keys = ListKeys.build(views);
    const sorter = new ListSorter(workerPort);
    sorter.request(keys);
    await until(
      () => SORT_KEYS.every((k) => keys.hasOrder(k, 'asc') && keys.hasOrder(k, 'desc')),
      'every order from the sort worker',
    );
    sorter.dispose();
    const fresh = ListKeys.build(views);
    for (const key of SORT_KEYS) {
      for (const direction of ['asc', 'desc'] as const) {
        const expected = [...fresh.order(key, direction)];
        expect([...keys.order(key, direction)], `${key} ${direction}`).toEqual(expected);
        // The plain rule: lower-cased text by code units (or last visit), ties in cache order.
        const sign = direction === 'asc' ? 1 : -1;
        const value = (c: CustomerView) =>
          key === 'lastVisit' ? (c.lastVisit ?? 0) : String(c[key] ?? '').toLowerCase();
        const plain = views
          .map((c, i) => ({ i, k: value(c) }))
          .sort((a, b) => (a.k === b.k ? a.i - b.i : a.k < b.k ? -sign : sign))
          .map((e) => e.i);
        expect(expected, `${key} ${direction} (plain)`).toEqual(plain);
      }
    }
  });

  it('answers while the page’s timers are held (a minimised window throttles them)', async () => {
    // Chromium runs a hidden page's timers at most once a second, chained ones once a minute:
    // the sorter's hand-off and yields are messages, which it does not throttle.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval'] });
    try {
      const keys = ListKeys.build(viewsOf(tricky(MIN_WORKER_ROWS)));
      const sorter = new ListSorter(workerPort);
      sorter.request(keys);
      await sorter.answered(keys);
      expect(SORT_KEYS.every((k) => keys.hasOrder(k, 'asc') && keys.hasOrder(k, 'desc'))).toBe(
        true,
      );
      sorter.dispose();
    } finally {
      vi.useRealTimers();
    }
  });

  it('tells a list waiting to sort when the worker has answered for its data version, or never will', async () => {
    const sorter = new ListSorter(workerPort);
    const small = ListKeys.build(viewsOf(tricky(MIN_WORKER_ROWS - 1)));
    sorter.request(small);
    // Below the worker's size the UI thread sorts: nothing is owed, nothing to wait for.
    expect(sorter.pending(small)).toBe(false);
    const first = ListKeys.build(viewsOf(tricky(MIN_WORKER_ROWS)));
    sorter.request(first);
    expect(sorter.pending(first)).toBe(true);
    const waitFirst = sorter.answered(first);
    // A newer version asked for at once: the first is answered, or replaced before it was sent.
    const second = ListKeys.build(viewsOf(tricky(MIN_WORKER_ROWS + 1)));
    sorter.request(second);
    await waitFirst;
    expect(sorter.pending(first)).toBe(false);
    const waitSecond = sorter.answered(second);
    await waitSecond;
    expect(SORT_KEYS.every((k) => second.hasOrder(k, 'asc'))).toBe(true);
    // A version replaced before it was sent is settled too, and a failed worker owes nothing.
    const third = ListKeys.build(viewsOf(tricky(MIN_WORKER_ROWS + 2)));
    const fourth = ListKeys.build(viewsOf(tricky(MIN_WORKER_ROWS + 3)));
    sorter.request(third);
    sorter.request(fourth);
    await sorter.answered(third);
    expect(sorter.pending(third)).toBe(false);
    const waitFourth = sorter.answered(fourth);
    sorter.fail();
    await waitFourth;
    expect(sorter.pending(fourth)).toBe(false);
    sorter.dispose();
  });

  it('a patched data version gets the keys of a fresh build, reading only the changed rows', () => {
    const data = tricky(6_000);
    const before = viewsOf(data);
    const first = ListKeys.build(before);
    for (const key of SORT_KEYS) for (const d of ['asc', 'desc'] as const) first.order(key, d);

    // An edit (text, visit, colour and groups), a create and a delete, as CustomerFeed patches them.
    const rows = before.slice();
    const at = 1_234;
    rows[at] = {
      ...rows[at]!,
      name: 'AAA first',
      city: 'Zzz',
      lastVisit: 1_800_000_000,
      color: 'teal-new',
      groups: ['brand-new group'],
    };
    const gone = rows.splice(4_000, 1)[0]!;
    const created = { ...rows[10]!, id: `${rows[2_000]!.id}+`, name: 'Émile created' };
    rows.splice(2_001, 0, created);
    const changed = new Set([rows[at]!.id, gone.id, created.id]);

    // Count the rows ListKeys reads: the patch must not walk all of them.
    let reads = 0;
    const counted = new Proxy(rows, {
      get(target, prop, receiver) {
        if (typeof prop === 'string' && /^\d+$/.test(prop)) reads++;
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
    const patched = ListKeys.build(counted, first, changed);
    expect(reads).toBeLessThan(200);
    const fresh = ListKeys.build(rows);
    expect(snapshot(patched)).toEqual(snapshot(fresh));
  });

  it('a version that changed every third record gets the keys of a fresh build', () => {
    const data = tricky(3_000);
    const first = ListKeys.build(viewsOf(data));
    // Thousands of short kept runs (a sync's pieces scattered over the id order).
    const next = data.map((c, i) => (i % 3 === 0 ? { ...c, name: `${c.name} again` } : c));
    const rows = viewsOf(next);
    const changed = new Set(next.filter((_, i) => i % 3 === 0).map((c) => c.id));
    const patched = ListKeys.build(rows, first, changed);
    expect(snapshot(patched)).toEqual(snapshot(ListKeys.build(rows)));
  });

  it('keys built piece by piece as a full read arrives equal a fresh build, the list order merged without a sort', () => {
    const rows = viewsOf(tricky(7_003));
    const pieces: ListKeys[] = [];
    for (let from = 0; from < rows.length; from += 1_000) {
      const piece = ListKeys.build(rows.slice(from, from + 1_000));
      piece.order('city', 'desc');
      pieces.push(piece);
    }
    const sort = vi.spyOn(Uint32Array.prototype, 'sort');
    const joined = ListKeys.concat(rows, pieces)!;
    expect(joined.hasOrder('city', 'desc')).toBe(true);
    expect(sort).not.toHaveBeenCalled();
    sort.mockRestore();
    expect(snapshot(joined)).toEqual(snapshot(ListKeys.build(rows)));
    // Pieces of another read are refused (the caller builds the keys whole then).
    expect(ListKeys.concat(rows.slice(1), pieces)).toBeNull();
    expect(ListKeys.concat(viewsOf(tricky(7_003)), pieces)).toBeNull();
  });

  it('pieces added as they arrive become a few runs in read order, which concatenate to a fresh build', () => {
    const rows = viewsOf(tricky(11_003));
    const read = readInPieces(rows);
    // 12 pieces (11 whole, 1 of 3): runs of 8, 2, 1 and 1 pieces, no two neighbours alike.
    expect(read.runs.map((r) => r.rows.length)).toEqual([8_000, 2_000, 1_000, 3]);
    expect(read.runs.every((r) => r.hasOrder('name', 'asc'))).toBe(true);
    const sort = vi.spyOn(Uint32Array.prototype, 'sort');
    const joined = ListKeys.concat(rows, read.runs)!;
    expect(sort).not.toHaveBeenCalled();
    sort.mockRestore();
    expect(joined.hasOrder('name', 'asc')).toBe(true);
    expect(snapshot(joined)).toEqual(snapshot(ListKeys.build(rows)));
  });

  it('runs joined once the read is whole are the keys the list then takes, with nothing left to merge', () => {
    const rows = viewsOf(tricky(11_003));
    const read = readInPieces(rows);
    read.join(rows);
    expect(read.runs.map((r) => r.rows.length)).toEqual([11_003]);
    const whole = read.runs[0]!;
    expect(whole.hasOrder('name', 'asc')).toBe(true);
    expect(snapshot(whole)).toEqual(snapshot(ListKeys.build(rows)));
    // The list's task takes those very keys: no copy, no merge, no sort.
    const sort = vi.spyOn(Uint32Array.prototype, 'sort');
    expect(ListKeys.concat(rows, read.runs)).toBe(whole);
    expect(sort).not.toHaveBeenCalled();
    sort.mockRestore();
    // Rows of another read (a copy of the array) are still checked, piece by piece.
    expect(ListKeys.concat([...rows], read.runs)).not.toBe(whole);
    expect(ListKeys.concat(rows.slice(1), read.runs)).toBeNull();
  });
});
