// The push half of a sync: rounds of queued ops, FIFO per target. A round with creates works from
// one customers list GET (the known ids), settles creates whose outcome is unknown, then sends
// what is ready; updates merge against the records UpdateBases finds (bases.ts).
import type { Customer } from '../../../src-shared/domain';
import type { Acknowledged, Op } from '../../../src-shared/outbox-types';
import { UpdateBases } from './bases';
import { threeWayMerge } from './merge';
import {
  applyLedgerResolutions,
  reconcileOutstanding,
  sendCreates,
  type Waiting,
} from './creates/creates';
import { claim, isOutstandingCreate, RoundData, type PushContext } from './context';
import { deletedOnService, infoOf, isNotFound, isRejected, kindOf, stopsPush } from './errors';
import { planRound } from './plan';
import { normaliseCustomer } from './pull';

type CreateOp = Extract<Op, { kind: 'createCustomer' | 'createRoute' }>;
type UpdateOp = Extract<Op, { kind: 'updateCustomer' }>;

export interface PushOptions {
  /** Most ops per round: bounds how old the round's customers list gets (default 150). */
  maxOpsPerRound?: number;
  /** From this many updates queued, one list GET replaces a GET per update (default 3). */
  listThreshold?: number;
  /** How long a customers list took to arrive last time (the last pull's), for UpdateBases. */
  listLatencyMs?: number;
  /** The account's request rate (what a GET by id costs in waiting; 0: unlimited). */
  ratePerSecond?: number;
  /** The account's customers as last pulled: what a search by town would return, in share. */
  known?: () => readonly Customer[] | null | undefined;
  /** Rounds per push, a guard against a loop that makes no progress (default 50). */
  maxRounds?: number;
  /**
   * How long after a create was sent, with no answer, the service may still commit it: only a
   * list started this long after the send proves it absent (default 2 min, well past the
   * client's 30 s timeout; tests set it small).
   */
  absenceGraceMs?: number;
}

export const DEFAULT_ABSENCE_GRACE_MS = 2 * 60_000;

export interface PushResult {
  /** Targets that failed transiently: their ops are pending, to retry later. */
  retryLater: Set<string>;
  /** When the earliest create left unsure can be proven absent (null: none waits). */
  recheckAt: number | null;
}

/** Pushes the outbox. Throws on failures that concern every op (offline, 403, 401). */
export async function push(ctx: PushContext, options: PushOptions = {}): Promise<PushResult> {
  const maxOps = options.maxOpsPerRound ?? 150;
  const listThreshold = options.listThreshold ?? 3;
  const blocked = new Set<string>();
  const waiting: Waiting = new Map();
  await applyLedgerResolutions(ctx);
  const bases = new UpdateBases(ctx, {
    listThreshold,
    latencyMs: options.listLatencyMs ?? 0,
    ratePerSecond: options.ratePerSecond ?? 3,
    ...(options.known && { known: options.known }),
    queuedTowns: () =>
      ctx.outbox
        .list()
        .flatMap((op) =>
          op.kind === 'updateCustomer' && op.state !== 'needs-attention' && op.base
            ? [op.base.city]
            : [],
        ),
  });
  try {
    for (let round = 0; round < (options.maxRounds ?? 50); round++) {
      const progressed = await pushRound(ctx, blocked, waiting, maxOps, bases);
      if (!progressed) break;
    }
  } finally {
    await bases.close();
  }
  // A create that turned up meanwhile is no longer waiting.
  const open = new Set(ctx.outbox.list().map((op) => op.target));
  const times = [...waiting].filter(([t]) => open.has(t)).map(([, at]) => at);
  for (const t of waiting.keys()) blocked.delete(t);
  return { retryLater: blocked, recheckAt: times.length > 0 ? Math.min(...times) : null };
}

/**
 * One round. `waiting` targets (creates whose absence cannot be proven yet) are left out of
 * the plan, like `blocked` ones, but they still take part in every reconciliation: a list
 * becomes the known-ids set of new creates only after every unsure create was matched to it.
 */
