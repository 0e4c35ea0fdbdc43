// CustomerCache: the renderer's local copy of one account (Dexie/IndexedDB). Every write from
// main (snapshot, delta, the outbox mirror, a resolved id) runs in ONE read-write transaction that
// also re-derives the overlay of queued ops, so a liveQuery never observes a half-applied state.
// A large event written while its pieces arrive (applyPieces) is no exception: its transaction
// stays open from the first piece to the last (see piece-save.ts for how, and its deadline).
import type { Acknowledged, EventOf, Op, UserMeta } from '../../../src-shared';
import type { DataPiece } from '../../../src-shared/data-pieces';
import type { Table } from 'dexie';
import { applyOverlay, replaceOverlay, reviseOverlay, undoOverlay } from './overlay';
import { writePieces, type PieceSource } from './piece-save';
import {
  databaseNameFor,
  openDatabase,
  SCHEMA_VERSION,
  type CustomerRow,
  type FieldmapDb,
  type PendingRow,
  type RouteRow,
} from './schema';

type Snapshot = EventOf<'data:snapshot'>;
/** A delta as main sends it; one without a base (an older main's, a test's) is applied as is. */
type Delta = Omit<EventOf<'data:delta'>, 'base' | 'present'> &
  Partial<Pick<EventOf<'data:delta'>, 'base' | 'present'>>;

/** Rows per bulkPut call: big enough to amortise, small enough to keep peak memory flat. */
const CHUNK = 10_000;

/** Reports customers written so far, inside the transaction (nothing is visible before it commits). */
export type SaveProgress = (done: number) => void;

async function putInChunks<T>(
  put: (rows: T[]) => Promise<unknown>,
  rows: T[],
  progress?: SaveProgress,
  before = 0,
): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await put(rows.slice(i, i + CHUNK));
    progress?.(before + Math.min(i + CHUNK, rows.length));
  }
}

export class CustomerCache {
  /** Prefer `open`; this takes a database built with `openDatabase` (tests add middleware first). */
  constructor(
    readonly accountKey: string,
    readonly db: FieldmapDb,
  ) {}

  /** Opens (or creates) the cache of an account. */
  static async open(accountKey: string): Promise<CustomerCache> {
    const db = openDatabase(await databaseNameFor(accountKey));
    await db.open();
    return new CustomerCache(accountKey, db);
  }

  close(): void {
    this.db.close();
  }

  /** Deletes this account's cache (logout). */
  async destroy(): Promise<void> {
    await this.db.delete();
  }

  private get tables() {
    const { customers, server, routes, territories, user, meta, pending } = this.db;
    return [customers, server, routes, territories, user, meta, pending];
  }

  /**
   * `stream`: the snapshot stream the server data now is exactly (its pieces' records), which the
   * page may have kept (snapshot-stage.ts); null for any other change of the server data, which
   * must delete the marker so the page never takes a kept copy for what the cache holds.
   */
  private async writeMeta(pulledAt: number, stream: string | null = null): Promise<void> {
    await this.db.meta.bulkPut([
      { key: 'lastSync', value: pulledAt },
      { key: 'accountKey', value: this.accountKey },
      { key: 'schemaVersion', value: SCHEMA_VERSION },
    ]);
    await this.markSnapshot(stream);
  }

  private async markSnapshot(stream: string | null): Promise<void> {
    if (stream === null) await this.db.meta.delete('snapshotStream');
    else await this.db.meta.put({ key: 'snapshotStream', value: stream });
  }

  private async clearServerData(): Promise<void> {
    await Promise.all([
      this.db.customers.clear(),
      this.db.server.clear(),
      this.db.routes.clear(),
      this.db.territories.clear(),
    ]);
  }

