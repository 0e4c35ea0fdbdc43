// What one push works with: the account's ports, the durable sync state, and the server data
// fetched once per round (one list GET instead of one GET per update).
import type { Customer, Route } from '../../src-shared/domain';
import type { Op } from '../../src-shared/outbox-types';
import type { ConflictLog } from './conflict-log';
import type { Clock, EmitEvent, OutboxPort, RequestPriority, ServiceApi } from './ports';
import type { SyncLedger } from './sync-ledger';
import { OutboxError } from './outbox-errors';

export interface PushContext {
  accountKey: string;
  api: ServiceApi;
  outbox: OutboxPort;
  ledger: SyncLedger;
  conflicts: ConflictLog;
  clock: Clock;
  emit: EmitEvent;
  priority: RequestPriority;
  /** Called after every request, for progress. */
  step(): void;
}

/** Server lists of one round, fetched at most once each, on first use. */
export class RoundData {
  readonly #ctx: PushContext;
  #customers: Promise<Map<string, Customer>> | null = null;
  #routes: Promise<Route[]> | null = null;

  constructor(ctx: PushContext) {
    this.#ctx = ctx;
  }

  get hasCustomers(): boolean {
    return this.#customers !== null;
  }

  customers(): Promise<Map<string, Customer>> {
    this.#customers ??= this.#ctx.api
      .listCustomers({ priority: this.#ctx.priority })
      .then((list) => new Map(list.map((c) => [c.id, c])))
      .finally(() => this.#ctx.step());
    return this.#customers;
  }

  routes(): Promise<Route[]> {
    this.#routes ??= this.#ctx.api
      .listRoutes({ priority: this.#ctx.priority })
      .finally(() => this.#ctx.step());
    return this.#routes;
  }
}

/** A create sent (or about to be re-checked) whose server id is not applied yet. */
export function isOutstandingCreate(ctx: PushContext, op: Op): boolean {
  return (
    (op.kind === 'createCustomer' || op.kind === 'createRoute') &&
    (op.state === 'in-flight' || ctx.ledger.wasSent(op.opId))
  );
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
