import { describe, expect, it } from 'vitest';
import { emptyCustomerFields, type Customer, type CustomerFields } from '../../src-shared/domain';
import { fieldsEqual, normaliseFields, threeWayMerge } from '../../src-main/core/sync/merge';
import { matchCreates, matchRoutes } from '../../src-main/core/sync/creates/reconcile';
import { extractIdCandidates } from '../../src-main/core/service/id-candidates';
import { diffRecords, fingerprint } from '../../src-main/core/sync/snapshot-diff';

const ts = { date: '2024-01-01 00:00:00', timezone_type: 3, timezone: 'UTC' };
function record(id: string, fields: Partial<CustomerFields> = {}): Customer {
  return { ...emptyCustomerFields(), name: 'Acme', ...fields, id, createdAt: ts, updatedAt: ts };
}

describe('normalisation', () => {
  it('treats the readings of the gaps as the same value', () => {
    const a = record('a', { dealAmount: 12.5, lastVisit: 0, latitude: null, longitude: null });
    const b = record('a', { dealAmount: '12.5', lastVisit: null, latitude: 0, longitude: 0 });
    expect(fieldsEqual(a, b)).toBe(true);
    expect(normaliseFields(b)).toMatchObject({ dealAmount: 12.5, lastVisit: 0, latitude: null });
  });
  it('still tells different values apart', () => {
    expect(fieldsEqual(record('a', { dealAmount: 12 }), record('a', { dealAmount: '12.5' }))).toBe(
      false,
    );
    expect(
      fieldsEqual(record('a', { groups: ['x', 'y'] }), record('a', { groups: ['y', 'x'] })),
    ).toBe(false);
    expect(fieldsEqual(record('a', { latitude: 1, longitude: 0 }), record('a'))).toBe(false);
  });
});

describe('threeWayMerge', () => {
  const base = record('a', { name: 'Old', city: 'Lyon', notes: 'n' });

  it('sends fields changed only locally and keeps fields changed only on the server', () => {
    const server = record('a', { name: 'Old', city: 'Paris', notes: 'n' });
    const m = threeWayMerge(base, { name: 'New' }, server);
    expect(m.conflicts).toEqual([]);
    expect(m.body).toMatchObject({ name: 'New', city: 'Paris', notes: 'n' });
    expect(m.changed).toBe(true);
  });

  it('logs a conflict and keeps the rep value when both changed a field differently', () => {
    const server = record('a', { name: 'Server', city: 'Lyon', notes: 'n' });
    const m = threeWayMerge(base, { name: 'Rep' }, server);
    expect(m.body.name).toBe('Rep');
    expect(m.conflicts).toEqual([
      { field: 'name', baseValue: 'Old', repValue: 'Rep', serverValue: 'Server' },
    ]);
  });

  it('is not a conflict when both sides made the same change, and then needs no PUT', () => {
    const server = record('a', { name: 'Same', city: 'Lyon', notes: 'n' });
    const m = threeWayMerge(base, { name: 'Same' }, server);
    expect(m.conflicts).toEqual([]);
    expect(m.changed).toBe(false);
  });

  it('uses the server record as base when the base is null', () => {
    const server = record('a', { name: 'Created', city: 'Rome' });
    const m = threeWayMerge(null, { city: 'Milan' }, server);
    expect(m.conflicts).toEqual([]);
    expect(m.body).toMatchObject({ name: 'Created', city: 'Milan' });
  });

  it('returns the complete record of writable fields, untouched ones exactly as received', () => {
    const server = record('a', {
      name: 'Old',
      dealAmount: '5',
      remindAt: null,
      latitude: 0,
      longitude: 0,
    });
    const m = threeWayMerge(base, { notes: 'm' }, server);
    expect(Object.keys(m.body).sort()).toEqual(Object.keys(emptyCustomerFields()).sort());
    expect(m.body).toMatchObject({ dealAmount: '5', remindAt: null, latitude: 0, longitude: 0 });
    expect(m.body).not.toHaveProperty('id');
  });

  it("sends the rep's changes, and a moved position as a pair", () => {
    const server = record('a', { name: 'Old', dealAmount: '5', latitude: 0, longitude: 0 });
    const m = threeWayMerge(server, { latitude: 59.9, dealAmount: 7 }, server);
    // Half a position is no position: the customer stays unmapped, as received.
    expect(m.body).toMatchObject({ dealAmount: 7, latitude: 0, longitude: 0 });
    const mapped = record('a', { latitude: 48.85, longitude: 2.35 });
    const cleared = threeWayMerge(mapped, { latitude: null }, mapped);
    expect(cleared.body).toMatchObject({ latitude: null, longitude: null });
    const moved = threeWayMerge(server, { latitude: 59.9, longitude: 10.7 }, server);
    expect(moved.body).toMatchObject({ dealAmount: '5', latitude: 59.9, longitude: 10.7 });
    // Unchanged values resent in another spelling are no change: nothing to send.
    const same = threeWayMerge(server, { dealAmount: 5, latitude: null, longitude: null }, server);
    expect(same.changed).toBe(false);
    expect(same.body).toMatchObject({ dealAmount: '5', latitude: 0, longitude: 0 });
  });
});

describe('reconciliation', () => {
  it('extracts id candidates from a create message, confirmable ones first', () => {
    expect(extractIdCandidates('Customer object created with id Ab3dE5gH9k')[0]).toBe('Ab3dE5gH9k');
    expect(extractIdCandidates('Object created')).toEqual([]);
  });

  it('matches creates to new records by fields, excluding known ids, in order', () => {
    const fields = { ...emptyCustomerFields(), name: 'Twin' };
    const server = [
      record('old', { name: 'Twin' }),
      record('n1', { name: 'Twin' }),
      record('n2', { name: 'Twin', dealAmount: '3' }),
    ];
    const result = matchCreates(
      [
        { key: 'op1', fields },
        { key: 'op2', fields },
        { key: 'op3', fields: { ...fields, dealAmount: 3 } },
        { key: 'op4', fields },
      ],
      server,
      new Set(['old']),
    );
    expect([...result]).toEqual([
      ['op1', 'n1'],
      ['op3', 'n2'],
    ]);
  });

  it('matches routes by name and point count among new routes', () => {
    const route = (id: string, name: string, n: number) => ({
      id,
      name,
      points: Array(n).fill('1,1') as string[],
      createdAt: ts,
      updatedAt: ts,
    });
    const result = matchRoutes(
      [{ key: 'r', routeName: 'Tour', pointCount: 2 }],
      [route('x', 'Tour', 2), route('y', 'Tour', 3), route('z', 'Tour', 2)],
      new Set(['x']),
    );
    expect(result.get('r')).toBe('z');
  });
});

describe('snapshot diff', () => {
  it('reports changed, new and deleted records only', () => {
    const before = [record('a'), record('b'), record('c')];
    const after = [record('a'), record('b', { city: 'X' }), record('d')];
    const diff = diffRecords(fingerprint(before), after, fingerprint(after));
    expect(diff.upserted.map((r) => r.id)).toEqual(['b', 'd']);
    expect(diff.deleted).toEqual(['c']);
  });
});
