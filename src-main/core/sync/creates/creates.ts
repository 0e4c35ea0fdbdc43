// Creates of customers and routes: send, then find the server id (from the answer's message
// when GET confirms it, else by matching one list GET), and apply it everywhere in one step.
// A create whose outcome is unknown is never resent before a list proves it absent, and only a
// list started at least the absence grace after the send can (a slow server commits late), or
// after the service answered the send with an error. Records are recognised in the service's
// own form (match.ts); records that only resemble the create are shown to the rep, who decides.
import type { Customer } from '../../../../src-shared/domain';
import type { Op } from '../../../../src-shared/outbox-types';
import { normaliseFields } from '../merge';
import { ambiguousCreate, answeredWithError } from './evidence';
import { candidatesFor, resemblance } from './match';
import { matchCreates, matchRoutes } from './reconcile';
import { extractIdCandidates } from '../../service/id-candidates';
import {
  absenceProvableAt,
  claim,
  isOutstandingCreate,
  provesAbsent,
  type PushContext,
  type RoundData,
} from '../context';
import { infoOf, isRejected, stopsPush } from '../errors';

type CreateOp = Extract<Op, { kind: 'createCustomer' | 'createRoute' }>;
/** The answer's message (null: no answer) and the id it gave beside the message, if any. */
type Outcome = { op: CreateOp; message: string | null; id?: string };
/** When each kind's list used to settle creates started (0: none fetched). */
type ListedAt = { customers: number; routes: number };
/** Targets of creates that may still appear on the service, with when absence is provable. */
export type Waiting = Map<string, number>;

/** Above this many answers with an id, one list GET is cheaper than a GET per id. */
const CONFIRM_BY_GET_MAX = 2;

/** Applies resolutions the ledger holds but the outbox may not (a crash in between). */
export async function applyLedgerResolutions(ctx: PushContext): Promise<void> {
  for (const op of ctx.outbox.list()) {
    if (op.kind !== 'createCustomer' && op.kind !== 'createRoute') continue;
    const id = ctx.ledger.resolvedId(op.opId);
    if (id !== undefined) await applyResolution(ctx, op, id);
  }
}

/**
 * Announces the server id, then retires the create and rewrites its temp id in one outbox step.
 * In this order the renderer renames the record it shows before the outbox mirror drops the
 * create (the other way round, the record vanished until the next pull).
 */
export async function applyResolution(
  ctx: Pick<PushContext, 'outbox' | 'emit' | 'accountKey'>,
  op: CreateOp,
  id: string,
): Promise<void> {
  const kind = op.kind === 'createCustomer' ? 'customer' : 'route';
  ctx.emit('ids:resolved', { accountKey: ctx.accountKey, kind, tempId: op.target, id });
  if (op.kind === 'createCustomer') await ctx.outbox.resolveCreate(op.opId, id);
  else await ctx.outbox.markDone(op.opId);
}

/**
 * Settles every create whose outcome is unknown against the round's lists: found ones resolve,
 * ones a list started late enough does not show go back to pending, the others keep waiting.
 */
export async function reconcileOutstanding(
  ctx: PushContext,
  data: RoundData,
): Promise<{ resolved: boolean; waiting: Waiting }> {
  const outstanding = ctx.outbox
    .list()
    .filter((op): op is CreateOp => isOutstandingCreate(ctx, op));
  const customers = outstanding.filter((op) => op.kind === 'createCustomer');
  const routes = outstanding.filter((op) => op.kind === 'createRoute');
  const resolved = new Map<string, string>();
  let pool: Customer[] | null = null;
  if (customers.length > 0) {
    const list = [...(await data.customers()).values()];
    // Records the rep was shown stay eligible, even once a later batch knew them.
    const excluded = ctx.ledger.excludedCustomerIds();
    for (const op of customers) {
      for (const c of ctx.ledger.candidates(op.opId) ?? []) excluded.delete(c.id);
    }
    pool = list.filter((c) => !excluded.has(c.id));
    const unresolved = customers.map((op) => ({ key: op.opId, fields: op.payload }));
    for (const [k, id] of matchCreates(unresolved, pool, new Set())) resolved.set(k, id);
  }
  if (routes.length > 0) {
    const list = await data.routes();
    const unresolved = routes.map((op) => ({
      key: op.opId,
      routeName: op.payload.routeName,
      pointCount: op.payload.customerIds.length,
    }));
    for (const [k, id] of matchRoutes(unresolved, list, ctx.ledger.excludedRouteIds())) {
      resolved.set(k, id);
    }
  }
  const listedAt = { customers: data.customersStartedAt, routes: data.routesStartedAt };
  const waiting = await settle(ctx, outstanding, resolved, null, listedAt, pool);
  return { resolved: resolved.size > 0, waiting };
}

