// "Due today (N)" and "Reminder due" count one set: the top bar's button and its panel
// (due-today.ts), the list's visit filter (filterByVisit and the list's typed-column filter,
// ListKeys.visitRange) and the map's "Reminder due" pins (geojson.ts reminderState). A trial
// saw two numbers: the filter and the pins took a reminder as due once its time had come, "Due
// today" by the end of the rep's day. And "Due today" read remindAt twice per customer (100k at
// every full read): once is enough.
import { describe, expect, it, vi } from 'vitest';
import { positionOf, type Customer } from '../../src-shared';
import { filterByVisit } from '../../src-shared/visits';
import { CustomerIndex } from '../../src-renderer/src/features/customers/customer-index';
import { ListKeys } from '../../src-renderer/src/features/customers/list-keys';
import { dueToday } from '../../src-renderer/src/features/reminders/due-today';
import { reminderState } from '../../src-renderer/src/map/layers/geojson';
import type { CustomerView } from '../../src-renderer/src/types';
import { makeCustomers } from './pages/fixtures';

const HOUR = 3_600_000;
/** 10:00 on the rep's own (local) clock. */
const NOW = new Date(2026, 10, 30, 10, 0, 0, 0).getTime();
const END_OF_DAY = new Date(2026, 10, 30, 23, 59, 59, 999).getTime();
const seconds = (ms: number) => Math.floor(ms / 1000);

/** [name, remindAt as stored, due today?] */
const CASES: Array<[string, number | null, boolean]> = [
  ['two days overdue, seconds', seconds(NOW - 48 * HOUR), true],
  ['an hour overdue, milliseconds', NOW - HOUR, true],
  ['now', NOW, true],
  ['this afternoon, seconds', seconds(NOW + 5 * HOUR), true],
  ['this afternoon, milliseconds', NOW + 5 * HOUR, true],
  ['the last millisecond of today', END_OF_DAY, true],
  ['midnight tonight', END_OF_DAY + 1, false],
  ['tomorrow morning, seconds', seconds(NOW + 23 * HOUR), false],
  ['next week', NOW + 7 * 24 * HOUR, false],
  ['none (0)', 0, false],
  ['none (null)', null, false],
  ['unreadable (negative)', -5, false],
];

function views(): CustomerView[] {
  const base = makeCustomers(CASES.length, 17);
  return base
    .map((c, i): Customer => ({ ...c, remindAt: CASES[i]![1] as number, remindType: 'Call' }))
    .map((c) => ({ ...c, pending: false, position: positionOf(c) }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

const idSet = (list: readonly { id: string }[]) => [...list.map((c) => c.id)].sort();

describe('a reminder due', () => {
  it('is one set for "Due today", the "Reminder due" filter (both ways) and the map’s pins', () => {
    const rows = views();
    const nameOf = new Map(rows.map((c) => [c.id, c.name]));
    const expected = rows.filter((c) => CASES.find(([, at]) => at === c.remindAt)![2]);
    // The fixture's own answer: overdue ones and those later today, nothing from midnight on.
    expect(expected.length).toBe(6);

    const button = dueToday(rows, NOW).map((r) => ({ id: r.customerId }));
    const filter = filterByVisit(rows, { kind: 'due' }, NOW);
    const index = new CustomerIndex(ListKeys.build(rows), 'name', 'asc');
    const list = index.filter({
      term: '',
      color: null,
      group: null,
      visit: { filter: { kind: 'due' }, nowMs: NOW },
    });
    const pins = rows.filter((c) => reminderState(c, NOW) === 'due');

    const named = (set: string[]) => set.map((id) => nameOf.get(id));
    const want = named(idSet(expected));
    expect(named(idSet(button)), '"Due today"').toEqual(want);
    expect(named(idSet(filter)), 'the "Reminder due" filter').toEqual(want);
    expect(named(idSet(list)), 'the list’s "Reminder due"').toEqual(want);
    expect(named(idSet(pins)), 'the map’s "Reminder due" pins').toEqual(want);
  });

  it('reads each customer’s remindAt once in "Due today"', () => {
    const reads = new Map<string, number>();
    const rows = views().map((c) => {
      const value = c.remindAt;
      const counted = { ...c };
      Object.defineProperty(counted, 'remindAt', {
        enumerable: true,
        get: () => {
          reads.set(c.id, (reads.get(c.id) ?? 0) + 1);
          return value;
        },
      });
      return counted;
    });
    const due = dueToday(rows, NOW);
    expect(due.length).toBe(6);
    expect([...reads.values()].filter((n) => n !== 1)).toEqual([]);
    expect(reads.size).toBe(rows.length);
  });

  it('works out the end of the day once per pass, not once per customer', () => {
    const rows = views();
    const many = Array.from({ length: 40 }, () => rows).flat();
    const setHours = vi.spyOn(Date.prototype, 'setHours');
    try {
      const later = NOW + 60_000;
      expect(filterByVisit(many, { kind: 'due' }, later)).toHaveLength(6 * 40);
      expect(many.filter((c) => reminderState(c, later) === 'due')).toHaveLength(6 * 40);
      expect(setHours).toHaveBeenCalledTimes(1);
      // A new pass at a new time is answered from that time, not from the last one's.
      const tomorrow = NOW + 24 * HOUR;
      expect(filterByVisit(rows, { kind: 'due' }, tomorrow).length).toBeGreaterThan(6);
      expect(setHours).toHaveBeenCalledTimes(2);
    } finally {
      setHours.mockRestore();
    }
  });
});