async function pushRound(
  ctx: PushContext,
  blocked: Set<string>,
  waiting: Waiting,
  maxOps: number,
  bases: UpdateBases,
): Promise<boolean> {
  const first = planRound(ctx.outbox.list(), blocked, maxOps);
  if (first.size === 0) return false;
  const data = new RoundData(ctx);
  let progressed = false;
  const firstOps = first.runs.flat();
  const isCreate = (op: Op) => op.kind === 'createCustomer' || op.kind === 'createRoute';
  const unsure = (op: Op) => isOutstandingCreate(ctx, op);
  if (firstOps.some(unsure) || (firstOps.some(isCreate) && ctx.outbox.list().some(unsure))) {
    const reconciled = await guard(blocked, firstOps, () => reconcileOutstanding(ctx, data));
    if (!reconciled.ok) return false;
    progressed = reconciled.value.resolved;
    wait(blocked, waiting, reconciled.value.waiting);
  }
  // Resolutions may have freed ops (targets rewritten): plan again from the outbox.
  const plan = planRound(ctx.outbox.list(), blocked, maxOps);
  const ops = plan.runs.flat();
  const creates = ops.filter(
    (op): op is CreateOp =>
      (op.kind === 'createCustomer' || op.kind === 'createRoute') && !isOutstandingCreate(ctx, op),
  );
  if (creates.length > 0) {
    // Fetch before anything is sent: it is the known-ids set (and serves the updates' merges).
    const list = await guard(blocked, ops, () => data.customers());
    if (!list.ok) return progressed;
    bases.offer(list.value, data.customersStartedAt);
  }
  if (creates.length > 0) {
    const sent = await sendCreates(ctx, data, creates);
    for (const t of sent.failed) blocked.add(t);
    wait(blocked, waiting, sent.waiting);
    progressed = true;
  }
  // Updates still to send in this push: the round's and any queued beyond it.
  let left = ctx.outbox.list().filter((op) => op.kind === 'updateCustomer').length;
  await eachAtOnce(plan.runs, TARGETS_AT_ONCE, async (run) => {
    for (const planned of run) {
      if (planned.kind === 'createCustomer' || planned.kind === 'createRoute') continue;
      if (blocked.has(planned.target)) break;
      // The rep may have edited or discarded it meanwhile: send what the outbox holds now.
      const op = ctx.outbox.get(planned.opId);
      if (!op || op.state === 'needs-attention' || op.kind !== planned.kind) break;
      if (op.state === 'in-flight') await ctx.outbox.markRetryLater(op.opId, op.lastError);
      const ok = await sendOne(ctx, op as Exclude<Op, CreateOp>, bases, left, blocked);
      if (op.kind === 'updateCustomer') left -= 1;
      progressed = true;
      if (!ok) break;
    }
  });
  return progressed;
}

/**
 * Customers whose changes go at once: each one's in order, different ones independent. One at a
 * time, a change's own work (its merge, the journal's fsync, the page told) came on top of the
 * service's own pace, and while a large list was read the changes went at a fraction of the
 * rate. The account's limiter keeps the service's rate.
 */
const TARGETS_AT_ONCE = 3;

/**
 * Runs `work` on every item, `width` at a time. After a failure no item starts, the running ones
 * finish (no request is left half-accounted), then the first failure is thrown.
 */