  /** Replaces all server data with a snapshot, then re-applies the queued ops. */
  async applySnapshot(payload: Snapshot, progress?: SaveProgress): Promise<boolean> {
    if (payload.accountKey !== this.accountKey) return false;
    await this.db.transaction('rw', this.tables, async () => {
      await this.clearServerData();
      // Puts into the cleared tables: an id listed twice is saved once, its last copy winning,
      // as main keeps the pull by id (pull.ts) and a streamed snapshot saves it (piece-save.ts).
      await putInChunks((rows) => this.db.customers.bulkPut(rows), payload.customers, progress);
      await this.db.routes.bulkPut(payload.routes);
      await this.db.territories.bulkPut(payload.territories);
      await this.db.user.put({ key: 'user', value: payload.user });
      await this.writeMeta(payload.pulledAt);
      await applyOverlay(this.db);
    });
    return true;
  }

  /**
   * What a delta does before its records, in its transaction. A delta is the difference from one
   * pull (`base`): over any other it would leave records as they were, so it throws and the
   * transaction aborts, the cache keeping what it holds (the worker reports the stream unsaved
   * and the page opens a new road, on which main sends the snapshot). Then the overlay is undone,
   * and the server records the service no longer has are dropped (`present`: a delta from the
   * prints main read back after a restart).
   */
  private async beginDelta(base: unknown, present: Delta['present'] | undefined): Promise<void> {
    if (typeof base === 'number') {
      const held = await this.lastSync();
      if (held !== base)
        throw new Error(`a delta from the pull of ${base} reached a cache holding ${String(held)}`);
    }
    await undoOverlay(this.db);
    if (!present) return;
    for (const key of ['customers', 'routes', 'territories'] as const) {
      const table = this.db.table(key) as Table<unknown, string>;
      const ids: unknown = present[key];
      if (!Array.isArray(ids)) throw new Error(`a delta's present ${key} is not a list`);
      const keep = new Set(ids);
      const held = await table.toCollection().primaryKeys();
      const gone = held.filter((id) => !keep.has(id));
      if (gone.length > 0) await table.bulkDelete(gone);
    }
  }

  /** Applies a delta to the server data, then re-applies the queued ops. */
  async applyDelta(payload: Delta, progress?: SaveProgress): Promise<boolean> {
    if (payload.accountKey !== this.accountKey) return false;
    await this.db.transaction('rw', this.tables, async () => {
      await this.beginDelta(payload.base, payload.present);
      const { customers, routes, territories } = payload;
      await this.db.customers.bulkDelete(customers.deleted);
      const deleted = customers.deleted.length;
      progress?.(deleted);
      await putInChunks(
        (rows) => this.db.customers.bulkPut(rows),
        customers.upserted,
        progress,
        deleted,
      );
      await this.db.routes.bulkDelete(routes.deleted);
      await this.db.routes.bulkPut(routes.upserted);
      await this.db.territories.bulkDelete(territories.deleted);
      await this.db.territories.bulkPut(territories.upserted);
      if (payload.user) await this.db.user.put({ key: 'user', value: payload.user });
      await this.writeMeta(payload.pulledAt);
      await applyOverlay(this.db);
    });
    return true;
  }

  /**
   * Applies a snapshot or delta from its pieces as they arrive, in ONE transaction held open from
   * `first` (piece 0, with the head) to the last piece: each piece is written as soon as it is
   * here, so saving overlaps delivery, and nothing is visible before the whole event commits. A
   * piece that does not come within the deadline (or a failed write) aborts the transaction: the
   * cache keeps its previous state. `progress`: customers written (inside the transaction).
   * Resolves false when the event is not this cache's; else with the customers the cache holds
   * after it when that is known without counting them (a snapshot under no queued change), null
   * when it is not.
   */
  async applyPieces(
    first: DataPiece,
    pieces: PieceSource,
    progress?: SaveProgress,
    gapMs?: number,
    onOpen?: () => void,
  ): Promise<false | { customers: number | null }> {
    const head = first.head;
    if (first.accountKey !== this.accountKey || first.index !== 0 || !head) return false;
    const snapshot = first.event === 'data:snapshot';
    let customers: number | null = null;
    await this.db.transaction('rw', this.tables, async () => {
      // The transaction exists: a write started after this call waits for its commit.
      onOpen?.();
      if (snapshot) await this.clearServerData();
      else await this.beginDelta(head['base'], head['present'] as Delta['present'] | undefined);
      const written = await writePieces(this.db, snapshot, first, pieces, progress, gapMs);
      const user = head['user'] as UserMeta | undefined;
      if (user) await this.db.user.put({ key: 'user', value: user });
      await this.writeMeta(head['pulledAt'] as number, snapshot ? first.stream : null);
      // Ops laid over the snapshot may add or remove customers: then the table is counted.
      customers = (await applyOverlay(this.db)) ? null : written;
    });
    return { customers };
  }

