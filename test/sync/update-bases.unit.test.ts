// What an update is merged against (sync/bases.ts): a customers list of this push no older than
// MAX_BASE_AGE_MS, bridged with a GET per record while a slow list is on its way, and never a
// list's record older than what this push itself put. Every request goes to the real reference
// service; the client's methods are only wrapped to count them and to act between them.
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_BASE_AGE_MS } from '../../src-main/core/sync/bases';
import { FakeClock } from '../support/clock';
import { Harness, TEST_ABSENCE_GRACE_MS, USER } from '../support/main';
import { until } from '../support/until';

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

type Method =
  'getCustomer' | 'listCustomers' | 'updateCustomer' | 'readCustomers' | 'searchCustomers';

/** Counts the client's calls of each method; `after` runs once a call has been answered. */
function watch(
  harness: Harness,
  after: Partial<Record<Method, (n: number) => Promise<void> | void>> = {},
): Record<Method, number> {
  const counts: Record<Method, number> = {
    getCustomer: 0,
    listCustomers: 0,
    updateCustomer: 0,
    readCustomers: 0,
    searchCustomers: 0,
  };
  const client = harness.client as unknown as Record<Method, (...a: unknown[]) => Promise<unknown>>;
  for (const method of Object.keys(counts) as Method[]) {
    const original = client[method].bind(harness.client);
    client[method] = async (...args) => {
      const n = ++counts[method];
      const answer = await original(...args);
      await after[method]?.(n);
      return answer;
    };
  }
  return counts;
}

/**
 * A slow list, as the last pull measured it at 100k on a busy laptop, and the service's rate:
 * 40 changes would wait 13 s for GETs of their own, so one list is worth fetching.
 */
const SLOW_LIST = {
  push: { absenceGraceMs: TEST_ABSENCE_GRACE_MS, listLatencyMs: 10_000, ratePerSecond: 3 },
};
const MANY = 40;

/** Queues `color` for `ids` as one batch, each with the record the rep saw (the lasso's way). */
async function colourBatch(harness: Harness, ids: string[], color: string): Promise<void> {
  await harness.outbox.enqueueMany(
    ids.map((id) => ({
      kind: 'updateCustomer' as const,
      target: id,
      payload: { color },
      base: harness.base(id),
    })),
  );
}

async function colourAll(harness: Harness, ids: string[], color: string): Promise<void> {
  for (const id of ids) {
    await harness.outbox.enqueue({
      kind: 'updateCustomer',
      target: id,
      payload: { color },
      base: harness.base(id),
    });
  }
}

