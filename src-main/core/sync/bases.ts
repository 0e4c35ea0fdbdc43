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
/** Lists quicker than this are fetched ahead of need. */
const PREFETCH_UNDER_MS = 10_000;

interface List {
  byId: ReadonlyMap<string, Customer>;
  startedAt: number;
}

export class UpdateBases {
  readonly #ctx: PushContext;
  readonly #listThreshold: number;
  readonly #ratePerSecond: number;
  #list: List | null = null;
  #fetching: Promise<void> | null = null;
  #failed = false;
  /** How long a customers list takes to arrive here (the last one measured). */
  #latencyMs: number;
  /** What this push's own requests left on the service, and when each was answered. */
  readonly #own = new Map<string, { record: Customer | null; at: number }>();
  readonly #stop = new AbortController();

  constructor(
    ctx: PushContext,
    options: { listThreshold: number; latencyMs: number; ratePerSecond: number },
  ) {
    this.#ctx = ctx;
    this.#listThreshold = options.listThreshold;
    this.#latencyMs = options.latencyMs;
    // Unlimited (0): a GET costs no wait, only the list's own time decides.
    this.#ratePerSecond = options.ratePerSecond > 0 ? options.ratePerSecond : Infinity;
  }

  /**
   * The service's record for an update of `id` (undefined: the service has none). `left`: the
   * updates still to send in this push, this one included (few: a GET each beats a list).
   */
  async record(id: string, left: number): Promise<Customer | undefined> {
    const now = this.#ctx.clock.now();
    const young = this.#young(now);
    // A list is worth its cost when the GETs it saves would take longer than it takes to come,
    // and when it comes within half its useful life.
    const worth =
      !this.#failed &&
      this.#latencyMs <= MAX_BASE_AGE_MS / 2 &&
      left >= this.#listThreshold &&
      (left * 1000) / this.#ratePerSecond >= this.#latencyMs;
    if (worth && !this.#fetching) {
      // A quick list is fetched ahead, so the next is there when this one grows too old. A slow
      // one is not: read while the changes go, it slows them (main parses it, the service
      // writes it), so the next is fetched only once this one is too old, bridged meanwhile.
      const ahead = this.#latencyMs <= PREFETCH_UNDER_MS ? this.#latencyMs * 1.5 : 0;
      if (!young || now - young.startedAt >= MAX_BASE_AGE_MS - Math.max(ahead, WAIT_FOR_LIST_MS))
        this.#fetch();
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
