// Every change the rep makes goes through here (the editor, routes, custom fields, visits): one
// op to main's outbox per action. Nothing is written to the cache directly: main acknowledges
// the op and mirrors the outbox back ('outbox:changed'), and the cache's overlay shows it at
// once, online or offline alike.
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
  type Op,
} from '../../../../src-shared';
import { visitOp, type TimeUnit, type VisitInput } from '../../../../src-shared/visits';
import type { CustomerCache } from '../../cache/customer-cache';
import type { CustomerRow } from '../../cache/schema';

/** A new temp id for a record created locally. */
export function newTempId(): string {
  return `tmp_${crypto.randomUUID()}`;
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
  ) {}

  async #enqueue(op: Parameters<FieldmapApi['enqueue']>[0]): Promise<Op> {
    try {
      return await this.api.enqueue(op);
    } catch (error) {
      throw toFieldmapError(error);
    }
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

  async updateCustomFields(body: CustomFieldsBody): Promise<void> {
    await this.#enqueue({ kind: 'updateCustomFields', target: 'user', payload: body, base: null });
  }
}
