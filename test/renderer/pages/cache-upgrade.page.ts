// Browser side of the cache upgrade tests: a cache written by an older schema (with server
// data, the overlay of queued ops and the mirrored outbox) opens under the current schema with
// every row intact, the indices no query uses gone, and the cache still working on it.
import type { EventOf, Op } from '../../../src-shared';
import { CustomerCache } from '../../../src-renderer/src/cache/customer-cache';
import { openDatabase, type FieldmapDb } from '../../../src-renderer/src/cache/schema';
import { makeCustomers } from './fixtures';

type Deps = {
  snapshotOf: (accountKey: string, n: number, seed: number) => EventOf<'data:snapshot'>;
  sampleOps: () => Op[];
};

/** Every row of every table, by table name, in primary-key order. */
async function dump(db: FieldmapDb): Promise<Record<string, unknown[]>> {
  const rows: Record<string, unknown[]> = {};
  for (const table of db.tables) {
    if (table.name === 'meta') continue; // schemaVersion changes on purpose
    rows[table.name] = await table.toArray();
  }
  return rows;
}

/** The indices IndexedDB itself holds for each table (not what Dexie declares). */
function indexNames(db: FieldmapDb): Record<string, string[]> {
  const idb = db.backendDB();
  const names = [...idb.objectStoreNames];
  const tx = idb.transaction(names, 'readonly');
  return Object.fromEntries(names.map((n) => [n, [...tx.objectStore(n).indexNames].sort()]));
}

export function upgradeScenarios({ snapshotOf, sampleOps }: Deps) {
  return {
    /** A v1 cache (as an older build wrote it) opens under the current schema with its data. */
    async migrateV1() {
      const name = `fieldmap-migrate-${Math.random().toString(16).slice(2)}`;
      const v1 = openDatabase(name, 1);
      await v1.open();
      await v1.customers.bulkPut(makeCustomers(10, 8));
      await v1.pending.put({ ...sampleOps()[0]!, seq: 0 });
      await v1.meta.put({ key: 'schemaVersion', value: 1 });
      const v1Version = v1.verno;
      const before = await dump(v1);
      v1.close();
      const current = openDatabase(name);
      await current.open();
      const result = {
        v1Version,
        version: current.verno,
        same: JSON.stringify(await dump(current)) === JSON.stringify(before),
        customers: await current.customers.count(),
        pending: await current.pending.count(),
        schemaVersion: (await current.meta.get('schemaVersion'))?.value,
        indices: indexNames(current),
      };
      await current.delete();
      return result;
    },

    /**
     * A cache written by the app at schema `from` (snapshot, then queued ops mirrored and
     * overlaid) opens under the current schema: every row of every table is the same, the
     * overlay still undoes to the server data, and only the indices a query uses remain.
     */
    async upgradeWithPendingOps(from: number) {
      const key = `upgrade-${from}-${Math.random()}`;
      const name = `fieldmap-upgrade-${Math.random().toString(16).slice(2)}`;
      const old = new CustomerCache(key, openDatabase(name, from));
      await old.applySnapshot(snapshotOf(key, 500, 12));
      const serverC1 = (await old.db.customers.get('c1'))!.name;
      await old.setPendingOps(sampleOps());
      await old.db.meta.put({ key: 'schemaVersion', value: from });
      const oldVersion = old.db.verno;
      const oldIndices = indexNames(old.db);
      const before = await dump(old.db);
      old.close();

      const cache = new CustomerCache(key, openDatabase(name));
      await cache.db.open();
      const after = await dump(cache.db);
      const result = {
        oldVersion,
        oldIndices,
        version: cache.db.verno,
        schemaVersion: (await cache.db.meta.get('schemaVersion'))?.value,
        same: JSON.stringify(after) === JSON.stringify(before),
        counts: Object.fromEntries(Object.entries(after).map(([t, rows]) => [t, rows.length])),
        pendingOps: (await cache.db.pending.orderBy('seq').toArray()).map((op) => op.opId),
        c1: (await cache.db.customers.get('c1'))?.name,
        indices: indexNames(cache.db),
        // The upgraded cache keeps working: clearing the ops restores the server record.
        afterClear: await cache.setPendingOps([]).then(async () => ({
          c1: (await cache.db.customers.get('c1'))?.name === serverC1,
          customers: await cache.db.customers.count(),
          server: await cache.db.server.count(),
        })),
      };
      await cache.destroy();
      return result;
    },
  };
}
