// Every change the rep makes goes through here (the editor, routes, custom fields, visits): one
// op to main's outbox per action. Nothing is written to the cache directly: main acknowledges
// the op and mirrors the outbox back ('outbox:changed'), and the cache's overlay shows it, online
// or offline alike. A customer's create, edit, visit or delete shows from main's answer on: the
// page lays it over its rows until it reads the cache's version back (cache/saved-ahead.svelte.ts).
//
// The base rule. An update or delete carries as `base` the record its payload was computed
// against, as the service had it; main's three-way merge (src-main/core/sync/merge.ts) compares
// base, payload and the service's record field by field, and coalescing keeps the first op's base.
// - A form edit (updateCustomer, deleteCustomer) sends only the fields the rep changed, so its
//   base is the server record as last pulled (`cache.serverRecord`, without the overlay): a field
//   someone else changed meanwhile is then seen as theirs, not overwritten.
// - A visit (logVisit) computes counters from what the rep sees (numVisits + 1, the note appended
//   to the shown notes), so its base is the shown record, queued changes applied: a visit logged
//   while an earlier one is in flight merges cleanly once that one landed (src-shared/visits.ts).
// - A record created offline (temp id) has no server record: base null (the service's record is
//   then the base when the create has landed). Creates and custom fields carry base null.
import {
  isTempId,
  toFieldmapError,
  type Customer,
  type CustomerChanges,
  type CustomerFields,
  type CustomFieldsBody,
  type FieldmapApi,
  OUTBOX_BATCH_MAX,
  type NewOp,
  type Op,
} from '../../../../src-shared';
import { visitOp, type TimeUnit, type VisitInput } from '../../../../src-shared/visits';
import type { CustomerCache } from '../../cache/customer-cache';
import type { CustomerRow } from '../../cache/schema';

/**
 * Ops per batch of a bulk action: the most one batch may hold. Each batch is journaled whole or
 * not at all, and the page stays responsive between batches. Every batch makes main send the
 * whole queue back ('outbox:changed'), so fewer, larger batches cost far less for thousands
 * (small batches left the queueing mostly idle, waiting on each round trip).
 */
export const BULK_BATCH = OUTBOX_BATCH_MAX;

/** How far a bulk action got: changes queued so far of all it queues. */
export type BulkProgress = (queued: number, total: number) => void;

/** A new temp id for a record created locally. */
export function newTempId(): string {
  return `tmp_${crypto.randomUUID()}`;
}

/** Where a saved op shows before the cache has it (CustomersState's SavedAhead). */
export interface ShownAhead {
  saved(op: Op): void;
}

/** The server record without the overlay's markers (the `base` an edit carries). */
function baseOf(row: CustomerRow | null): CustomerRow | null {
  if (!row) return null;
  const { _pending: _p, _pendingFields: _f, ...record } = row;
  return record;
}

export class ChangeWriter {
  constructor(
    private readonly api: FieldmapApi,
    private readonly cache: () => CustomerCache | null,
    private readonly ahead: () => ShownAhead | null = () => null,
  ) {}

