// The overlay: the rep's queued ops applied on top of server data in the cache, so every view
// shows what the rep did even before the service has it. Always called inside the caller's
// read-write transaction; `undoOverlay` restores pure server data from the `server` table.
import {
  formatPoint,
  positionOf,
  type Customer,
  type Op,
  type Timestamp,
} from '../../../src-shared';
import type { CustomerRow, FieldmapDb, PendingRow, RouteRow, ServerRow } from './schema';

/** Ops that still change what the rep sees (a done op's result comes as server data). */
function liveOps(ops: PendingRow[]): PendingRow[] {
  return ops.filter((op) => op.state !== 'done').sort((a, b) => a.seq - b.seq);
}

function timestampOf(ms: number): Timestamp {
  const iso = new Date(ms).toISOString();
  return { date: `${iso.slice(0, 10)} ${iso.slice(11, 19)}`, timezone_type: 3, timezone: 'UTC' };
}

function stripMarkers(row: CustomerRow): Customer {
  const { _pending: _p, _pendingFields: _f, ...server } = row;
  return server;
}

/** Restores the server version of every record the overlay touched, and drops pending routes. */
export async function undoOverlay(db: FieldmapDb): Promise<void> {
  const originals = await db.server.toArray();
  if (originals.length > 0) {
    await db.customers.bulkDelete(originals.filter((o) => o.record === null).map((o) => o.id));
    await db.customers.bulkPut(originals.flatMap((o) => (o.record ? [o.record] : [])));
    await db.server.clear();
  }
  const pendingRoutes = await db.routes.filter((r) => r._pending === 1).primaryKeys();
  await db.routes.bulkDelete(pendingRoutes);
}

/**
 * Applies the mirrored ops on top of pure server data (call `undoOverlay` first if needed).
 * False when no op was live: nothing was changed.
 */
export async function applyOverlay(db: FieldmapDb): Promise<boolean> {
  const ops = liveOps(await db.pending.toArray());
  await applyOps(db, ops);
  return ops.length > 0;
}

/**
 * One customer op on `working` (a row, or null once deleted locally): the overlay's rule, shared
 * with the page's rows saved ahead of the cache (saved-ahead.svelte.ts). `touch` is told of the
 * customer before its row changes.
 */
export function applyCustomerOp(
  working: Map<string, CustomerRow | null>,
  op: Extract<Op, { kind: 'createCustomer' | 'updateCustomer' | 'deleteCustomer' }>,
  touch: (id: string) => void = () => {},
): void {
  switch (op.kind) {
    case 'createCustomer': {
      touch(op.target);
      const stamp = timestampOf(op.createdAt);
      working.set(op.target, {
        ...op.payload,
        id: op.target,
        createdAt: stamp,
        updatedAt: stamp,
        _pending: 1,
        _pendingFields: Object.keys(op.payload),
      });
      return;
    }
    case 'updateCustomer': {
      const row = working.get(op.target);
      if (!row) return; // gone on the server or deleted locally: nothing to show
      touch(op.target);
      const fields = new Set([...(row._pendingFields ?? []), ...Object.keys(op.payload)]);
      working.set(op.target, { ...row, ...op.payload, _pending: 1, _pendingFields: [...fields] });
      return;
    }
    case 'deleteCustomer': {
      if (!working.get(op.target)) return;
      touch(op.target);
      working.set(op.target, null);
      return;
    }
  }
}

/**
 * Applies `ops` (live, in queue order) on top of pure server data of the customers they touch.
 * Every customer an op of `ops` reads or writes must be pure server data here.
 */
async function applyOps(db: FieldmapDb, ops: PendingRow[]): Promise<void> {
  if (ops.length === 0) return;

  const customerTargets = new Set<string>();
  for (const op of ops) {
    if (op.kind !== 'createRoute' && op.kind !== 'updateCustomFields')
      customerTargets.add(op.target);
    if (op.kind === 'createRoute') for (const id of op.payload.customerIds) customerTargets.add(id);
  }
  const ids = [...customerTargets];
  const found = await db.customers.bulkGet(ids);
  // Working copies: a row, or null once deleted locally.
  const working = new Map<string, CustomerRow | null>();
  ids.forEach((id, i) => {
    const row = found[i];
    if (row) working.set(id, row);
  });
  const originals = new Map<string, ServerRow>();
  const remember = (id: string) => {
    if (originals.has(id)) return;
    const row = working.get(id);
    originals.set(id, { id, record: row ? stripMarkers(row) : null });
  };
  const routes: RouteRow[] = [];

  for (const op of ops) {
    switch (op.kind) {
      case 'createCustomer':
      case 'updateCustomer':
      case 'deleteCustomer':
        applyCustomerOp(working, op, remember);
        break;
      case 'createRoute': {
        const stamp = timestampOf(op.createdAt);
        const points = op.payload.customerIds.flatMap((id) => {
          const row = working.get(id);
          const position = row ? positionOf(row) : null;
          return position ? [formatPoint(position)] : [];
        });
        routes.push({
          id: op.target,
          name: op.payload.routeName,
          points,
          createdAt: stamp,
          updatedAt: stamp,
          _pending: 1,
        });
        break;
      }
      case 'updateCustomFields':
        break; // labels of custom fields: shown from server data only
    }
  }

  const put: CustomerRow[] = [];
  const deleted: string[] = [];
  for (const id of originals.keys()) {
    const row = working.get(id);
    if (row) put.push(row);
    else deleted.push(id);
  }
  await db.server.bulkPut([...originals.values()]);
  await db.customers.bulkDelete(deleted);
  await db.customers.bulkPut(put);
  await db.routes.bulkPut(routes);
}

