// The crash test's workload, shared by the child (which performs it) and the parent (which
// predicts its outcome). The parent's model of the queue is written here independently of
// src-main/core/outbox/coalesce.ts, restricted to the workload's patterns, so a divergence of the
// outbox from the documented rules shows up as a hash mismatch.
import { createHash } from 'node:crypto';
import { emptyCustomerFields } from '../../src-shared/domain';
import type { ErrorInfo } from '../../src-shared/errors';
import type { NewOp, Op } from '../../src-shared/outbox-types';
import { serverCustomer, tempId } from './fixtures';

/** Small, so kills also land during compactions. */
export const CRASH_COMPACT_AFTER = 25;

export type Action =
  | { type: 'enqueue'; op: NewOp; opId: string; now: number }
  | { type: 'send'; opId: string; now: number }
  | { type: 'done'; opId: string }
  | { type: 'bounce'; opId: string; error: ErrorInfo }
  | { type: 'resolve'; opId: string; serverId: string }
  | { type: 'discard'; opId: string };

/** The error the outbox puts on a route whose temp customer was dropped (documented text). */
const droppedCustomerError = (tempId: string): ErrorInfo => ({
  kind: 'Rejected',
  message:
    'This route includes a customer that was deleted before it reached the service. Edit the route or discard it.',
  detail: `customer ${tempId} was deleted before it was created on the service`,
});

/** JSON with sorted keys and no undefined: equal ops hash equally whatever their key order. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function hashOp(op: Op | undefined): string {
  return createHash('sha256')
    .update(canonical(op ?? null))
    .digest('hex')
    .slice(0, 16);
}

const pick = <T>(rand: () => number, items: readonly T[]): T | undefined =>
  items[Math.floor(rand() * items.length)];

/**
 * The child's next action given the real queue. `ids` makes unique ids across trials (the same
 * outbox lives through every trial); `nextOpId` is the id the outbox will give a new op.
 */
export function nextAction(
  rand: () => number,
  queue: Op[],
  ids: { fresh(): number; nextOpId: string },
  now: number,
): Action {
  const pending = queue.filter((op) => op.state === 'pending');
  const inFlight = queue.filter((op) => op.state === 'in-flight');
  const creates = queue.filter((op) => op.kind === 'createCustomer');
  const serverTargets = queue.filter(
    (op) => op.kind === 'updateCustomer' && !op.target.startsWith('tmp_'),
  );
  const enqueue = (op: NewOp): Action => ({ type: 'enqueue', op, opId: ids.nextOpId, now });
  const full = queue.length > 60;
  const roll = rand();
  if (roll < (full ? 0.35 : 0.12) && pending.length > 0) {
    return { type: 'send', opId: (pending[0] as Op).opId, now };
  }
  if (roll < (full ? 0.7 : 0.22) && inFlight.length > 0) {
    const op = pick(rand, inFlight) as Op;
    if (op.kind === 'createCustomer' && rand() < 0.5) {
      return { type: 'resolve', opId: op.opId, serverId: `S${ids.fresh()}` };
    }
    if (rand() < 0.8) return { type: 'done', opId: op.opId };
    return {
      type: 'bounce',
      opId: op.opId,
      error: { kind: 'ServerError', message: 'boom', status: 502 },
    };
  }
  if (roll < 0.26 && pending.length > 0) {
    return { type: 'discard', opId: (pick(rand, pending) as Op).opId };
  }
  const text = `v${Math.floor(rand() * 1e9)}`;
  const kind = rand();
  if (kind < 0.06 && creates.length > 0) {
    const through = (pick(rand, creates) as Op).target;
    return enqueue({
      kind: 'createRoute',
      target: tempId(ids.fresh()),
      payload: { routeName: text, customerIds: ['srv0', through] },
      base: null,
    });
  }
  if (kind < 0.25) {
    const n = ids.fresh();
    return enqueue({
      kind: 'createCustomer',
      target: tempId(n),
      payload: { ...emptyCustomerFields(), name: `Customer ${n}`, notes: text },
      base: null,
    });
  }
  if (kind < 0.45) {
    const id = `srv${ids.fresh()}`;
    return enqueue({
      kind: 'updateCustomer',
      target: id,
      payload: { city: text },
      base: serverCustomer(id),
    });
  }
  if (kind < 0.6 && serverTargets.length > 0) {
    const target = (pick(rand, serverTargets) as Op).target;
    return enqueue({
      kind: 'updateCustomer',
      target,
      payload: { phone: text },
      base: serverCustomer(target, text),
    });
  }
  if (kind < 0.75 && creates.length > 0) {
    const target = (pick(rand, creates) as Op).target;
    return enqueue({ kind: 'updateCustomer', target, payload: { city: text }, base: null });
  }
  if (kind < 0.85 && creates.length > 0) {
    const target = (pick(rand, creates) as Op).target;
    return enqueue({ kind: 'deleteCustomer', target, payload: null, base: null });
  }
  return enqueue({
    kind: 'updateCustomFields',
    target: 'user',
    payload: { [`f${Math.floor(rand() * 5)}`]: Math.floor(rand() * 1000) },
    base: null,
  });
}

