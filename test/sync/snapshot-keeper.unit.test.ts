// The pull's keeper of the last data (src-main/core/sync/pull.ts): the first pull is a snapshot,
// later ones a delta, and fingerprinting 100k records for the delta lets main's event loop run.
import { describe, expect, it } from 'vitest';
import { SnapshotKeeper, type Pulled } from '../../src-main/core/sync/pull';
import type { Customer } from '../../src-shared/domain';
import { customerRecord } from '../support/customer-record';
import { immediateTicker } from '../support/clock';

function pulled(customers: Customer[]): Pulled {
  return {
    user: { username: 'rep', name: 'Rep', phone: '', numPins: customers.length } as Pulled['user'],
    customers,
    routes: [],
    territories: [],
  };
}

describe('SnapshotKeeper', () => {
  it('gives a snapshot first, then only what changed, letting the event loop run meanwhile', async () => {
    const keeper = new SnapshotKeeper('acct');
    const first = Array.from({ length: 9_000 }, (_, i) =>
      customerRecord({ id: `c${i}`, name: `C${i}` }),
    );
    const out1 = await keeper.take(pulled(first), 1);
    expect('snapshot' in out1 && out1.snapshot.customers.length).toBe(9_000);

    const next = first.slice(1).map((c) => (c.id === 'c5' ? { ...c, name: 'Renamed' } : c));
    next.push(customerRecord({ id: 'new', name: 'New' }));
    const ticker = immediateTicker();
    const taking = keeper.take(pulled(next), 2);
    // A resend asked while the delta is worked out sends the data before it.
    expect(keeper.snapshot?.pulledAt).toBe(1);
    const out2 = await taking;
    ticker.stop();
    if (!('delta' in out2)) throw new Error('expected a delta');
    expect(out2.delta.customers.upserted.map((c) => c.id).sort()).toEqual(['c5', 'new']);
    expect(out2.delta.customers.deleted).toEqual(['c0']);
    expect(keeper.snapshot?.pulledAt).toBe(2);
    // 2 x 9,000 records fingerprinted in slices of 2,000: the loop ran between them.
    expect(ticker.count).toBeGreaterThanOrEqual(8);
  });

  it('takes what the service acknowledged, so a resend carries it and the next pull corrects it', async () => {
    const keeper = new SnapshotKeeper('acct');
    const first = ['a', 'b', 'c'].map((id) => customerRecord({ id, name: id, color: 'red' }));
    await keeper.take(pulled(first), 1);
    const acked = { ...first[0]!, color: 'black' };
    keeper.acknowledge({ upserted: [acked], deleted: ['b'] });
    // A resend (the page reloaded before the pull) holds the acknowledged record, not the old one.
    expect(keeper.snapshot?.customers).toEqual([acked, first[2]]);
    expect(keeper.snapshot?.pulledAt).toBe(1);
    // The pull: the service's own record of a (a newer updatedAt) is sent; b stays gone.
    const served = { ...acked, updatedAt: { ...acked.updatedAt, date: '2030-01-01 00:00:00' } };
    const out = await keeper.take(pulled([served, first[2]!]), 2);
    if (!('delta' in out)) throw new Error('expected a delta');
    expect(out.delta.customers.upserted).toEqual([served]);
    expect(out.delta.customers.deleted).toEqual([]);
  });
});
