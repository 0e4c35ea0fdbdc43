// How a new op folds into the queue, and what discarding an op drags with it. Pure functions
// over the current entries: they return a change set that the outbox journals as one record.
//
// Only PENDING ops are ever merged or dropped. An op behind an in-flight or needs-attention op on
// the same target queues behind it, so the service sees each target's changes in order.
import { errorInfo } from '../../../src-shared/errors';
import type { Op } from '../../../src-shared/outbox-types';

/** An op and its place in the FIFO (a coalesced op keeps the place of the earliest one). */
export interface Entry {
  pos: number;
  op: Op;
}

/** One durable change of the queue: ops written (new or replaced) and op ids removed. */
export interface ChangeSet {
  put: Entry[];
  del: string[];
}

export interface EnqueuePlan extends ChangeSet {
  /** The op the rep's change now lives in; state 'done' when it cancelled out (create+delete). */
  result: Op;
}

type OpOf<K extends Op['kind']> = Extract<Op, { kind: K }>;

/** The last queued op on `target` (entries are in FIFO order). */
function lastOn(entries: readonly Entry[], target: string): Entry | undefined {
  for (let i = entries.length - 1; i >= 0; i -= 1) {
    const entry = entries[i];
    if (entry && entry.op.target === target) return entry;
  }
  return undefined;
}

/** Drops the keys an optional field left undefined, so a merge never erases a value. */
function defined<T extends object>(changes: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(changes).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}

/**
 * Everything that goes when a customer's pending create is dropped (deleted before it was sent,
 * or discarded): the create, the pending ops on its temp id, and pending routes through it move
 * to needs-attention, since the service could never resolve that customer.
 */
export function dropCreate(entries: readonly Entry[], create: Entry): ChangeSet {
  const tempId = create.op.target;
  const del = [create.op.opId];
  const put: Entry[] = [];
  for (const entry of entries) {
    const { op } = entry;
    if (op.state !== 'pending' || op.opId === create.op.opId) continue;
    if (op.kind === 'createRoute' && op.payload.customerIds.includes(tempId)) {
      const lastError = errorInfo('Rejected', {
        message:
          'This route includes a customer that was deleted before it reached the service. Edit the route or discard it.',
        detail: `customer ${tempId} was deleted before it was created on the service`,
      });
      put.push({ pos: entry.pos, op: { ...op, state: 'needs-attention', lastError } });
    } else if (op.target === tempId) {
      del.push(op.opId);
    }
  }
  return { put, del };
}

/** Folds `op` (new, pending, position `pos`) into the queue per the coalescing rules. */
export function planEnqueue(entries: readonly Entry[], op: Op, pos: number): EnqueuePlan {
  const appended: EnqueuePlan = { put: [{ pos, op }], del: [], result: op };
  switch (op.kind) {
    case 'createCustomer':
      return appended;

    case 'updateCustomer': {
      const last = lastOn(entries, op.target);
      if (!last || last.op.state !== 'pending') return appended;
      const changes = defined(op.payload);
      if (last.op.kind === 'createCustomer') {
        const merged: OpOf<'createCustomer'> = {
          ...last.op,
          payload: { ...last.op.payload, ...changes },
        };
        return { put: [{ pos: last.pos, op: merged }], del: [], result: merged };
      }
      if (last.op.kind === 'updateCustomer') {
        // The first op's base stays: it is the server record the rep started from.
        const merged: OpOf<'updateCustomer'> = {
          ...last.op,
          payload: { ...last.op.payload, ...changes },
        };
        return { put: [{ pos: last.pos, op: merged }], del: [], result: merged };
      }
      return appended;
    }

    case 'deleteCustomer': {
      const create = entries.find(
        (e) => e.op.kind === 'createCustomer' && e.op.target === op.target,
      );
      if (create?.op.state === 'pending') {
        return { ...dropCreate(entries, create), result: { ...op, state: 'done' } };
      }
      const last = lastOn(entries, op.target);
      if (last?.op.state === 'pending' && last.op.kind === 'updateCustomer') {
        const merged: OpOf<'deleteCustomer'> = {
          ...last.op,
          kind: 'deleteCustomer',
          payload: null,
          base: op.base ?? last.op.base,
        };
        return { put: [{ pos: last.pos, op: merged }], del: [], result: merged };
      }
      return appended;
    }

    case 'createRoute':
      return appended;

    case 'updateCustomFields': {
      const last = lastOn(entries, op.target);
      if (last?.op.state === 'pending' && last.op.kind === 'updateCustomFields') {
        const merged: OpOf<'updateCustomFields'> = {
          ...last.op,
          payload: { ...last.op.payload, ...op.payload },
        };
        return { put: [{ pos: last.pos, op: merged }], del: [], result: merged };
      }
      return appended;
    }
  }
}

