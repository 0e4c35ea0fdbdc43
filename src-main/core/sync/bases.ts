// Where an update finds the service's record it merges against: a customers list fetched by this
// push and started at most MAX_BASE_AGE_MS ago, or else a GET of that one record. A list costs one
// request however many updates it serves, but at 100k it takes seconds to arrive, so with many
// updates queued the next list is fetched while the current one still serves, and a slow first
// list is waited out with a GET per record rather than idly: the changes go at the service's rate.
import type { Customer } from '../../../src-shared/domain';
import type { PushContext } from './context';
import { isNotFound } from './errors';

/** The oldest server data an update may be merged against (when its list's request started). */
export const MAX_BASE_AGE_MS = 60_000;
/** A list expected sooner than this is waited for; a slower one is bridged with GETs by id. */
const WAIT_FOR_LIST_MS = 2_000;

interface List {
  byId: ReadonlyMap<string, Customer>;
  startedAt: number;
}

export class UpdateBases {
  readonly #ctx: PushContext;
  readonly #listThreshold: number;
  #list: List | null = null;
  #fetching: Promise<void> | null = null;
  #failed = false;
  /** How long a customers list takes to arrive here (the last one measured). */
  #latencyMs: number;
  /** What this push's own requests left on the service, and when each was answered. */
  readonly #own = new Map<string, { record: Customer | null; at: number }>();
  readonly #stop = new AbortController();

  constructor(ctx: PushContext, listThreshold: number, latencyMs: number) {
    this.#ctx = ctx;
    this.#listThreshold = listThreshold;
    this.#latencyMs = latencyMs;
  }

  /**
   * The service's record for an update of `id` (undefined: the service has none). `left`: the
   * updates still to send in this push, this one included (few: a GET each beats a list).
   */
  async record(id: string, left: number): Promise<Customer | undefined> {
    const now = this.#ctx.clock.now();
    const young = this.#young(now);
    // A list that takes over half its useful life to come is not worth its cost to the service.
    const worth = this.#latencyMs <= MAX_BASE_AGE_MS / 2 && !this.#failed;
    if (left >= this.#listThreshold && worth && !this.#fetching) {
      // Fetched ahead, so the next list is there when this one grows too old.
      const ahead = Math.max(this.#latencyMs * 1.5, WAIT_FOR_LIST_MS);
      if (!young || now - young.startedAt >= MAX_BASE_AGE_MS - ahead) this.#fetch();
    }
    if (!young && this.#fetching && this.#latencyMs < WAIT_FOR_LIST_MS) await this.#fetching;
    const list = this.#young(this.#ctx.clock.now());
    if (list) return this.#lookup(list, id);
    return this.#get(id);
  }

  /** A list the round fetched anyway (for its creates): newer data serves updates too. */
  offer(byId: ReadonlyMap<string, Customer>, startedAt: number): void {
    if (!this.#list || startedAt > this.#list.startedAt) this.#list = { byId, startedAt };
  }

  /** The service answered this push's update (its merged record) or delete (null) of `id`. */
  sent(id: string, record: Customer | null): void {
    this.#own.set(id, { record, at: this.#ctx.clock.now() });
  }

  /** The push is over: a list still on its way is not wanted. */
  async close(): Promise<void> {
    this.#stop.abort();
    await this.#fetching;
  }

  #young(now: number): List | null {
    const list = this.#list;
    return list && now - list.startedAt <= MAX_BASE_AGE_MS ? list : null;
  }

  #lookup(list: List, id: string): Customer | undefined {
    // A request of ours answered after the list began is newer than what the list says.
    const own = this.#own.get(id);
    if (own && own.at >= list.startedAt) return own.record ?? undefined;
    return list.byId.get(id);
  }

  #fetch(): void {
    const ctx = this.#ctx;
    const startedAt = ctx.clock.now();
    this.#fetching = ctx.api
      .listCustomers({ priority: ctx.priority, signal: this.#stop.signal })
      .then(
        (list) => {
          this.#latencyMs = ctx.clock.now() - startedAt;
          this.offer(new Map(list.map((c) => [c.id, c])), startedAt);
        },
        // Updates go on with a GET each; a failure that concerns them all surfaces there.
        () => void (this.#failed = true),
      )
      .finally(() => {
        this.#fetching = null;
        if (!this.#stop.signal.aborted) ctx.step();
      });
  }

  async #get(id: string): Promise<Customer | undefined> {
    try {
      return await this.#ctx.api.getCustomer(id, { priority: this.#ctx.priority });
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    } finally {
      this.#ctx.step();
    }
  }
}
