// The pull's keeper of the last data (src-main/core/sync/pull.ts): the first pull is a snapshot,
// later ones a delta, and fingerprinting 100k records for the delta lets main's event loop run.
// Its prints are saved, real files in a temp dir: after a restart the first pull is a delta too.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DurableFs } from '../../src-main/core/durable-fs';
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

  it('keeps the last delta for a later road only while it leads to the kept pull', async () => {
    const keeper = new SnapshotKeeper('acct');
    const first = ['a', 'b'].map((id) => customerRecord({ id, name: id, color: 'red' }));
    await keeper.take(pulled(first), 1);
    expect(keeper.deltaOver(1)).toBeNull();
    const next = [{ ...first[0]!, color: 'black' }, first[1]!];
    const out = await keeper.take(pulled(next), 2);
    if (!('delta' in out)) throw new Error('expected a delta');
    expect(keeper.deltaOver(1)).toBe(out.delta);
    expect(keeper.deltaOver(0)).toBeNull();
    // An acknowledgement changes the kept pull: the delta no longer leads to what a resend holds.
    keeper.acknowledge({ upserted: [{ ...first[1]!, color: 'green' }], deleted: [] });
    expect(keeper.deltaOver(1)).toBeNull();
  });
});

it('never changes a snapshot it handed out; its own copy takes every acknowledgement', async () => {
  const keeper = new SnapshotKeeper('acct');
  const first = ['a', 'b', 'c'].map((id) => customerRecord({ id, name: id, color: 'red' }));
  await keeper.take(pulled(first), 1);
  const ack = (id: string, color: string) => {
    const record = { ...first.find((c) => c.id === id)!, color };
    keeper.acknowledge({ upserted: [record], deleted: [] });
    return record;
  };
  const a = ack('a', 'black');
  const handed = keeper.snapshot!; // a resend under way
  const b1 = ack('b', 'blue');
  expect(handed.customers).toEqual([a, first[1], first[2]]);
  // Many in a row, none handed out between them (a bulk change draining), and a new customer.
  const b2 = ack('b', 'green');
  const c = ack('c', 'teal');
  const created = customerRecord({ id: 'new', name: 'new' });
  keeper.acknowledge({ upserted: [created], deleted: [] });
  const now = keeper.snapshot!;
  expect(now.customers).toEqual([a, b2, c, created]);
  expect(b1).not.toEqual(b2);
  ack('a', 'white');
  expect(now.customers[0]).toBe(a);
  expect(handed.customers).toEqual([a, first[1], first[2]]);
  expect(keeper.snapshot?.customers.map((x) => x.color)).toEqual([
    'white',
    'green',
    'teal',
    created.color,
  ]);
});

describe('SnapshotKeeper across a restart', () => {
  let dir: string;
  let file: string;
  const fs = new DurableFs();
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fieldmap-prints-'));
    file = join(dir, 'last-pull-prints.json');
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const records = (n: number) =>
    Array.from({ length: n }, (_, i) => customerRecord({ id: `c${i}`, name: `C${i}` }));

  it("saves the last pull's prints; after a restart the first pull is a delta from that pull", async () => {
    const before = new SnapshotKeeper('acct', { fs, file });
    const first = records(3_000);
    expect('snapshot' in (await before.take(pulled(first), 10))).toBe(true);
    await before.save(4_200);
    // A hash per record, not its JSON: a few dozen bytes each.
    expect((await readFile(file)).length).toBeLessThan(3_000 * 60);

    const after = new SnapshotKeeper('acct', { fs, file });
    await after.load();
    expect(after.canDiff).toBe(true);
    expect(after.snapshot).toBeNull();
    // How long that pull's list took: the first push weighs a list against GETs by it.
    expect(after.savedListMs).toBe(4_200);
    // Meanwhile the rep's create was acknowledged (the cache has it; the saved prints do not).
    const created = customerRecord({ id: 'made', name: 'Made' });
    after.acknowledge({ upserted: [created], deleted: [] });
    const next = first.slice(1).map((c) => (c.id === 'c7' ? { ...c, name: 'Moved on' } : c));
    next.push(created);
    const out = await after.take(pulled(next), 20);
    if (!('delta' in out)) throw new Error('expected a delta');
    expect(out.delta.base).toBe(10);
    expect(out.delta.customers.upserted.map((c) => c.id)).toEqual(['c7']);
    expect(out.delta.customers.deleted).toEqual(['c0']);
    // Every id the service has: the cache drops what the saved prints could not know of.
    expect(out.delta.present?.customers).toEqual(next.map((c) => c.id));
    expect(after.snapshot?.pulledAt).toBe(20);
    // The next one is a delta from the pull kept in memory, naming no ids.
    const again = await after.take(pulled(next), 30);
    if (!('delta' in again)) throw new Error('expected a delta');
    expect(again.delta).toMatchObject({ base: 20, present: null });
    expect(again.delta.customers.upserted).toEqual([]);
  });

  it("sends the whole snapshot when the saved prints are damaged, another account's or missing", async () => {
    const before = new SnapshotKeeper('acct', { fs, file });
    await before.take(pulled(records(10)), 10);
    await before.save();
    const saved = await readFile(file, 'utf8');
    for (const content of [
      saved.slice(0, saved.length / 2),
      saved.replace('"acct"', '"other"'),
      null,
    ]) {
      if (content === null) await rm(file);
      else await writeFile(file, content);
      const after = new SnapshotKeeper('acct', { fs, file });
      await after.load();
      expect(after.canDiff).toBe(false);
      expect('snapshot' in (await after.take(pulled(records(10)), 20))).toBe(true);
    }
  });
});