  /**
   * Replaces the mirror of the outbox ('outbox:changed') and re-derives the overlay of the
   * customers whose queued ops changed.
   * `acknowledged`: the service's version of what a done op changed, written as server data in
   * this same transaction: the op's overlay goes only as its result arrives, so no view shows the
   * version before it until the next pull.
   */
  async setPendingOps(ops: Op[], acknowledged?: Acknowledged): Promise<void> {
    const serverIds = acknowledged
      ? [...acknowledged.deleted, ...acknowledged.upserted.map((c) => c.id)]
      : [];
    await this.db.transaction('rw', this.tables, () =>
      replaceOverlay(this.db, ops, serverIds, async () => {
        if (!acknowledged) return;
        await this.markSnapshot(null); // the server data is no longer the snapshot's
        await this.db.customers.bulkDelete(acknowledged.deleted);
        await this.db.customers.bulkPut(acknowledged.upserted);
      }),
    );
  }

  /** Rewrites a temp id to its server id everywhere in the cache ('ids:resolved'). */
  async resolveId(kind: 'customer' | 'route', tempId: string, id: string): Promise<void> {
    const rewrite = (op: PendingRow): PendingRow => {
      const target = op.target === tempId ? id : op.target;
      if (op.kind === 'createRoute' && kind === 'customer') {
        const customerIds = op.payload.customerIds.map((c) => (c === tempId ? id : c));
        return { ...op, target, payload: { ...op.payload, customerIds } } as PendingRow;
      }
      return target === op.target ? op : ({ ...op, target } as PendingRow);
    };
    await this.db.transaction('rw', this.tables, async () => {
      const table = kind === 'customer' ? this.db.customers : this.db.routes;
      const created: CustomerRow | RouteRow | undefined = await table.get(tempId);
      const ids = kind === 'customer' ? [tempId, id] : [];
      await reviseOverlay(
        this.db,
        (ops) => ops.map(rewrite),
        ids,
        async () => {
          // The record exists on the service now: keep showing it as server data until a pull has it.
          if (!created || (await table.get(id))) return;
          await this.markSnapshot(null); // the server data is no longer the snapshot's
          const { _pending: _p, ...record } = created as CustomerRow;
          delete (record as CustomerRow)._pendingFields;
          await table.put({ ...record, id } as CustomerRow & RouteRow);
        },
      );
    });
  }

  /** The server record of a customer as last pulled (the `base` of an edit); null if not on the server. */
  async serverRecord(id: string): Promise<CustomerRow | null> {
    return this.db.transaction('r', this.db.customers, this.db.server, async () => {
      const original = await this.db.server.get(id);
      if (original) return original.record;
      return (await this.db.customers.get(id)) ?? null;
    });
  }

  /** serverRecord of many customers in one read (a bulk action's bases), in the order asked. */
  async serverRecords(ids: readonly string[]): Promise<Array<CustomerRow | null>> {
    return this.db.transaction('r', this.db.customers, this.db.server, async () => {
      const originals = await this.db.server.bulkGet([...ids]);
      const shown = await this.db.customers.bulkGet([...ids]);
      return ids.map((_, i) => originals[i]?.record ?? shown[i] ?? null);
    });
  }

  /** Time of the last applied pull, or null when this cache never received data. */
  async lastSync(): Promise<number | null> {
    const row = await this.db.meta.get('lastSync');
    return typeof row?.value === 'number' ? row.value : null;
  }
}