/**
 * Records the outcome durably first (so a crash cannot lose a resolution nor resend a create
 * that exists), then applies it. A customer create not resolved goes to the rep with the new
 * records that resemble it when the evidence is ambiguous: the service said it created it, or
 * it was ambiguous before, or a list late enough to prove absence shows look-alikes. Else it
 * is proven absent when the list was started late enough: back to pending. Else it waits
 * (unchanged), returned with when absence becomes provable. `pool`: the new customer records.
 */
async function settle(
  ctx: PushContext,
  ops: CreateOp[],
  resolved: Map<string, string>,
  claimedCreated: Set<string> | null,
  listedAt: ListedAt,
  pool: Customer[] | null,
): Promise<Waiting> {
  const waiting: Waiting = new Map();
  if (ops.length === 0) return waiting;
  const absent = new Map<string, number | null>();
  const flagged: string[] = [];
  const ambiguous = new Map<string, Customer[]>();
  const taken = new Set(resolved.values());
  const unclaimed = (pool ?? []).filter((c) => !taken.has(c.id));
  for (const op of ops) {
    if (resolved.has(op.opId)) continue;
    const startedAt = op.kind === 'createCustomer' ? listedAt.customers : listedAt.routes;
    if (op.kind === 'createCustomer') {
      const candidates = candidatesFor(op.payload, unclaimed);
      const askedBefore = ctx.ledger.candidates(op.opId) !== undefined;
      const absenceProven = provesAbsent(ctx, op, startedAt);
      if (askedBefore || claimedCreated?.has(op.opId) || (absenceProven && candidates.length > 0)) {
        ambiguous.set(op.opId, candidates);
        continue;
      }
      if (absenceProven) absent.set(op.opId, op.sentAt ?? null);
      else waiting.set(op.target, absenceProvableAt(ctx, op) ?? startedAt);
      continue;
    }
    if (claimedCreated?.has(op.opId)) flagged.push(op.opId);
    else if (provesAbsent(ctx, op, startedAt)) absent.set(op.opId, op.sentAt ?? null);
    else waiting.set(op.target, absenceProvableAt(ctx, op) ?? startedAt);
  }
  await ctx.ledger.settle(resolved, absent, flagged, ambiguous);
  for (const op of ops) {
    const id = resolved.get(op.opId);
    if (id !== undefined) {
      await applyResolution(ctx, op, id);
      continue;
    }
    const current = ctx.outbox.get(op.opId);
    if (!current || current.state === 'needs-attention') continue;
    const candidates = ambiguous.get(op.opId);
    if (candidates) {
      await ctx.outbox.markNeedsAttention(op.opId, ambiguousCreate(candidates.length));
    } else if (claimedCreated?.has(op.opId)) {
      // A route the service says it created is done, whether or not we can name its id.
      await ctx.outbox.markDone(op.opId);
    } else if (absent.has(op.opId) && current.state === 'in-flight') {
      await ctx.outbox.markRetryLater(op.opId, current.lastError);
    }
  }
  return waiting;
}

/**
 * Sends creates. Returns the targets that failed transiently (they wait for the next sync) and
 * those whose outcome stays unknown until their absence grace has passed.
 * Throws on failures that stop the whole push (offline, off-network, unauthorised).
 */
export async function sendCreates(
  ctx: PushContext,
  data: RoundData,
  ops: CreateOp[],
): Promise<{ failed: Set<string>; waiting: Waiting }> {
  const failed = new Set<string>();
  let waiting: Waiting = new Map();
  if (ops.length === 0) return { failed, waiting };
  const hasCustomers = ops.some((op) => op.kind === 'createCustomer');
  const hasRoutes = ops.some((op) => op.kind === 'createRoute');
  // Everything that exists before the POSTs is excluded from matching, even after a crash.
  const known = {
    ...(hasCustomers ? { customerIds: (await data.customers()).keys() } : {}),
    ...(hasRoutes ? { routeIds: (await data.routes()).map((r) => r.id) } : {}),
  };
  const live = new Set(ctx.outbox.list().map((op) => op.opId));
  await ctx.ledger.beforeSend(
    known,
    ops.map((op) => op.opId),
    live,
  );

  const outcomes: Outcome[] = [];
  /** Sends the service answered with an error: a list after the answer can prove them absent. */
  const answered = new Map<string, number>();
  for (const planned of ops) {
    // What the outbox holds now is what goes (an edit may have merged into it meanwhile).
    const op = await claim(ctx, planned.opId);
    if (op?.kind !== 'createCustomer' && op?.kind !== 'createRoute') {
      // Deleted or discarded while the round fetched its lists: never sent.
      await ctx.ledger.settle(new Map(), new Map([[planned.opId, null]]));
      ctx.step();
      continue;
    }
    try {
      const answer =
        op.kind === 'createCustomer'
          ? await ctx.api.createCustomer(normaliseFields(op.payload), { priority: ctx.priority })
          : await ctx.api.createRoute(
              { routeName: op.payload.routeName, customerIds: op.payload.customerIds },
              { priority: ctx.priority },
            );
      outcomes.push({ op, message: answer.message, ...(answer.id ? { id: answer.id } : {}) });
    } catch (e) {
      if (isRejected(e) || stopsPush(e)) {
        // The service refused it (4xx) or it never left: certainly not created.
        await ctx.ledger.settle(new Map(), new Map([[op.opId, op.sentAt ?? null]]));
        if (isRejected(e)) await ctx.outbox.markNeedsAttention(op.opId, infoOf(e));
        else await ctx.outbox.markRetryLater(op.opId, infoOf(e));
        // Creates already sent stay in flight: reconciled on the next sync.
        if (stopsPush(e)) throw e;
      } else {
        // Ambiguous, 5xx, 429 after retries: maybe created. It stays in flight (so no edit
        // can coalesce into what was sent) until a list proves it present or absent.
        outcomes.push({ op, message: null });
        if (answeredWithError(e) && op.sentAt != null) answered.set(op.opId, op.sentAt);
      }
    } finally {
      ctx.step();
    }
  }

  try {
    await ctx.ledger.noteAnswered(answered, ctx.clock.now());
    waiting = await resolveOutcomes(ctx, outcomes);
  } catch (e) {
    // The check failed: the creates stay in flight, recorded as sent, reconciled next time.
    for (const o of outcomes) failed.add(o.op.target);
    if (stopsPush(e)) throw e;
  }
  return { failed, waiting };
}

