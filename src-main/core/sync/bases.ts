// Where an update finds the service's record it merges against: a read of this push started at
// most MAX_BASE_AGE_MS ago, or else a GET of that one record. A read is a customers list (one
// request however many updates it serves, but for a large account a long wait on the service
// and on main, during which the changes crawl) or a search by a town the queued updates share (their bases'
// city): the same fresh records for those customers at a fraction of a large list's cost. A read
// is fetched only when it costs less than the GETs by id it saves; a record a search did not
// return is read by id (absent from a search proves nothing). Slow lists are bridged with GETs.
import type { Customer } from '../../../src-shared/domain';
import { matchesSearch } from '../../../src-shared/search';
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

/** A search of this push: what it returned, once it came (null: on its way, or it failed). */
interface Search {
  list: List | null;
  fetching: Promise<void> | null;
  failed: boolean;
  /** How long it took to come (0 until it came). */
  latencyMs: number;
}

export interface UpdateBasesOptions {
  listThreshold: number;
  latencyMs: number;
  ratePerSecond: number;
  /** The account's customers as last pulled: sizes a search against the whole list. */
  known?: () => readonly Customer[] | null | undefined;
  /** The town (base city) of each update still queued: what one search could serve. */
  queuedTowns?: () => readonly string[];
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
  readonly #known: () => readonly Customer[] | null | undefined;
  readonly #queuedTowns: () => readonly string[];
  readonly #searches = new Map<string, Search>();
  /** Per search term, the next search, asked before the one in use grows too old. */
  readonly #nextSearches = new Map<string, Search>();
  /** Per search term, the share of the account it returns (from the last pull). */
  readonly #shares = new Map<string, number>();

  constructor(ctx: PushContext, options: UpdateBasesOptions) {
    this.#ctx = ctx;
    this.#listThreshold = options.listThreshold;
    this.#latencyMs = options.latencyMs;
    this.#known = options.known ?? (() => null);
    this.#queuedTowns = options.queuedTowns ?? (() => []);
    // Unlimited (0): a GET costs no wait, only the list's own time decides.
    this.#ratePerSecond = options.ratePerSecond > 0 ? options.ratePerSecond : Infinity;
  }

  /**
   * The service's record for an update of `id` (undefined: the service has none). `left`: the
   * updates still to send in this push, this one included (few: a GET each beats a list).
   * `town`: the city of the record the rep edited (the op's base), a search term for its town.
   */
  async record(id: string, left: number, town?: string): Promise<Customer | undefined> {
    const now = this.#ctx.clock.now();
    const young = this.#young(now);
    if (!young) {
      const found = await this.#fromSearch(id, town, now);
      if (found !== 'none') return found ?? this.#get(id);
    }
    // A list is worth its cost when the GETs it saves would take longer than it takes to come,
    // and when it comes within half its useful life. It serves at most the updates that can go
    // in that life: the rest would need the next list.
    const served = Math.min(left, this.#servable());
    const worth =
      !this.#failed &&
      this.#latencyMs <= MAX_BASE_AGE_MS / 2 &&
      left >= this.#listThreshold &&
      (served * 1000) / this.#ratePerSecond >= this.#latencyMs;
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
    const searches = [...this.#searches.values(), ...this.#nextSearches.values()];
    await Promise.all(searches.map((s) => s.fetching));
  }

  /** Updates the service's rate lets go within a read's useful life. */
  #servable(): number {
    return Number.isFinite(this.#ratePerSecond)
      ? Math.floor((MAX_BASE_AGE_MS / 1000) * this.#ratePerSecond)
      : Infinity;
  }

  /**
   * The record from a search for the update's town: 'none' when no search serves it (the list's
   * or a GET's turn), undefined when a search that serves it did not return it (read by id).
   */
  async #fromSearch(
    id: string,
    town: string | undefined,
    now: number,
  ): Promise<Customer | undefined | 'none'> {
    // A term the client would turn into a list (".") or that says nothing.
    const term = town?.trim() ?? '';
    if (term === '' || /^\.{1,2}$/.test(term)) return 'none';
    let search = this.#searches.get(term);
    const fresh = (s: Search) => s.list !== null && now - s.list.startedAt <= MAX_BASE_AGE_MS;
    search = this.#ahead(term, search, now);
    if (!search || (!search.fetching && !search.failed && !fresh(search))) {
      if (!this.#searchWorth(term)) return 'none';
      search = this.#search(term);
      this.#searches.set(term, search);
    }
    if (search.fetching) await search.fetching;
    const list = search.list;
    if (!list || this.#ctx.clock.now() - list.startedAt > MAX_BASE_AGE_MS) return 'none';
    return this.#lookup(list, id);
  }

  /**
   * A search costs what a list would, in the share of the account it returns, plus a request;
   * it is worth it when that is less than both the list and the GETs it saves (the queued
   * updates of the town, as many as can go while it is young).
   */
  #searchWorth(term: string): boolean {
    const share = this.#shareOf(term);
    if (share === null) return false;
    const slot = 1000 / this.#ratePerSecond;
    const cost = this.#latencyMs * share + slot;
    if (cost >= this.#latencyMs + slot) return false;
    const key = term.toLowerCase();
    const town = this.#queuedTowns().filter((t) => t.trim().toLowerCase() === key).length;
    const saved = Math.min(town, this.#servable()) * slot;
    // A list cheap enough to be no worse keeps the round's list (small accounts).
    return town >= this.#listThreshold && saved > cost && this.#latencyMs * (1 - share) > slot;
  }

  /** The share of the last pull a search for `term` returns (null: no pull to tell). */
  #shareOf(term: string): number | null {
    const cached = this.#shares.get(term);
    if (cached !== undefined) return cached;
    const known = this.#known();
    if (!known || known.length === 0) return null;
    let hits = 0;
    for (const c of known) if (matchesSearch(c, term)) hits += 1;
    const share = hits / known.length;
    this.#shares.set(term, share);
    return share;
  }

  /**
   * The search to use for `term`: `search`, or the next one once it came or `search` grew too
   * old. The next is asked when `search` nears the end of its life (by its own time to come,
   * WAIT_FOR_LIST_MS at least): asked only once it was too old, every change waited for it.
   */
  #ahead(term: string, search: Search | undefined, now: number): Search | undefined {
    let next = this.#nextSearches.get(term);
    const list = search?.list;
    if (!next && list) {
      const ahead = Math.max(search.latencyMs * 1.5, WAIT_FOR_LIST_MS);
      if (now - list.startedAt >= MAX_BASE_AGE_MS - ahead && this.#searchWorth(term)) {
        next = this.#search(term);
        this.#nextSearches.set(term, next);
      }
    }
    if (!next) return search;
    const old = !list || now - list.startedAt > MAX_BASE_AGE_MS;
    if (!next.list && !next.failed && !old) return search;
    this.#nextSearches.delete(term);
    this.#searches.set(term, next);
    return next;
  }

  #search(term: string): Search {
    const ctx = this.#ctx;
    const startedAt = ctx.clock.now();
    const search: Search = { list: null, fetching: null, failed: false, latencyMs: 0 };
    search.fetching = ctx.api
      .searchCustomers(term, { priority: ctx.priority, signal: this.#stop.signal })
      .then(
        (found) => {
          search.latencyMs = ctx.clock.now() - startedAt;
          search.list = { byId: new Map(found.map((c) => [c.id, c])), startedAt };
        },
        // Its updates go with a GET each; a failure that concerns them all surfaces there.
        () => void (search.failed = true),
      )
      .finally(() => {
        search.fetching = null;
        if (!this.#stop.signal.aborted) ctx.step();
      });
    return search;
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
