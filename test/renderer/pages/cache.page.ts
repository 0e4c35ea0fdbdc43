// Browser side of the cache tests and the renderer-cache bench: scenarios that run the real
// CustomerCache on Chromium's IndexedDB and return plain results for Node to assert on.
import { liveQuery, type DBCore, type Middleware } from 'dexie';
import type { EventOf, Op } from '../../../src-shared';
import { CustomerCache } from '../../../src-renderer/src/cache/customer-cache';
import { databaseNameFor, openDatabase } from '../../../src-renderer/src/cache/schema';
import { PieceInbox } from '../../../src-renderer/src/cache/piece-save';
import { splitEvent } from '../../../src-shared/data-pieces';
import { makeCustomers, makePlaces, makeTerms, makeUser } from './fixtures';
import { benchScenarios } from './bench.page';
import { nearbyScenarios } from './nearby-bench.page';
import { upgradeScenarios } from './cache-upgrade.page';
import { overlayScenarios } from './overlay-replace.page';

type Snapshot = EventOf<'data:snapshot'>;

export function snapshotOf(accountKey: string, n: number, seed: number, prefix = ''): Snapshot {
  return {
    accountKey,
    pulledAt: 1_700_000_000_000 + seed,
    user: makeUser(),
    customers: makeCustomers(n, seed, prefix),
    routes: makePlaces('route', 3),
    territories: makePlaces('territory', 2),
  };
}

/** A delta of customers upserted only, named after no base pull (applied over whatever is held). */
export function customersDeltaOf(
  accountKey: string,
  upserted: Snapshot['customers'],
): EventOf<'data:delta'> {
  const none = { upserted: [], deleted: [] };
  return {
    accountKey,
    pulledAt: 1_700_000_000_100,
    base: null,
    present: null,
    user: null,
    customers: { upserted, deleted: [] },
    routes: none,
    territories: none,
  };
}

const TEMP = 'tmp_00000000-0000-4000-8000-000000000001';
const TEMP_ROUTE = 'tmp_00000000-0000-4000-8000-000000000002';

function op(
  seq: number,
  fields: Partial<Op> & Pick<Op, 'kind' | 'target' | 'payload' | 'base'>,
): Op {
  return {
    opId: `op${seq}`,
    accountKey: 'acct',
    createdAt: 1_700_000_000_000 + seq,
    attempts: 0,
    lastError: null,
    state: 'pending',
    ...fields,
  } as Op;
}

/** Ops that touch c1 (update), c2 (delete), a new customer and a new route through c1 and it. */
function sampleOps(): Op[] {
  const fields = { ...makeCustomers(1, 99)[0]! } as Record<string, unknown>;
  for (const k of ['id', 'createdAt', 'updatedAt']) delete fields[k];
  return [
    op(1, { kind: 'updateCustomer', target: 'c1', payload: { name: 'Local name' }, base: null }),
    op(2, { kind: 'deleteCustomer', target: 'c2', payload: null, base: null }),
    op(3, {
      kind: 'createCustomer',
      target: TEMP,
      payload: { ...fields, name: 'New local', latitude: 10, longitude: 20 },
      base: null,
    } as Op),
    op(4, {
      kind: 'createRoute',
      target: TEMP_ROUTE,
      payload: { routeName: 'Local route', customerIds: ['c1', TEMP] },
      base: null,
    }),
  ];
}

/** Counts read-write transactions: each cache write must be exactly one. */
function countingMiddleware(counter: { rw: number }): Middleware<DBCore> {
  return {
    stack: 'dbcore',
    name: 'count-rw',
    create: (down) => ({
      ...down,
      transaction: (stores, mode, options) => {
        if (mode === 'readwrite') counter.rw++;
        return down.transaction(stores, mode, options);
      },
    }),
  };
}

type Summary = {
  count: number;
  prefixes: string[];
  c1: string | null;
  c2: boolean;
  temp: boolean;
  route: string[] | null;
  pending: number;
};

