// What the page counts over every customer per data version (cache/key-counts.ts): the custom
// fields held, the groups used, which side of the milliseconds threshold visit times are on. A
// version that changed a few customers is counted by those alone, and the counts always equal
// a count of the whole version; an unknown change counts afresh.
import { describe, expect, it } from 'vitest';
import { KeyCounts } from '../../src-renderer/src/cache/key-counts';
import { patchById } from '../../src-renderer/src/cache/id-order';
import { detectTimeUnit, storedTimeSides, unitOfSides } from '../../src-shared/time-units';

type Row = { id: string; groups: string[] };

const rows = (n: number): Row[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `c${String(i).padStart(6, '0')}`,
    groups: i % 3 === 0 ? ['North'] : i % 3 === 1 ? ['South', 'Key'] : [],
  }));

function countAll(list: readonly Row[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of list) for (const g of r.groups) counts.set(g, (counts.get(g) ?? 0) + 1);
  return counts;
}

/** A feed's versions: each patched one remembers the ids it changed from its base. */
function versions() {
  const changes = new WeakMap<readonly Row[], { base: readonly Row[]; ids: Set<string> }>();
  return {
    patch(base: Row[], ids: string[], found: Array<Row | undefined>): Row[] {
      const next = patchById(base, ids, found);
      changes.set(next, { base, ids: new Set(ids) });
      return next;
    },
    changedSince(base: readonly Row[], next: readonly Row[]): Set<string> | null {
      const step = changes.get(next);
      return step?.base === base ? new Set(step.ids) : null;
    },
  };
}

describe('KeyCounts', () => {
  it('counts a patched version by its changed customers only, equal to a full count', () => {
    const feed = versions();
    let read = 0;
    const counts = new KeyCounts<Row>(
      (r) => {
        read++;
        return r.groups;
      },
      (a, b) => feed.changedSince(a, b),
    );
    const first = rows(30_000);
    expect(counts.of(first)).toEqual(countAll(first));
    expect(read).toBe(30_000);

    read = 0;
    // One customer changes its groups, one is deleted, one is created.
    const second = feed.patch(
      first,
      ['c000001', 'c000003', 'c999999'],
      [{ id: 'c000001', groups: ['West'] }, undefined, { id: 'c999999', groups: ['North'] }],
    );
    expect(new Map(counts.of(second))).toEqual(countAll(second));
    expect(counts.of(second).get('West')).toBe(1);
    // The old and the new row of each changed id, never the other 29,998.
    expect(read).toBeLessThanOrEqual(6);

    read = 0;
    // A version the feed cannot relate: counted afresh.
    const third = rows(10);
    expect(new Map(counts.of(third))).toEqual(countAll(third));
    expect(read).toBe(10);
    expect(counts.of(third).has('West')).toBe(false);
  });

  it('drops a key no customer holds any more', () => {
    const feed = versions();
    const counts = new KeyCounts<Row>(
      (r) => r.groups,
      (a, b) => feed.changedSince(a, b),
    );
    const first: Row[] = [
      { id: 'a', groups: ['Only'] },
      { id: 'b', groups: [] },
    ];
    counts.of(first);
    const second = feed.patch(first, ['a'], [{ id: 'a', groups: [] }]);
    expect([...counts.of(second).keys()]).toEqual([]);
  });
});

describe('the account time unit from counted sides', () => {
  it('is the median rule of detectTimeUnit for any mix of values', () => {
    const median = (values: number[]) => {
      const set = values.filter((v) => v > 0).sort((a, b) => a - b);
      if (set.length === 0) return 'seconds';
      return set[Math.floor(set.length / 2)]! > 1e11 ? 'milliseconds' : 'seconds';
    };
    let seed = 7;
    const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    for (let trial = 0; trial < 200; trial++) {
      const customers = Array.from({ length: Math.floor(random() * 9) }, () => ({
        lastVisit: random() < 0.2 ? 0 : random() < 0.5 ? 1_700_000_000 : 1_700_000_000_000,
        remindAt: random() < 0.5 ? 0 : random() < 0.5 ? 1_710_000_000 : 1_710_000_000_000,
      }));
      const sides = customers.flatMap(storedTimeSides);
      const large = sides.filter((side) => side === 'large').length;
      const small = sides.length - large;
      const expected = median(customers.flatMap((c) => [c.lastVisit, c.remindAt]));
      expect(unitOfSides(small, large)).toBe(expected);
      expect(detectTimeUnit(customers)).toBe(expected);
    }
  });
});
