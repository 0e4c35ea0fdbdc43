// What one push works with: the account's ports, the durable sync state, and the server data
// fetched once per round (one list GET instead of one GET per update).
import type { Customer, Route } from '../../../src-shared/domain';
import type { Acknowledged, Op } from '../../../src-shared/outbox-types';
import type { ConflictLog } from './conflict-log';
import type { Clock, EmitEvent, OutboxPort, RequestPriority, ServiceApi } from '../ports';
import type { SyncLedger } from './creates/ledger';
import { OutboxError } from '../outbox/errors';

export interface PushContext {
  accountKey: string;
  api: ServiceApi;
  outbox: OutboxPort;
  ledger: SyncLedger;
  conflicts: ConflictLog;
  clock: Clock;
  emit: EmitEvent;
  priority: RequestPriority;
  /**
   * How long after a create was sent the service may still commit it (a slow server answering
   * after the client gave up). Only a list started this long after the send proves it absent.
   */
  absenceGraceMs: number;
  /** Called after every request, for progress. */
  step(): void;
  /** The service acknowledged these (an op is about to be done): main's pulled copy takes them. */
  acknowledged(change: Acknowledged): void;
}

/** Server lists of one round, fetched at most once each, on first use. */
export class RoundData {
  readonly #ctx: PushContext;
  #customers: Promise<Map<string, Customer>> | null = null;
  #routes: Promise<Route[]> | null = null;
  /** When each list's request started: what it can prove absent depends on it. */
  customersStartedAt = 0;
  routesStartedAt = 0;

  constructor(ctx: PushContext) {
    this.#ctx = ctx;
  }

  get hasCustomers(): boolean {
    return this.#customers !== null;
  }

  customers(): Promise<Map<string, Customer>> {
    if (!this.#customers) this.customersStartedAt = this.#ctx.clock.now();
    this.#customers ??= this.#ctx.api
      .listCustomers({ priority: this.#ctx.priority })
      .then((list) => new Map(list.map((c) => [c.id, c])))
      .finally(() => this.#ctx.step());
    return this.#customers;
  }

  routes(): Promise<Route[]> {
    if (!this.#routes) this.routesStartedAt = this.#ctx.clock.now();
    this.#routes ??= this.#ctx.api
      .listRoutes({ priority: this.#ctx.priority })
      .finally(() => this.#ctx.step());
    return this.#routes;
  }
}

/**
 * A create that may exist on the service under an id not applied yet: in flight, recorded as
 * sent, or sent once (sentAt) without proof that this send created nothing. It is reconciled,
 * never resent, until a list proves it absent. Flagged ops wait for the rep.
 */
export function isOutstandingCreate(ctx: PushContext, op: Op): boolean {
  if (op.kind !== 'createCustomer' && op.kind !== 'createRoute') return false;
  if (op.state === 'needs-attention') return false;
  return (
    op.state === 'in-flight' ||
    ctx.ledger.wasSent(op.opId) ||
    (op.sentAt != null && !ctx.ledger.isCleared(op.opId, op.sentAt))
  );
}

/** When a list must have started to prove the op's last send created nothing (null: any list). */
export function absenceProvableAt(ctx: PushContext, op: Op): number | null {
  if (op.sentAt == null || ctx.ledger.isCleared(op.opId, op.sentAt)) return null;
  return ctx.ledger.answeredAt(op.opId, op.sentAt) ?? op.sentAt + ctx.absenceGraceMs;
}

/** True when a list started at `listStartedAt` not showing the op proves it absent. */
export function provesAbsent(ctx: PushContext, op: Op, listStartedAt: number): boolean {
  const at = absenceProvableAt(ctx, op);
  return at === null || listStartedAt >= at;
}

/**
 * Marks an op in flight right before its request and returns it as it is then: edits the rep
 * queued while the engine fetched what it needed are sent with it, later ones queue behind it.
 * Null when the op went meanwhile (discarded, or a create deleted before it was sent).
 */
export async function claim(ctx: PushContext, opId: string): Promise<Op | null> {
  try {
    return await ctx.outbox.markInFlight(opId, ctx.clock.now());
  } catch (e) {
    if (e instanceof OutboxError && e.info.kind === 'InvalidRequest') return null;
    throw e;
  }
}
