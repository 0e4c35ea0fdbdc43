// The overlay: the rep's queued ops applied on top of server data in the cache, so every view
// shows what the rep did even before the service has it. Always called inside the caller's
// read-write transaction; `undoOverlay` restores pure server data from the `server` table.
import { formatPoint, positionOf, type Customer, type Timestamp } from '../../../src-shared';
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

/** Applies the mirrored ops on top of pure server data (call `undoOverlay` first if needed). */
export async function applyOverlay(db: FieldmapDb): Promise<void> {
  const ops = liveOps(await db.pending.toArray());
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
      case 'createCustomer': {
        remember(op.target);
        const stamp = timestampOf(op.createdAt);
        working.set(op.target, {
          ...op.payload,
          id: op.target,
          createdAt: stamp,
          updatedAt: stamp,
          _pending: 1,
          _pendingFields: Object.keys(op.payload),
        });
        break;
      }
      case 'updateCustomer': {
        const row = working.get(op.target);
        if (!row) break; // gone on the server or deleted locally: nothing to show
        remember(op.target);
        const fields = new Set([...(row._pendingFields ?? []), ...Object.keys(op.payload)]);
        working.set(op.target, { ...row, ...op.payload, _pending: 1, _pendingFields: [...fields] });
        break;
      }
      case 'deleteCustomer': {
        if (!working.get(op.target)) break;
        remember(op.target);
        working.set(op.target, null);
        break;
      }
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