async function withCache<T>(
  accountKey: string,
  run: (cache: CustomerCache, counter: { rw: number }) => Promise<T>,
): Promise<T> {
  const counter = { rw: 0 };
  const db = openDatabase(await databaseNameFor(accountKey));
  db.use(countingMiddleware(counter));
  const cache = new CustomerCache(accountKey, db);
  try {
    return await run(cache, counter);
  } finally {
    cache.close();
  }
}

const scenarios = {
  /** Snapshot, ops, a second snapshot and a delta, observed by a liveQuery over every table. */
  async atomicity(): Promise<{ emissions: Summary[]; rwPerWrite: number[] }> {
    const key = `atomicity-${Math.random()}`;
    return withCache(key, async (cache, counter) => {
      const { db } = cache;
      const emissions: Summary[] = [];
      const sub = liveQuery(() =>
        db.transaction('r', db.customers, db.routes, db.pending, async (): Promise<Summary> => {
          const all = await db.customers.toArray();
          const route = await db.routes.get(TEMP_ROUTE);
          return {
            count: all.length,
            prefixes: [
              ...new Set(
                all
                  .filter((c) => /^c\d+$/.test(c.id) && c.id !== 'c1')
                  .map((c) => c.name.slice(0, 2)),
              ),
            ].sort(),
            c1: all.find((c) => c.id === 'c1')?.name ?? null,
            c2: all.some((c) => c.id === 'c2'),
            temp: all.some((c) => c.id === TEMP),
            route: route ? route.points : null,
            pending: await db.pending.count(),
          };
        }),
      ).subscribe((s) => emissions.push(s));
      const rwPerWrite: number[] = [];
      // Waits until the liveQuery has shown the written state, so each is observed; the test's
      // own bound is the only one (a 5 s limit here let a busy machine skip an observation).
      const settled = async (done: (s: Summary) => boolean) => {
        while (!(emissions.length > 0 && done(emissions.at(-1)!)))
          await new Promise((r) => setTimeout(r, 50));
      };
      const step = async (write: () => Promise<unknown>, done: (s: Summary) => boolean) => {
        const before = counter.rw;
        await write();
        rwPerWrite.push(counter.rw - before);
        await settled(done);
      };
      await settled(() => true);
      await step(
        () => cache.applySnapshot(snapshotOf(key, 2000, 1, 'A:')),
        (s) => s.count === 2000,
      );
      await step(
        () => cache.setPendingOps(sampleOps()),
        (s) => s.pending === 4,
      );
      await step(
        () => cache.applySnapshot(snapshotOf(key, 3000, 2, 'B:')),
        (s) => s.prefixes[0] === 'B:',
      );
      const upserted = makeCustomers(3000, 3, 'D:');
      await step(
        () =>
          cache.applyDelta({
            accountKey: key,
            pulledAt: 2,
            user: null,
            customers: { upserted, deleted: [] },
            routes: { upserted: [], deleted: [] },
            territories: { upserted: [], deleted: [] },
          }),
        (s) => s.prefixes[0] === 'D:',
      );
      sub.unsubscribe();
      await db.delete();
      return { emissions, rwPerWrite };
    });
  },

  /** The overlay after ops, the server record kept as base, and undo when the ops go away. */
  async overlay() {
    const key = `overlay-${Math.random()}`;
    return withCache(key, async (cache) => {
      const { db } = cache;
      await cache.applySnapshot(snapshotOf(key, 50, 5));
      const serverC1 = (await db.customers.get('c1'))!;
      const c1Position = [serverC1.latitude, serverC1.longitude];
      await cache.setPendingOps(sampleOps());
      const c1 = await db.customers.get('c1');
      const base = await cache.serverRecord('c1');
      const created = await db.customers.get(TEMP);
      const route = await db.routes.get(TEMP_ROUTE);
      const afterOps = {
        c1Name: c1?.name,
        c1Pending: c1?._pending,
        c1Fields: c1?._pendingFields,
        baseName: base?.name,
        serverName: serverC1.name,
        c2: (await db.customers.get('c2')) !== undefined,
        createdName: created?.name,
        createdPending: created?._pending,
        routePoints: route?.points,
        expectedFirstPoint: `${c1Position[0]},${c1Position[1]}`,
        count: await db.customers.count(),
      };
      await cache.setPendingOps([]);
      const afterClear = {
        c1Name: (await db.customers.get('c1'))?.name,
        c1Pending: (await db.customers.get('c1'))?._pending ?? null,
        c2: (await db.customers.get('c2')) !== undefined,
        temp: (await db.customers.get(TEMP)) !== undefined,
        route: (await db.routes.get(TEMP_ROUTE)) !== undefined,
        count: await db.customers.count(),
        server: await db.server.count(),
      };
      await db.delete();
      return { afterOps, afterClear };
    });
  },

  /** A delta that changes a customer the rep edited: server fields update, the rep's edit stays on top. */
  async deltaUnderEdit() {
    const key = `delta-${Math.random()}`;
    return withCache(key, async (cache) => {
      const { db } = cache;
      await cache.applySnapshot(snapshotOf(key, 20, 6));
      await cache.setPendingOps(sampleOps());
      const c1 = { ...(await cache.serverRecord('c1'))!, city: 'Server city', name: 'Server name' };
      await cache.applyDelta({
        accountKey: key,
        pulledAt: 3,
        user: null,
        customers: { upserted: [c1], deleted: ['c3'] },
        routes: { upserted: [], deleted: ['r0'] },
        territories: { upserted: [], deleted: [] },
      });
      const shown = await db.customers.get('c1');
      const base = await cache.serverRecord('c1');
      const result = {
        shownName: shown?.name,
        shownCity: shown?.city,
        baseName: base?.name,
        c3: (await db.customers.get('c3')) !== undefined,
        r0: (await db.routes.get('r0')) !== undefined,
        lastSync: await cache.lastSync(),
      };
      await db.delete();
      return result;
    });
  },

  /**
   * A delta applies only over the pull it follows (`base`), in pieces as main sends it; one
   * diffed against prints read back after a restart names every id the service has
   * (`present`), and the cache drops its other server records, queued work kept on top.
   */
  async deltaBase() {
    const key = `base-${Math.random()}`;
    return withCache(key, async (cache) => {
      const { db } = cache;
      const snap = snapshotOf(key, 20, 8);
      await cache.applySnapshot(snap);
      // An acknowledged create the saved prints never knew of, since deleted on the service.
      const made = { ...makeCustomers(1, 9, 'M:')[0]!, id: 'made' };
      await cache.setPendingOps(sampleOps(), { upserted: [made], deleted: [] });
      const c5 = { ...(await cache.serverRecord('c5'))!, name: 'Renamed' };
      const apply = async (base: number, present: EventOf<'data:delta'>['present']) => {
        const delta: EventOf<'data:delta'> = {
          accountKey: key,
          pulledAt: snap.pulledAt + 1,
          base,
          present,
          user: null,
          customers: { upserted: [c5], deleted: [] },
          routes: { upserted: [], deleted: [] },
          territories: { upserted: [], deleted: [] },
        };
        const pieces = splitEvent(`s-${base}`, 'data:delta', delta, 5, true)!;
        const inbox = new PieceInbox(pieces[0]!);
        for (const piece of pieces.slice(1)) inbox.push(piece);
        return cache.applyPieces(pieces[0]!, inbox).then(
          () => null,
          (error: unknown) => String(error),
        );
      };
      const look = async () => ({
        c5: (await db.customers.get('c5'))?.name ?? null,
        c0: (await db.customers.get('c0')) !== undefined,
        made: (await db.customers.get('made')) !== undefined,
        temp: (await db.customers.get(TEMP)) !== undefined,
        c1: (await db.customers.get('c1'))?.name ?? null,
        lastSync: await cache.lastSync(),
      });
      const wrong = await apply(snap.pulledAt - 1, null);
      const afterWrong = await look();
      const ids = snap.customers.map((c) => c.id).filter((id) => id !== 'c0');
      const right = await apply(snap.pulledAt, {
        customers: ids,
        routes: snap.routes.map((r) => r.id),
        territories: snap.territories.map((t) => t.id),
      });
      const after = await look();
      await db.delete();
      return { pulledAt: snap.pulledAt, wrong, afterWrong, right, after };
    });
  },

  /** ids:resolved rewrites the temp id in the records and in the queued ops. */
  async resolve() {
    const key = `resolve-${Math.random()}`;
    return withCache(key, async (cache) => {
      const { db } = cache;
      await cache.applySnapshot(snapshotOf(key, 20, 7));
      const ops = sampleOps();
      ops.push(
        op(5, { kind: 'updateCustomer', target: TEMP, payload: { city: 'Later' }, base: null }),
      );
      await cache.setPendingOps(ops);
      await cache.resolveId('customer', TEMP, 'SRV0000001');
      const pending = await db.pending.toArray();
      const resolved = await db.customers.get('SRV0000001');
      const result = {
        temp: (await db.customers.get(TEMP)) !== undefined,
        resolvedName: resolved?.name,
        resolvedCity: resolved?.city,
        targets: pending.map((p) => p.target),
        routeIds: pending.flatMap((p) => (p.kind === 'createRoute' ? p.payload.customerIds : [])),
        byTarget: pending.filter((p) => p.target === 'SRV0000001').length,
      };
      await db.delete();
      return result;
    });
  },

  /**
   * Applies main's events in the order main sent them (as the app controller does) and, after
   * each, lists the ids of customers named `name`: a create must never vanish from the list.
   */
  async replay(events: Array<{ event: string; payload: unknown }>, name: string) {
    const key = (events.find((e) => e.event === 'data:snapshot')?.payload as Snapshot).accountKey;
    return withCache(key, async (cache) => {
      const seen: Array<{ event: string; ids: string[] }> = [];
      for (const { event, payload } of events) {
        if (event === 'data:snapshot') await cache.applySnapshot(payload as Snapshot);
        else if (event === 'data:delta') await cache.applyDelta(payload as EventOf<'data:delta'>);
        else if (event === 'outbox:changed')
          await cache.setPendingOps((payload as EventOf<'outbox:changed'>).ops);
        else if (event === 'ids:resolved') {
          const p = payload as EventOf<'ids:resolved'>;
          await cache.resolveId(p.kind, p.tempId, p.id);
        } else continue;
        const rows = await cache.db.customers.filter((c) => c.name === name).toArray();
        seen.push({ event, ids: rows.map((r) => r.id) });
      }
      await cache.db.delete();
      return seen;
    });
  },

  async persistWrite(accountKey: string, n: number) {
    const cache = await CustomerCache.open(accountKey);
    await cache.applySnapshot(snapshotOf(accountKey, n, 9));
    await cache.setPendingOps(sampleOps());
    cache.close();
    return databaseNameFor(accountKey);
  },

  async persistRead(accountKey: string) {
    const cache = await CustomerCache.open(accountKey);
    const result = {
      count: await cache.db.customers.count(),
      c1: (await cache.db.customers.get('c1'))?.name,
      pending: await cache.db.pending.count(),
      lastSync: await cache.lastSync(),
      databases: (await indexedDB.databases()).map((d) => d.name),
    };
    cache.close();
    return result;
  },

  terms(n: number, seed: number) {
    return makeTerms(makeCustomers(5000, 11), n, seed);
  },

  ...benchScenarios,
  ...nearbyScenarios,
  ...upgradeScenarios({ snapshotOf, sampleOps }),
  ...overlayScenarios(snapshotOf),
};

export type Scenarios = typeof scenarios;
(globalThis as unknown as { scenarios: Scenarios }).scenarios = scenarios;
document.documentElement.setAttribute('data-ready', '');