  async #enqueue(op: Parameters<FieldmapApi['enqueue']>[0]): Promise<Op> {
    // The account's views as they are now: an answer that comes after a switch is not theirs.
    const ahead = this.ahead();
    let queued: Op;
    try {
      queued = await this.api.enqueue(op);
    } catch (error) {
      throw toFieldmapError(error);
    }
    ahead?.saved(queued);
    return queued;
  }

  async #base(id: string): Promise<CustomerRow | null> {
    const cache = this.cache();
    return cache ? baseOf(await cache.serverRecord(id)) : null;
  }

  /** Queues a new customer; returns its temp id. */
  async createCustomer(fields: CustomerFields): Promise<string> {
    const target = newTempId();
    await this.#enqueue({ kind: 'createCustomer', target, payload: fields, base: null });
    return target;
  }

  /** Queues the changed fields of a customer, with the server record the rep edited. */
  async updateCustomer(id: string, changes: CustomerChanges): Promise<void> {
    if (Object.keys(changes).length === 0) return;
    const base = await this.#base(id);
    await this.#enqueue({ kind: 'updateCustomer', target: id, payload: changes, base });
  }

  async deleteCustomer(id: string): Promise<void> {
    const base = await this.#base(id);
    await this.#enqueue({ kind: 'deleteCustomer', target: id, payload: null, base });
  }

  /** Queues a route through the customers in order (temp ids wait for their server ids in main). */
  async createRoute(routeName: string, customerIds: string[]): Promise<string> {
    const target = newTempId();
    await this.#enqueue({
      kind: 'createRoute',
      target,
      payload: { routeName, customerIds },
      base: null,
    });
    return target;
  }

  /** Queues one visit to `shown` (the record as the rep sees it), in the account's time unit. */
  async logVisit(shown: Customer, visit: VisitInput, unit: TimeUnit): Promise<void> {
    await this.#enqueue(visitOp(shown, visit, unit, !isTempId(shown.id)));
  }

  // ---- Bulk actions (the Selection panel): one op per changed customer, queued in batches. ----

  /**
   * Queues `count` ops in batches of BULK_BATCH, each made when its turn comes (`batch` makes
   * those from `from` to `to`) and wholly queued or not at all. Resolves with each op's place in
   * the queue; a failing batch throws a BulkError saying how many were queued.
   */
  async #enqueueBulk(
    count: number,
    batch: (from: number, to: number) => NewOp[] | Promise<NewOp[]>,
    onProgress?: BulkProgress,
  ): Promise<Op[]> {
    const queued: Op[] = [];
    for (let i = 0; i < count; i += BULK_BATCH) {
      try {
        const ops = await batch(i, Math.min(count, i + BULK_BATCH));
        queued.push(...(await this.api.enqueueMany(ops)));
      } catch (error) {
        throw new BulkError(toFieldmapError(error).message, queued);
      }
      onProgress?.(queued.length, count);
    }
    return queued;
  }

  /**
   * Bulk ops that carry each customer's server record as their base, read a batch at a time
   * when the batch's turn comes: one read of every record would hold the UI thread twice, to set
   * up its requests and to take their results.
   */
  #enqueueBased(
    ids: readonly string[],
    make: (id: string, base: CustomerRow | null, index: number) => NewOp,
    onProgress?: BulkProgress,
  ): Promise<Op[]> {
    return this.#enqueueBulk(
      ids.length,
      async (from, to) => {
        const slice = ids.slice(from, to);
        const bases = await this.#basesOf(slice);
        return slice.map((id, i) => make(id, bases[i] ?? null, from + i));
      },
      onProgress,
    );
  }

  async #basesOf(ids: readonly string[]): Promise<Array<CustomerRow | null>> {
    const cache = this.cache();
    if (!cache) return ids.map(() => null);
    return (await cache.serverRecords(ids)).map(baseOf);
  }

  #updateMany(
    changes: Array<{ id: string; payload: CustomerChanges }>,
    onProgress?: BulkProgress,
  ): Promise<Op[]> {
    return this.#enqueueBased(
      changes.map((c) => c.id),
      (id, base, i): NewOp => ({
        kind: 'updateCustomer',
        target: id,
        payload: changes[i]!.payload,
        base,
      }),
      onProgress,
    );
  }

  /** The new colour on every shown customer not already that colour. */
  setColorMany(
    shown: readonly Customer[],
    color: string,
    onProgress?: BulkProgress,
  ): Promise<Op[]> {
    const changed = shown.filter((c) => c.color !== color);
    return this.#updateMany(
      changed.map((c) => ({ id: c.id, payload: { color } })),
      onProgress,
    );
  }

  /** Adds `group` to (or removes it from) every shown customer it changes. */
  setGroupMany(
    shown: readonly Customer[],
    group: string,
    member: boolean,
    onProgress?: BulkProgress,
  ): Promise<Op[]> {
    const changed = shown.filter((c) => c.groups.includes(group) !== member);
    return this.#updateMany(
      changed.map((c) => ({
        id: c.id,
        payload: {
          groups: member ? [...c.groups, group] : c.groups.filter((g) => g !== group),
        },
      })),
      onProgress,
    );
  }

  /** One visit to each shown customer: the same op the visit dialog queues for one. */
  logVisitMany(
    shown: readonly Customer[],
    visit: VisitInput,
    unit: TimeUnit,
    onProgress?: BulkProgress,
  ): Promise<Op[]> {
    const ops = shown.map((c) => visitOp(c, visit, unit, !isTempId(c.id)));
    return this.#enqueueBulk(ops.length, (from, to) => ops.slice(from, to), onProgress);
  }

  deleteMany(ids: readonly string[], onProgress?: BulkProgress): Promise<Op[]> {
    return this.#enqueueBased(
      ids,
      (id, base): NewOp => ({ kind: 'deleteCustomer', target: id, payload: null, base }),
      onProgress,
    );
  }

  async updateCustomFields(body: CustomFieldsBody): Promise<void> {
    await this.#enqueue({ kind: 'updateCustomFields', target: 'user', payload: body, base: null });
  }
}

/** A bulk action stopped by a failing batch: `queued` holds the ops of the batches before it. */
export class BulkError extends Error {
  constructor(
    message: string,
    readonly queued: Op[],
  ) {
    super(message);
  }
}
