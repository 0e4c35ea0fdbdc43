// What the page derives per data version, kept across versions: "Due today" (features/reminders/
// due-today.ts DueList) and the Selection panel's customers (features/customers/picked-records.ts),
// over the feed's versions and those with the rep's saved changes laid over (cache/saved-ahead).
// After a patched version each answers exactly what a pass over every customer answers, and reads
// only the customers the feed says changed, so a bulk change's acknowledgements, each a version,
// no longer cost a pass over the whole account each.
import { describe, expect, it } from 'vitest';
import { positionOf, type Customer, type Op } from '../../src-shared';
import { SavedAhead } from '../../src-renderer/src/cache/saved-ahead.svelte';
import type { CustomerRow, FieldmapDb } from '../../src-renderer/src/cache/schema';
import { DueList, dueToday } from '../../src-renderer/src/features/reminders/due-today';
import { PickedRecords } from '../../src-renderer/src/features/customers/picked-records';
import type { CustomerView } from '../../src-renderer/src/types';
import { makeCustomers } from './pages/fixtures';

const NOW = new Date(2026, 10, 29, 10, 0).getTime();
const HOUR = 3_600_000;

/** Customers in id order (the cache's), a third with a reminder from two days ago to tomorrow. */
function views(n: number): CustomerView[] {
  return makeCustomers(n, 5)
    .map((c: Customer, i) => ({
      ...c,
      remindAt: i % 3 === 0 ? NOW + ((i % 17) - 12) * 4 * HOUR : 0,
      // Same time and name for some: the order's ties must be the full list's too.
      name: i % 7 === 0 ? 'Same name' : c.name,
      pending: false,
      position: positionOf(c),
    }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** A feed in miniature: each patched version remembers what it was patched from. */
function feed() {
  const patches = new Map<
    readonly CustomerView[],
    { base: readonly CustomerView[]; ids: string[] }
  >();
  return {
    patch(
      base: CustomerView[],
      edits: Record<string, Partial<CustomerView> | null>,
    ): CustomerView[] {
      const rows = base
        .filter((c) => edits[c.id] !== null)
        .map((c) => (edits[c.id] ? { ...c, ...edits[c.id] } : c));
      patches.set(rows, { base, ids: Object.keys(edits) });
      return rows;
    },
    changedSince(base: readonly CustomerView[], rows: readonly CustomerView[]): Set<string> | null {
      const ids = new Set<string>();
      for (let at = rows; at !== base;) {
        const patch = patches.get(at);
        if (!patch) return null;
        for (const id of patch.ids) ids.add(id);
        at = patch.base;
      }
      return ids;
    },
  };
}

describe('"Due today" across data versions', () => {
  it('answers as a pass over every customer after each patched version', () => {
    const f = feed();
    const list = new DueList((a, b) => f.changedSince(a, b));
    let rows = views(600);
    expect(list.read(rows, NOW)).toEqual(dueToday(rows, NOW));
    const [a, b, c, d, e] = [rows[0]!, rows[3]!, rows[9]!, rows[30]!, rows[31]!];
    const steps: Array<Record<string, Partial<CustomerView> | null>> = [
      { [a.id]: { remindAt: NOW - HOUR } }, // moved, still due
      { [b.id]: { remindAt: NOW + 48 * HOUR }, [c.id]: { remindAt: 0 } }, // past today, cleared
      { [d.id]: null }, // deleted
      { [e.id]: { name: 'Same name', remindAt: rows[0]!.remindAt } }, // a tie with another
      { [a.id]: { color: 'red' } }, // a change that leaves the reminder as it was
    ];
    for (const edits of steps) {
      rows = f.patch(rows, edits);
      expect(list.read(rows, NOW)).toEqual(dueToday(rows, NOW));
    }
    // A new day: every reminder is read again.
    expect(list.read(rows, NOW + 24 * HOUR)).toEqual(dueToday(rows, NOW + 24 * HOUR));
    // A version the feed cannot relate (a full read): read whole.
    const fresh = views(600).slice(100);
    expect(list.read(fresh, NOW)).toEqual(dueToday(fresh, NOW));
  });

  it('reads only the customers a version changed', () => {
    const f = feed();
    const list = new DueList((a, b) => f.changedSince(a, b));
    const rows = views(3000);
    list.read(rows, NOW);
    const reads = new Set<string>();
    // Every record's reminder fields, watched from here on.
    const watched = rows.map((c) => {
      const copy = { ...c };
      for (const key of ['remindAt', 'name', 'address', 'city'] as const)
        Object.defineProperty(copy, key, {
          get: () => (reads.add(c.id), c[key]),
          enumerable: true,
        });
      return copy as CustomerView;
    });
    const base = f.patch(watched, {});
    list.read(base, NOW); // patched from a version the list never saw: read whole
    const target = rows[42]!;
    const next = f.patch(base, { [target.id]: { remindAt: NOW - 2 * HOUR } });
    reads.clear();
    const due = list.read(next, NOW);
    expect([...reads]).toEqual([]); // the changed record is a plain object: nothing watched read
    expect(due).toEqual(dueToday(next, NOW));
    expect(due.some((r) => r.customerId === target.id)).toBe(true);
  });
});

describe("the Selection panel's customers across data versions", () => {
  it('are the records of its ids that exist, reading only the changed ones by id', () => {
    const f = feed();
    let rows = views(500);
    const asked: string[] = [];
    const byId = (id: string) => (asked.push(id), rows.find((c) => c.id === id));
    const picks = new PickedRecords((a, b) => f.changedSince(a, b), byId);
    const ids = [rows[40]!.id, rows[3]!.id, 'not-there', rows[200]!.id, rows[7]!.id];
    const plain = () => ids.flatMap((id) => rows.find((c) => c.id === id) ?? []);
    expect(picks.pick(ids, rows, 0)).toEqual(plain());
    // One selected customer changes, one is deleted, one outside the selection changes.
    asked.length = 0;
    rows = f.patch(rows, {
      [ids[1]!]: { color: 'teal' },
      [ids[3]!]: null,
      [rows[300]!.id]: { color: 'teal' },
    });
    const picked = picks.pick(ids, rows, 0);
    expect(picked).toEqual(plain());
    expect(picked[1]).toBe(rows.find((c) => c.id === ids[1])); // the new record, not the old
    expect(asked.sort()).toEqual([ids[1]!, ids[3]!].sort()); // not the one outside it
    // Nothing changed: the same answer, nothing read.
    asked.length = 0;
    expect(picks.pick(ids, rows, 0)).toBe(picked);
    expect(asked).toEqual([]);
    // A rename since: every id is read again.
    expect(picks.pick(ids, rows, 1)).toEqual(plain());
    expect(asked).toHaveLength(ids.length);
  });
});

type Row = CustomerView & CustomerRow;

/**
 * SavedAhead over a miniature feed. The unit lane has no IndexedDB: `bulkGet` plays the cache's
 * outbox mirror (saved-ahead.e2e runs the real one).
 */
function aheadOver(
  f: ReturnType<typeof feed>,
  bulkGet: (ids: string[]) => Promise<unknown[]>,
): SavedAhead<Row> {
  return new SavedAhead<Row>(
    { pending: { bulkGet } } as unknown as FieldmapDb,
    { changedSince: (a, b) => f.changedSince(a, b), refresh: async () => undefined },
    (found) => found as Row[],
  );
}

/** An update of `target`'s fields as main's enqueue answers it. */
function updateOp(target: Customer, payload: { color: string }): Op {
  return {
    opId: 'op-1',
    accountKey: 'acct',
    createdAt: NOW,
    attempts: 0,
    lastError: null,
    state: 'pending',
    kind: 'updateCustomer',
    target: target.id,
    payload,
    base: target,
  };
}

describe("versions with the rep's saved changes laid over them (SavedAhead)", () => {
  it('relate to the versions before and after them by the ids they changed', () => {
    const f = feed();
    const rows = views(300);
    // The cache's outbox mirror is empty, as while the worker is busy (what these versions are for).
    const ahead = aheadOver(f, async (ids) => ids.map(() => undefined));
    const base = rows as Row[];
    expect(ahead.apply(base)).toBe(base);
    const target = rows[12]!;
    ahead.saved(updateOp(target, { color: 'teal' }));
    const laid = ahead.apply(base);
    expect(laid.find((c) => c.id === target.id)?.color).toBe('teal');
    // The feed's own version, then one with the change laid over, then the feed's next one.
    expect(ahead.changedSince(base, laid)).toEqual(new Set([target.id]));
    const other = rows[40]!;
    const next = f.patch(base, { [other.id]: { color: 'red' } }) as typeof base;
    const laidNext = ahead.apply(next);
    // The feed alone cannot relate them (CustomersState.changedSince must ask SavedAhead).
    expect(f.changedSince(laid, laidNext)).toBeNull();
    expect(ahead.changedSince(laid, laidNext)).toEqual(new Set([target.id, other.id]));
    expect(ahead.changedSince(laidNext, next)).toEqual(new Set([target.id]));
    // A version the feed cannot relate stays unrelated.
    expect(ahead.changedSince(views(300) as typeof base, laid)).toBeNull();
  });
});

describe("the status bar's count of saved changes the cache has not applied (SavedAhead)", () => {
  it('drops a change in the very task its mirror is applied, and once for a coalesced save', () => {
    const f = feed();
    const rows = views(50) as Row[];
    // Nothing read from the cache answers yet: the count must not wait for it.
    const ahead = aheadOver(f, () => new Promise<never>(() => undefined));
    const target = rows[3]!;
    ahead.saved(updateOp(target, { color: 'teal' }));
    expect(ahead.unmirrored).toBe(1);
    // The worker applied a mirror holding it: the queue applied with it counts it now.
    ahead.mirrored([], ['op-1']);
    expect(ahead.unmirrored).toBe(0);
    // A second save of the same customer main coalesced into that op: still counted once.
    ahead.saved(updateOp(target, { color: 'red' }));
    expect(ahead.unmirrored).toBe(0);
  });

  it('keeps counting a change the cache shows until a report says the queue counts it', async () => {
    const f = feed();
    const rows = views(50) as Row[];
    const target = rows[3]!;
    const op = updateOp(target, { color: 'teal' });
    // The worker wrote the mirror holding it (the page reads it) but has not reported it yet:
    // the bar's queue, applied with that report, does not count it.
    const ahead = aheadOver(f, async (ids) => ids.map(() => ({ ...op, seq: 1 })));
    ahead.saved(op);
    const settled = () => new Promise((resolve) => setTimeout(resolve, 0));
    await settled();
    expect(ahead.unmirrored).toBe(1);
    ahead.mirrored([], ['op-1']);
    expect(ahead.unmirrored).toBe(0);
    await settled();
    expect(ahead.unmirrored).toBe(0);
  });

  it('counts a change once when its report came before main answered the save', () => {
    const f = feed();
    const rows = views(50) as Row[];
    const ahead = aheadOver(f, () => new Promise<never>(() => undefined));
    ahead.mirrored([], ['op-1']);
    ahead.saved(updateOp(rows[3]!, { color: 'teal' }));
    expect(ahead.unmirrored).toBe(0);
  });
});