/** Rewrites `tempId` to `serverId` in update/delete targets and route customer ids. */
export function rewriteTempIdIn(
  entries: readonly Entry[],
  tempId: string,
  serverId: string,
): Entry[] {
  const put: Entry[] = [];
  for (const { pos, op } of entries) {
    if ((op.kind === 'updateCustomer' || op.kind === 'deleteCustomer') && op.target === tempId) {
      put.push({ pos, op: { ...op, target: serverId } });
    } else if (op.kind === 'createRoute' && op.payload.customerIds.includes(tempId)) {
      const customerIds = op.payload.customerIds.map((id) => (id === tempId ? serverId : id));
      put.push({ pos, op: { ...op, payload: { ...op.payload, customerIds } } });
    }
  }
  return put;
}

export interface BatchPlan extends ChangeSet {
  /** Per op of the batch, in order: where it now lives (as planEnqueue's `result`). */
  results: Op[];
  /** Ops of the batch that took a new place in the FIFO (the caller advances its position). */
  appended: number;
}

/**
 * Folds a batch of new ops (pending, positions from `firstPos` on, in order) into the queue as if
 * each were enqueued alone, one after the other, and returns the net change as ONE change set, so
 * the outbox journals the whole batch in one record: after a crash it is wholly there or absent.
 *
 * planEnqueue only reads the ops on the new op's target and the routes (which a dropped create
 * sends to needs-attention), so each op is planned against those alone: a batch of thousands on a
 * queue of thousands stays linear instead of scanning the whole queue per op.
 */
export function planBatch(
  entries: readonly Entry[],
  ops: readonly Op[],
  firstPos: number,
): BatchPlan {
  const current = new Map(entries.map((e) => [e.op.opId, e]));
  const byTarget = new Map<string, Set<string>>();
  const routes = new Set<string>();
  const index = (entry: Entry) => {
    const { opId, target, kind } = entry.op;
    let ids = byTarget.get(target);
    if (!ids) byTarget.set(target, (ids = new Set()));
    ids.add(opId);
    if (kind === 'createRoute') routes.add(opId);
  };
  for (const entry of entries) index(entry);
  const relevant = (target: string): Entry[] => {
    const ids = new Set([...(byTarget.get(target) ?? []), ...routes]);
    return [...ids].map((id) => current.get(id)!).sort((a, b) => a.pos - b.pos);
  };

  const touched = new Set<string>();
  const results: Op[] = [];
  let pos = firstPos;
  for (const op of ops) {
    const plan = planEnqueue(relevant(op.target), op, pos);
    for (const opId of plan.del) {
      const gone = current.get(opId);
      if (!gone) continue;
      current.delete(opId);
      byTarget.get(gone.op.target)?.delete(opId);
      routes.delete(opId);
      touched.add(opId);
    }
    for (const entry of plan.put) {
      current.set(entry.op.opId, entry);
      index(entry);
      touched.add(entry.op.opId);
    }
    if (plan.put.some((e) => e.op.opId === op.opId)) pos += 1;
    results.push(plan.result);
  }
  const original = new Set(entries.map((e) => e.op.opId));
  const put: Entry[] = [];
  const del: string[] = [];
  for (const opId of touched) {
    const entry = current.get(opId);
    if (entry) put.push(entry);
    else if (original.has(opId)) del.push(opId);
  }
  return { put, del, results, appended: pos - firstPos };
}
