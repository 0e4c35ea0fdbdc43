// The cache's Dexie database: one per account, with a versioned schema. To change the schema,
// add a `db.version(N + 1).stores({...}).upgrade(...)` step in `declareVersions`; never edit a
// published version, so a cache written by an older app upgrades in place.
import { Dexie, type EntityTable } from 'dexie';
import type { Customer, Op, Route, Territory, UserMeta } from '../../../src-shared';
import { keyedPuts } from './keyed-puts';

/** A customer row: the shown record (server data with the overlay of queued ops applied). */
export type CustomerRow = Customer & {
  /** 1 when a queued op changed or created this record. */
  _pending?: 1;
  /** The fields a queued update changed (for "pending" marks in the detail panel). */
  _pendingFields?: string[];
};

/** A route row; `_pending` marks a route created locally and not yet on the service. */
export type RouteRow = Route & { _pending?: 1 };

/** The server's version of a customer the overlay touched (null: created locally, no server record). */
export type ServerRow = { id: string; record: Customer | null };

export type MetaRow = {
  /**
   * 'plan': the week's pool of customers; 'week-plan': the Plan the week form (home, office,
   * hours); 'snapshotStream': the stream whose snapshot the server data is, untouched since
   * (snapshot-stage.ts; any other change of the server data deletes it).
   */
  key: 'lastSync' | 'schemaVersion' | 'accountKey' | 'plan' | 'week-plan' | 'snapshotStream';
  value: unknown;
};
export type UserRow = { key: 'user'; value: UserMeta };
/** A mirrored outbox op, with its position in the outbox so the overlay replays in order. */
export type PendingRow = Op & { seq: number };

export type FieldmapDb = Dexie & {
  customers: EntityTable<CustomerRow, 'id'>;
  server: EntityTable<ServerRow, 'id'>;
  routes: EntityTable<RouteRow, 'id'>;
  territories: EntityTable<Territory, 'id'>;
  user: EntityTable<UserRow, 'key'>;
  meta: EntityTable<MetaRow, 'key'>;
  pending: EntityTable<PendingRow, 'opId'>;
};

/** The newest schema version this build writes. */
export const SCHEMA_VERSION = 3;

/** Every schema version, oldest first. */
export function declareVersions(db: Dexie, upTo: number = SCHEMA_VERSION): void {
  if (upTo >= 1) {
    db.version(1).stores({
      customers: 'id, name, company, address, city, state, zip, country, color, *groups',
      server: 'id',
      routes: 'id',
      territories: 'id',
      user: 'key',
      meta: 'key',
      pending: 'opId, seq',
    });
  }
  if (upTo >= 2) {
    // v2: ops are looked up by target when a temp id resolves.
    db.version(2)
      .stores({ pending: 'opId, seq, target' })
      .upgrade(async (tx) => {
        await tx.table('meta').put({ key: 'schemaVersion', value: 2 });
      });
  }
  if (upTo >= 3) {
    // v3: a table keeps only the indices a query uses; every other index made each write of
    // 100k customers pay for B-trees nothing reads (search, filters and sorts run in memory).
    // Kept, with the query that uses each:
    // - every primary key (`id`, `key`, `opId`): get/bulkGet/bulkPut/bulkDelete by id.
    // - `pending.seq`: `orderBy('seq')` in app/account-data.svelte.ts (the outbox in its order).
    // Dropped: customers' name, company, address, city, state, zip, country, color and *groups
    // (no where/orderBy uses them), and pending.target (resolveId rewrites every op it holds).
    // Dropping an index rewrites no row, so the step is quick even for a large cache.
    db.version(3)
      .stores({ customers: 'id', pending: 'opId, seq' })
      .upgrade(async (tx) => {
        await tx.table('meta').put({ key: 'schemaVersion', value: 3 });
      });
  }
  // Version 4 goes here: `if (upTo >= 4) db.version(4).stores({...}).upgrade(...)`.
}

/** Database name of an account: `fieldmap-<first 16 hex chars of sha256(accountKey)>`. */
export async function databaseNameFor(accountKey: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(accountKey));
  const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
  return `fieldmap-${hex.slice(0, 16)}`;
}

/** Opens (creating or upgrading) the database with the given name. */
export function openDatabase(name: string, upTo: number = SCHEMA_VERSION): FieldmapDb {
  // Result caching of liveQuery keeps a second copy of 100k customers: not worth the memory.
  const db = new Dexie(name, { cache: 'disabled' }) as FieldmapDb;
  db.use(keyedPuts);
  declareVersions(db, upTo);
  return db;
}
