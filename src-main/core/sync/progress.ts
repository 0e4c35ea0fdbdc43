// Progress of one sync for the status bar: requests done and planned, and an estimate of the time
// left. Each request left costs a slot of the account's rate limit; the pull's customers list costs
// what it took last time instead (seconds at 100k: one request the size of the account), and
// while it is on its way, what it still has of that time. A list whose time is not known, or
// that has outrun it, leaves the time unknown (etaMs 0): better no time than a wrong one.
import type { SyncState } from '../../../src-shared/sync-state';

/**
 * The rate limiter's window: a list that took this long leaves every slot but its own free, so
 * the requests right after it go at once, not a slot apart.
 */
const WINDOW_MS = 1_000;

export interface SyncProgressOptions {
  /** How long the customers list is expected to take (the last one measured; 0: not known). */
  listMs?: number;
  /** The engine's clock: the list's time counts from when it was asked for. */
  now?: () => number;
  /**
   * The pull's requests from its list on (the list and those after it): never counted done
   * before they are, however many more requests the push took than planned (default 1).
   */
  fromList?: number;
}

export class SyncProgress {
  readonly #ratePerSecond: number;
  readonly #listMs: number;
  readonly #now: () => number;
  readonly #fromList: number;
  #done = 0;
  #total: number;
  /** The pull's list is still to be answered (every sync ends with a pull). */
  #listAhead = true;
  /** When the list was asked for (null: not yet). */
  #listSince: number | null = null;
  /** How long this sync's list took, once it came. */
  #listTook = 0;

  constructor(plannedRequests: number, ratePerSecond: number, options: SyncProgressOptions = {}) {
    this.#ratePerSecond = ratePerSecond;
    this.#listMs = Math.max(0, options.listMs ?? 0);
    this.#now = options.now ?? Date.now;
    this.#fromList = Math.max(1, options.fromList ?? 1);
    this.#total = Math.max(plannedRequests, this.#fromList);
  }

  /** The pull's customers list is asked for now. */
  listing(): void {
    this.#listSince = this.#now();
  }

  /** Requests answered; the first after `listing` is the list's (the pull's GETs go in turn). */
  step(requests = 1): void {
    this.#done += requests;
    if (this.#listSince !== null) {
      this.#listAhead = false;
      this.#listTook = this.#now() - this.#listSince;
      this.#listSince = null;
    }
    const ahead = this.#listAhead ? this.#fromList : 0;
    this.#total = Math.max(this.#total, this.#done + ahead);
  }

  get state(): Extract<SyncState, { kind: 'syncing' }> {
    return { kind: 'syncing', done: this.#done, total: this.#total, etaMs: this.#etaMs() };
  }

  #etaMs(): number {
    const left = this.#total - this.#done;
    // Rate 0 means unlimited: the time is then only the network's, which is not guessed.
    if (left <= 0 || this.#ratePerSecond <= 0) return 0;
    const slotMs = 1_000 / this.#ratePerSecond;
    // Requests that find a free slot after a list of a window or more.
    const freeAfter = (listMs: number) =>
      listMs >= WINDOW_MS ? Math.max(0, Math.floor(this.#ratePerSecond) - 1) : 0;
    if (!this.#listAhead) return Math.round(Math.max(0, left - freeAfter(this.#listTook)) * slotMs);
    if (this.#listMs <= 0) return 0;
    const after = this.#fromList - 1;
    const waits = left - this.#fromList + Math.max(0, after - freeAfter(this.#listMs));
    const others = waits * slotMs;
    if (this.#listSince === null) return Math.round(others + Math.max(slotMs, this.#listMs));
    const still = this.#listMs - (this.#now() - this.#listSince);
    return still > 0 ? Math.round(others + still) : 0;
  }
}