/** Each customer's own live ops, as text in queue order: its overlay changes only with this. */
function opsByCustomer(ops: PendingRow[]): Map<string, string> {
  const texts = new Map<string, string>();
  for (const op of ops) {
    if (op.kind === 'createRoute' || op.kind === 'updateCustomFields') continue;
    const { seq: _seq, ...rest } = op;
    texts.set(op.target, `${texts.get(op.target) ?? ''}${JSON.stringify(rest)}\n`);
  }
  return texts;
}

/**
 * Orders the new mirror: ops kept from the old one keep their seq when the queue only lost ops
 * and gained some at its end (a send, a new batch), so only changed rows are written; any other
 * order numbers them afresh.
 */
function sequence(before: PendingRow[], ops: Op[]): PendingRow[] {
  const seqOf = new Map(before.map((op) => [op.opId, op.seq]));
  let last = -1;
  let added = false;
  for (const op of ops) {
    const seq = seqOf.get(op.opId);
    if (seq === undefined) added = true;
    else if (added || seq <= last) return ops.map((o, i) => ({ ...o, seq: i }));
    else last = seq;
  }
  let next = Math.max(last, ...before.map((op) => op.seq)) + 1;
  return ops.map((op) => ({ ...op, seq: seqOf.get(op.opId) ?? next++ }));
}

/**
 * Replaces the outbox mirror with `ops`; see reviseOverlay. `serverWrite` writes the service's
 * own versions of `serverIds`.
 */
export function replaceOverlay(
  db: FieldmapDb,
  ops: Op[],
  serverIds: readonly string[],
  serverWrite: () => Promise<void>,
): Promise<void> {
  return reviseOverlay(db, (before) => sequence(before, ops), serverIds, serverWrite);
}

/**
 * Replaces the outbox mirror with what `revise` makes of it and re-derives the overlay of only
 * the customers whose queued ops changed, of `serverIds`, and of the stops of pending routes (a
 * route's points come from its stops as the ops before it left them): replaying the whole queue
 * at every change cost a bulk change of thousands a replay of all of it per op sent.
 * `serverWrite` runs on pure server data of those customers, before the overlay returns.
 */
export async function reviseOverlay(
  db: FieldmapDb,
  revise: (before: PendingRow[]) => PendingRow[],
  serverIds: readonly string[],
  serverWrite: () => Promise<void>,
): Promise<void> {
  const before = await db.pending.toArray();
  const rows = revise(before);
  const liveBefore = liveOps(before);
  const live = liveOps(rows);
  const was = opsByCustomer(liveBefore);
  const now = opsByCustomer(live);
  const touched = new Set(serverIds);
  for (const id of new Set([...was.keys(), ...now.keys()]))
    if (was.get(id) !== now.get(id)) touched.add(id);
  for (const op of [...liveBefore, ...live])
    if (op.kind === 'createRoute') for (const id of op.payload.customerIds) touched.add(id);

  const ids = [...touched];
  const originals = (await db.server.bulkGet(ids)).filter((o): o is ServerRow => o !== undefined);
  await db.customers.bulkDelete(originals.filter((o) => o.record === null).map((o) => o.id));
  await db.customers.bulkPut(originals.flatMap((o) => (o.record ? [o.record] : [])));
  await db.server.bulkDelete(originals.map((o) => o.id));
  await db.routes.bulkDelete(await db.routes.filter((r) => r._pending === 1).primaryKeys());
  await serverWrite();

  const kept = new Map(before.map((op) => [op.opId, JSON.stringify(op)]));
  const changed = rows.filter((op) => kept.get(op.opId) !== JSON.stringify(op));
  const gone = new Set(before.map((op) => op.opId));
  for (const op of rows) gone.delete(op.opId);
  await db.pending.bulkDelete([...gone]);
  await db.pending.bulkPut(changed);
  // Every route's stops are touched, so its op goes with theirs.
  await applyOps(
    db,
    live.filter((op) => op.kind === 'createRoute' || touched.has(op.target)),
  );
}