/** A pending create of `tempId` dropped: its pending ops go, pending routes through it are flagged. */
function withoutCreate(queue: Op[], tempId: string): Op[] {
  return queue
    .filter((o) => !(o.target === tempId && o.state === 'pending'))
    .map((o) =>
      o.kind === 'createRoute' && o.state === 'pending' && o.payload.customerIds.includes(tempId)
        ? { ...o, state: 'needs-attention', lastError: droppedCustomerError(tempId) }
        : o,
    );
}

/** A resolved temp id replaced by its server id in updates, deletes and routes. */
function renamed(queue: Op[], tempId: string, serverId: string): Op[] {
  return queue.map((o) => {
    if ((o.kind === 'updateCustomer' || o.kind === 'deleteCustomer') && o.target === tempId) {
      return { ...o, target: serverId };
    }
    if (o.kind === 'createRoute' && o.payload.customerIds.includes(tempId)) {
      const customerIds = o.payload.customerIds.map((id) => (id === tempId ? serverId : id));
      return { ...o, payload: { ...o.payload, customerIds } };
    }
    return o;
  });
}

export interface ModelResult {
  queue: Op[];
  /** The op an enqueue resolved with (state 'done' when it cancelled out). */
  result?: Op;
}

/** The parent's prediction of the queue after `action` (the documented rules, written again). */
export function applyAction(queue: Op[], action: Action, accountKey: string): ModelResult {
  const next = queue.map((op) => ({ ...op }) as Op);
  const index = (opId: string) => next.findIndex((op) => op.opId === opId);
  switch (action.type) {
    case 'send': {
      const op = next[index(action.opId)] as Op;
      Object.assign(op, { state: 'in-flight', sentAt: action.now, attempts: op.attempts + 1 });
      return { queue: next };
    }
    case 'done':
      next.splice(index(action.opId), 1);
      return { queue: next };
    case 'bounce':
      Object.assign(next[index(action.opId)] as Op, { state: 'pending', lastError: action.error });
      return { queue: next };
    case 'resolve': {
      const tempTarget = (next[index(action.opId)] as Op).target;
      next.splice(index(action.opId), 1);
      return { queue: renamed(next, tempTarget, action.serverId) };
    }
    case 'discard': {
      const op = next[index(action.opId)] as Op;
      if (op.kind === 'createCustomer') return { queue: withoutCreate(next, op.target) };
      next.splice(index(action.opId), 1);
      return { queue: next };
    }
    case 'enqueue':
      break;
  }
  const fresh = {
    ...action.op,
    opId: action.opId,
    accountKey,
    createdAt: action.now,
    attempts: 0,
    lastError: null,
    state: 'pending',
    sentAt: null,
  } as Op;
  const { op } = action;
  const last = [...next].reverse().find((o) => o.target === op.target);
  const lastPending = last?.state === 'pending' ? last : undefined;
  if (op.kind === 'updateCustomer' && lastPending?.kind === 'createCustomer') {
    lastPending.payload = { ...lastPending.payload, ...op.payload } as typeof lastPending.payload;
    return { queue: next, result: lastPending };
  }
  if (op.kind === 'updateCustomer' && lastPending?.kind === 'updateCustomer') {
    lastPending.payload = { ...lastPending.payload, ...op.payload };
    return { queue: next, result: lastPending };
  }
  if (op.kind === 'updateCustomFields' && lastPending?.kind === 'updateCustomFields') {
    lastPending.payload = { ...lastPending.payload, ...op.payload };
    return { queue: next, result: lastPending };
  }
  if (op.kind === 'deleteCustomer') {
    const create = next.find((o) => o.kind === 'createCustomer' && o.target === op.target);
    if (create?.state === 'pending') {
      return { queue: withoutCreate(next, op.target), result: { ...fresh, state: 'done' } };
    }
    if (lastPending?.kind === 'updateCustomer') {
      const merged = {
        ...lastPending,
        kind: 'deleteCustomer',
        payload: null,
        base: op.base ?? lastPending.base,
      } as Op;
      next[index(lastPending.opId)] = merged;
      return { queue: next, result: merged };
    }
  }
  next.push(fresh);
  return { queue: next, result: fresh };
}
