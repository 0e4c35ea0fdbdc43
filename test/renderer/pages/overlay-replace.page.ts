// Browser side of the overlay test: a cache fed random changes of the outbox mirror (sends,
// new batches, retries, reorders, acknowledged versions) through CustomerCache.setPendingOps must
// hold exactly what undoing every overlay and applying the whole mirror again holds.
import type { Acknowledged, Customer, EventOf, Op } from '../../../src-shared';
import { CustomerCache } from '../../../src-renderer/src/cache/customer-cache';
import { applyOverlay, undoOverlay } from '../../../src-renderer/src/cache/overlay';
import {
  databaseNameFor,
  openDatabase,
  type CustomerRow,
  type PendingRow,
  type RouteRow,
} from '../../../src-renderer/src/cache/schema';
import { mulberry32 } from '../../support/prng';
import { makeCustomers } from './fixtures';

type Tables = { customers: unknown[]; server: unknown[]; routes: unknown[]; pending: string[] };

async function tablesOf(cache: CustomerCache): Promise<Tables> {
  const { db } = cache;
  return {
    customers: await db.customers.toArray(),
    server: await db.server.toArray(),
    routes: await db.routes.toArray(),
    pending: (await db.pending.orderBy('seq').toArray()).map(
      (op) => `${op.opId}:${op.state}:${op.target}`,
    ),
  };
}

/** The mirror written the way it was before it was made incremental: undo all, apply all. */
async function rebuild(cache: CustomerCache, ops: Op[], acknowledged?: Acknowledged) {
  const { db } = cache;
  await db.transaction('rw', [db.customers, db.server, db.routes, db.pending], async () => {
    await undoOverlay(db);
    if (acknowledged) {
      await db.customers.bulkDelete(acknowledged.deleted);
      await db.customers.bulkPut(acknowledged.upserted);
    }
    await db.pending.clear();
    await db.pending.bulkPut(ops.map((op, seq): PendingRow => ({ ...op, seq })));
    await applyOverlay(db);
  });
}

/** A temp id resolved the way it was before: undo all, rewrite every op, apply all. */
async function rebuildResolve(
  cache: CustomerCache,
  kind: 'customer' | 'route',
  tempId: string,
  id: string,
) {
  const { db } = cache;
  await db.transaction('rw', [db.customers, db.server, db.routes, db.pending], async () => {
    const table = kind === 'customer' ? db.customers : db.routes;
    const created: CustomerRow | RouteRow | undefined = await table.get(tempId);
    await undoOverlay(db);
    if (created && !(await table.get(id))) {
      const { _pending: _p, ...record } = created as CustomerRow;
      delete (record as CustomerRow)._pendingFields;
      await table.put({ ...record, id } as CustomerRow & RouteRow);
    }
    const rewritten = (await db.pending.toArray()).map((op) => rewrite(op, kind, tempId, id));
    await db.pending.bulkPut(rewritten);
    await applyOverlay(db);
  });
}

/** An op as main tells it once `tempId` is `id`. */
function rewrite<T extends Op>(op: T, kind: 'customer' | 'route', tempId: string, id: string): T {
  const target = op.target === tempId ? id : op.target;
  if (op.kind === 'createRoute' && kind === 'customer') {
    const customerIds = op.payload.customerIds.map((c) => (c === tempId ? id : c));
    return { ...op, target, payload: { ...op.payload, customerIds } };
  }
  return { ...op, target };
}

async function open(key: string): Promise<CustomerCache> {
  const db = openDatabase(await databaseNameFor(key));
  await db.open();
  return new CustomerCache(key, db);
}