async function resolveOutcomes(ctx: PushContext, outcomes: Outcome[]): Promise<Waiting> {
  if (outcomes.length === 0) return new Map();
  const listedAt: ListedAt = { customers: 0, routes: 0 };
  const claimedCreated = new Set(outcomes.filter((o) => o.message !== null).map((o) => o.op.opId));
  const resolved = new Map<string, string>();
  const excluded = ctx.ledger.excludedCustomerIds();
  const customers = outcomes.filter((o) => o.op.kind === 'createCustomer');
  const routes = outcomes.filter((o) => o.op.kind === 'createRoute');
  /** The customer records nobody knew before the POSTs (when a list was fetched). */
  let pool: Customer[] | null = null;

  if (customers.length > 0) {
    const candidates = customers.map((o) =>
      o.message === null
        ? []
        : [...new Set([...(o.id ? [o.id] : []), ...extractIdCandidates(o.message)])],
    );
    const byGet = customers.length <= CONFIRM_BY_GET_MAX && candidates.every((c) => c.length > 0);
    // After the POSTs: a new list, not the round's (which predates them).
    if (!byGet) listedAt.customers = ctx.clock.now();
    const list = byGet ? null : await ctx.api.listCustomers({ priority: ctx.priority });
    if (list) ctx.step();
    const byId = new Map((list ?? []).map((c) => [c.id, c]));
    for (const [i, o] of customers.entries()) {
      for (const id of candidates[i] ?? []) {
        if (excluded.has(id) || [...resolved.values()].includes(id)) continue;
        const record = list ? byId.get(id) : await confirmById(ctx, id);
        // The strongest evidence: the answer names a record nobody knew before the POST. It
        // is ours when it resembles what was sent (in the service's own form).
        if (record && o.op.kind === 'createCustomer' && resemblance(o.op.payload, record).similar) {
          resolved.set(o.op.opId, id);
          break;
        }
      }
    }
    const rest = customers.filter((o) => !resolved.has(o.op.opId));
    if (rest.length > 0) {
      if (!list) listedAt.customers = ctx.clock.now();
      const all = list ?? (await ctx.api.listCustomers({ priority: ctx.priority }));
      if (!list) ctx.step();
      pool = all.filter((c) => !excluded.has(c.id));
      const unresolved = rest.flatMap((o) =>
        o.op.kind === 'createCustomer' ? [{ key: o.op.opId, fields: o.op.payload }] : [],
      );
      const claimed = new Set(resolved.values());
      for (const [k, id] of matchCreates(unresolved, pool, claimed)) resolved.set(k, id);
    }
  }
  if (routes.length > 0) {
    listedAt.routes = ctx.clock.now();
    const list = await ctx.api.listRoutes({ priority: ctx.priority });
    ctx.step();
    const unresolved = routes.flatMap((o) =>
      o.op.kind === 'createRoute'
        ? [
            {
              key: o.op.opId,
              routeName: o.op.payload.routeName,
              pointCount: o.op.payload.customerIds.length,
            },
          ]
        : [],
    );
    for (const [k, id] of matchRoutes(unresolved, list, ctx.ledger.excludedRouteIds())) {
      resolved.set(k, id);
    }
  }
  return settle(
    ctx,
    outcomes.map((o) => o.op),
    resolved,
    claimedCreated,
    listedAt,
    pool,
  );
}

async function confirmById(ctx: PushContext, id: string): Promise<Customer | undefined> {
  try {
    return await ctx.api.getCustomer(id, { priority: ctx.priority });
  } catch (e) {
    if (stopsPush(e)) throw e;
    return undefined;
  } finally {
    ctx.step();
  }
}