async function eachAtOnce<T>(
  items: readonly T[],
  width: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (failure === null && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  if (failure) throw (failure as { error: unknown }).error;
}

/** Targets whose create is unsure sit out the rest of this push; the engine rechecks later. */
function wait(blocked: Set<string>, waiting: Waiting, found: Waiting): void {
  for (const [target, at] of found) {
    blocked.add(target);
    waiting.set(target, at);
  }
}

/** Runs a round-wide step; a transient failure blocks the round's targets, a fatal one throws. */
async function guard<T>(
  blocked: Set<string>,
  ops: Op[],
  step: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false }> {
  try {
    return { ok: true, value: await step() };
  } catch (e) {
    if (stopsPush(e) || kindOf(e) === 'Internal') throw e;
    for (const op of ops) blocked.add(op.target);
    return { ok: false };
  }
}

/** Sends one update, delete or custom-fields op. False when its target must stop here. */
async function sendOne(
  ctx: PushContext,
  op: Exclude<Op, CreateOp>,
  bases: UpdateBases,
  left: number,
  blocked: Set<string>,
): Promise<boolean> {
  try {
    // An update merges against the server record: found before the op is claimed.
    const server =
      op.kind === 'updateCustomer' ? await bases.record(op.target, left, op.base?.city) : undefined;
    // From here the op is what goes: an edit queued meanwhile coalesced into it (an update
    // may even have become a delete), a later one queues behind it.
    const sent = await claim(ctx, op.opId);
    if (!sent) return false;
    if (sent.kind === 'updateCustomer') return await sendUpdate(ctx, sent, server, bases);
    if (sent.kind === 'deleteCustomer') {
      try {
        await ctx.api.deleteCustomer(sent.target, { priority: ctx.priority });
      } catch (e) {
        // Already gone is what the rep wanted.
        if (!isNotFound(e)) throw e;
      } finally {
        ctx.step();
      }
      bases.sent(sent.target, null);
    } else if (sent.kind === 'updateCustomFields') {
      await ctx.api
        .updateCustomFields(sent.payload, { priority: ctx.priority })
        .finally(() => ctx.step());
    } else {
      return false;
    }
    await done(ctx, sent.opId, sent.kind === 'deleteCustomer' ? deleted(sent.target) : undefined);
    return true;
  } catch (e) {
    return failed(ctx, op, e, blocked);
  }
}

async function failed(ctx: PushContext, op: Op, e: unknown, blocked: Set<string>): Promise<false> {
  const state = ctx.outbox.get(op.opId)?.state;
  if (isRejected(e)) {
    if (state === 'in-flight' || state === 'pending') {
      await ctx.outbox.markNeedsAttention(op.opId, infoOf(e));
    }
    return false;
  }
  if (state === 'in-flight') await ctx.outbox.markRetryLater(op.opId, infoOf(e));
  if (stopsPush(e) || kindOf(e) === 'Internal') throw e;
  blocked.add(op.target);
  return false;
}

/** Merges the rep's edit (claimed: in flight) with the fresh server record and PUTs the complete merged record. */
async function sendUpdate(
  ctx: PushContext,
  op: UpdateOp,
  server: Customer | undefined,
  bases: UpdateBases,
): Promise<boolean> {
  if (!server) {
    await ctx.outbox.markNeedsAttention(op.opId, deletedOnService());
    return false;
  }
  const merge = threeWayMerge(op.base, op.payload, server);
  if (merge.changed) {
    try {
      await ctx.api.updateCustomer(op.target, merge.body, { priority: ctx.priority });
    } catch (e) {
      if (isNotFound(e)) {
        await ctx.outbox.markNeedsAttention(op.opId, deletedOnService());
        return false;
      }
      throw e;
    } finally {
      ctx.step();
    }
  }
  if (merge.conflicts.length > 0) {
    const at = ctx.clock.now();
    await ctx.conflicts.add(
      merge.conflicts.map((c) => ({
        ...c,
        customerId: op.target,
        customerName: merge.body.name,
        at,
      })),
    );
    ctx.emit('conflicts:changed', { accountKey: ctx.accountKey, conflicts: ctx.conflicts.list() });
  }
  // Later ops on the same target in this round merge against what the service now holds.
  const held = { ...server, ...merge.body };
  bases.sent(op.target, held);
  // Its updatedAt is the one before the PUT: the next pull brings the service's own.
  await done(ctx, op.opId, { upserted: [normaliseCustomer(held)], deleted: [] });
  return true;
}

const deleted = (id: string): Acknowledged => ({ upserted: [], deleted: [id] });

/**
 * An op the service has: main's copy of the pulled data and the cache take what the service now
 * holds of its customer in the same step as the op leaves the queue (OutboxPort.markDone).
 */
async function done(ctx: PushContext, opId: string, acknowledged?: Acknowledged): Promise<void> {
  if (acknowledged) ctx.acknowledged(acknowledged);
  await ctx.outbox.markDone(opId, acknowledged);
}