export function overlayScenarios(
  snapshotOf: (key: string, n: number, seed: number) => EventOf<'data:snapshot'>,
) {
  return {
    /**
     * `steps` random changes of the mirror over `n` customers; the first step whose tables differ
     * from the rebuilt cache's is returned with both (null when none does).
     */
    async overlayMatchesRebuild(seed: number, n: number, steps: number) {
      const r = mulberry32(seed);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
      const tag = `${seed}-${Math.random()}`;
      const mine = await open(`overlay-mine-${tag}`);
      const ref = await open(`overlay-ref-${tag}`);
      try {
        const snapshot = snapshotOf('acct', n, seed);
        await mine.applySnapshot({ ...snapshot, accountKey: mine.accountKey });
        await ref.applySnapshot({ ...snapshot, accountKey: ref.accountKey });
        const ids = snapshot.customers.map((c) => c.id);
        const created: string[] = [];
        let ops: Op[] = [];
        let next = 0;
        const newOp = (): Op => {
          const k = next++;
          const meta = {
            opId: `op${k}`,
            accountKey: 'acct',
            createdAt: 1_700_000_000_000 + k,
            attempts: 0,
            lastError: null,
            state: 'pending',
            base: null,
          };
          const roll = r();
          const target = pick([...ids, ...created]);
          if (roll < 0.45)
            return { ...meta, kind: 'updateCustomer', target, payload: { name: `N${k}` } } as Op;
          if (roll < 0.55) return { ...meta, kind: 'deleteCustomer', target, payload: null } as Op;
          if (roll < 0.7) {
            const { id: _id, createdAt: _c, updatedAt: _u, ...fields } = makeCustomers(1, k)[0]!;
            const id = `tmp_${k}`;
            created.push(id);
            return { ...meta, kind: 'createCustomer', target: id, payload: fields } as Op;
          }
          if (roll < 0.8) {
            const stops = [pick(ids), pick([...ids, ...created]), pick(ids)];
            const payload = { routeName: `R${k}`, customerIds: stops };
            return { ...meta, kind: 'createRoute', target: `tmp_route_${k}`, payload } as Op;
          }
          return { ...meta, kind: 'updateCustomer', target, payload: { color: `c${k % 5}` } } as Op;
        };
        const compare = async (step: number) => {
          const [got, want] = [await tablesOf(mine), await tablesOf(ref)];
          return JSON.stringify(got) === JSON.stringify(want) ? null : { step, got, want };
        };
        for (let step = 0; step < steps; step++) {
          let acknowledged: Acknowledged | undefined;
          const roll = r();
          if (roll < 0.35 || ops.length === 0) {
            // A batch queued: several at the end.
            ops = [...ops, ...Array.from({ length: 1 + Math.floor(r() * 20) }, newOp)];
          } else if (roll < 0.7) {
            // Sent: the head leaves, often with the service's version of what it changed.
            const [head, ...rest] = ops;
            ops = rest;
            if (r() < 0.7 && head && head.kind !== 'createRoute') {
              const id = head.kind === 'createCustomer' ? `srv_${head.opId}` : head.target;
              const record: Customer = { ...makeCustomers(1, next + step)[0]!, id };
              acknowledged =
                head.kind === 'deleteCustomer'
                  ? { upserted: [], deleted: [id] }
                  : { upserted: [record], deleted: [] };
              // Sometimes with another customer's version too, whatever the queue holds for it.
              if (r() < 0.3) {
                const other = pick(ids);
                acknowledged.upserted.push({ ...makeCustomers(1, next + step + 1)[0]!, id: other });
              }
            }
          } else if (roll < 0.8) {
            // Sending, failed or done: a state changes in place.
            const i = Math.floor(r() * ops.length);
            const state = pick(['sending', 'failed', 'done', 'pending'] as const);
            ops = ops.map((op, j) => (j === i ? ({ ...op, state } as Op) : op));
          } else if (roll < 0.9) {
            // A create reached the service: its temp id becomes the service's everywhere.
            const create = ops.findLast(
              (o) =>
                (o.kind === 'createCustomer' || o.kind === 'createRoute') &&
                o.target.startsWith('tmp_'),
            );
            if (create) {
              const kind = create.kind === 'createRoute' ? 'route' : 'customer';
              const id = `srv_${create.opId}`;
              await mine.resolveId(kind, create.target, id);
              await rebuildResolve(ref, kind, create.target, id);
              const differs = await compare(step);
              if (differs) return differs;
              ops = ops.map((o) => rewrite(o, kind, create.target, id));
              if (kind === 'customer') ids.push(id);
            }
          } else if (roll < 0.95) {
            // Retried at the end, or put back in another order.
            const i = Math.floor(r() * ops.length);
            ops = [...ops.slice(0, i), ...ops.slice(i + 1), ops[i]!];
          } else {
            // Discarded from the middle, with a new one queued.
            const i = Math.floor(r() * ops.length);
            ops = [...ops.slice(0, i), ...ops.slice(i + 1), newOp()];
          }
          await mine.setPendingOps(ops, acknowledged);
          await rebuild(ref, ops, acknowledged);
          const differs = await compare(step);
          if (differs) return differs;
        }
        return null;
      } finally {
        await mine.db.delete();
        await ref.db.delete();
        mine.close();
        ref.close();
      }
    },
  };
}