describe('what an update merges against', () => {
  it('while a slow customers list is on its way, changes go with a GET each, then on the list', async () => {
    h = await Harness.start({ customers: MANY, engine: SLOW_LIST });
    const ids = h.serverCustomers().map((c) => c.id);
    // Saving a colour a customer already has sends nothing.
    const changing = h.serverCustomers().filter((c) => c.color !== 'purple').length;
    await colourAll(h, ids, 'purple');
    const counts = watch(h);
    const list = h.service.hold('GET', /^\/api\/v1\/customers$/);
    const sync = h.engine.syncNow();
    // The list is held: the changes do not wait for it.
    await until(() => counts.updateCustomer >= 3, 'three changes sent while the list is held');
    // Each with the service's record of its own customer, read just before.
    expect(counts.getCustomer).toBeGreaterThanOrEqual(counts.updateCustomer);
    list.release();
    await sync;
    expect(h.outbox.list()).toEqual([]);
    for (const id of ids) expect(h.service.store.customer(USER, id)?.color).toBe('purple');
    // Once the list came, no more GETs by id (one may have been on its way as it came).
    expect(counts.getCustomer).toBeLessThan(changing);
    expect(counts.updateCustomer).toBe(changing);
  });

  it(`never merges against a list started more than ${MAX_BASE_AGE_MS / 1000} s before`, async () => {
    const clock = new FakeClock();
    h = await Harness.start({ engine: { clock } });
    const three = h.serverCustomers().slice(0, 3);
    const [first, second, third] = three.map((c) => c.id);
    // A colour none of them has: each change is sent.
    const color = ['teal', 'pink', 'yellow', 'grey'].find((k) =>
      three.every((c) => c.color !== k),
    )!;
    await colourAll(h, [first!, second!, third!], color);
    const harness = h;
    watch(h, {
      listCustomers: async (n) => {
        if (n !== 1) return;
        // The list came; before the changes go, a minute passes and a colleague edits one.
        await clock.advance(MAX_BASE_AGE_MS + 1_000);
        harness.service.store.updateCustomerDirect(USER, second!, { phone: '555-0199' });
      },
    });
    await h.engine.syncNow();
    const after = h.service.store.customer(USER, second!);
    expect(after?.color).toBe(color);
    // Merged against what the service held then, not the minute-old list: the colleague's phone stays.
    expect(after?.phone).toBe('555-0199');
  });

  it('a list that began before a change of this push was answered never undoes that change', async () => {
    h = await Harness.start({ customers: MANY, engine: SLOW_LIST });
    const ids = h.serverCustomers().map((c) => c.id);
    const target = ids[0]!;
    await colourAll(h, ids, 'orange');
    const harness = h;
    // The list is answered with what the service held when it arrived, and held there.
    const list = h.service.hold('GET', /^\/api\/v1\/customers$/, 'after-commit');
    let listed: () => void = () => undefined;
    const listDone = new Promise<void>((r) => (listed = r));
    const counts = watch(h, {
      listCustomers: () => listed(),
      updateCustomer: async (n) => {
        if (n !== 1) return;
        await list.arrived;
        // The rep edits the customer just sent, and the list (older than that send) arrives.
        await harness.outbox.enqueue({
          kind: 'updateCustomer',
          target,
          payload: { notes: 'after the colour' },
          base: harness.base(target),
        });
        list.release();
        await listDone;
      },
    });
    await h.drain();
    expect(counts.listCustomers).toBeGreaterThanOrEqual(1);
    const after = h.service.store.customer(USER, target);
    expect(after?.notes).toBe('after the colour');
    expect(after?.color).toBe('orange');
  });

  it('a bulk change of one town in a large account goes with a search, not a list per round', async () => {
    // A few thousand customers whose list took 10 s last time: the GETs of 50 changes (17 s at
    // 3/s) would pay for a list, but one search for their town costs a fraction of it.
    h = await Harness.start({ customers: 3_000, engine: SLOW_LIST });
    await h.engine.syncNow();
    const byTown = new Map<string, string[]>();
    for (const c of h.serverCustomers()) {
      if (c.color === 'purple') continue;
      byTown.set(c.city, [...(byTown.get(c.city) ?? []), c.id]);
    }
    const town = [...byTown.values()].sort((a, b) => b.length - a.length)[0]!;
    expect(town.length).toBeGreaterThanOrEqual(50);
    const ids = town.slice(0, 50);
    // The lasso queues them as one batch, each with the record the rep saw.
    await colourBatch(h, ids, 'purple');
    // Colleagues meanwhile: one changes a phone, another moves a customer to another town (a
    // search for the old town no longer finds it).
    const [phoned, moved] = [ids[10]!, ids[30]!];
    h.service.store.updateCustomerDirect(USER, phoned, { phone: '555-0142' });
    h.service.store.updateCustomerDirect(USER, moved, { city: 'Elsewhere' });
    h.service.resetStats();
    const counts = watch(h);
    await h.engine.syncNow();
    expect(h.outbox.list()).toEqual([]);
    // One customers list: the pull after the batch.
    expect(counts.listCustomers + counts.readCustomers).toBe(1);
    // About one request per change: a PUT each, and a few reads for all of them.
    expect(h.service.customerPuts()).toEqual(Object.fromEntries(ids.map((id) => [id, 1])));
    expect(counts.searchCustomers + counts.getCustomer).toBeLessThanOrEqual(3);
    for (const id of ids) expect(h.service.store.customer(USER, id)?.color).toBe('purple');
    expect(h.service.store.customer(USER, phoned)?.phone).toBe('555-0142');
    expect(h.service.store.customer(USER, moved)?.city).toBe('Elsewhere');
  });

  it('asks for the next search of the town before the last grows too old: no change waits', async () => {
    const clock = new FakeClock();
    h = await Harness.start({ customers: 3_000, engine: { clock, ...SLOW_LIST } });
    await h.engine.syncNow();
    const byTown = new Map<string, string[]>();
    for (const c of h.serverCustomers()) {
      if (c.color === 'purple') continue;
      byTown.set(c.city, [...(byTown.get(c.city) ?? []), c.id]);
    }
    const ids = [...byTown.values()].sort((a, b) => b.length - a.length)[0]!.slice(0, 40);
    await colourBatch(h, ids, 'purple');
    // What happened, in order: each search asked, and the minute passing in two steps.
    const said: string[] = [];
    const counts = watch(h, {
      updateCustomer: async (n) => {
        // Near the end of the first search's life, then past it.
        const step = { 5: ['58.5 s', MAX_BASE_AGE_MS - 1_500], 15: ['61 s', 2_500] } as const;
        const at = step[n as keyof typeof step];
        if (!at) return;
        said.push(at[0]);
        await clock.advance(at[1]);
      },
    });
    const client = h.client as unknown as { searchCustomers: (...a: unknown[]) => unknown };
    const search = client.searchCustomers.bind(h.client);
    client.searchCustomers = (...args) => (said.push('search'), search(...args));
    await h.engine.syncNow();
    expect(h.outbox.list()).toEqual([]);
    for (const id of ids) expect(h.service.store.customer(USER, id)?.color).toBe('purple');
    // The second search was asked while the first still served: not once it was too old, when
    // every change would have waited for it.
    expect(said.slice(0, 4)).toEqual(['search', '58.5 s', 'search', '61 s']);
    expect(counts.searchCustomers).toBe(2);
  });
});
