// Progress of one sync for the status bar: requests done and planned, and an ETA from the
// requests left and the account's rate limit.
import type { SyncState } from '../../../src-shared/sync-state';

export class SyncProgress {
  readonly #ratePerSecond: number;
  #done = 0;
  #total: number;

  constructor(plannedRequests: number, ratePerSecond: number) {
    this.#total = Math.max(0, plannedRequests);
    this.#ratePerSecond = ratePerSecond;
  }

  step(requests = 1): void {
    this.#done += requests;
    if (this.#done > this.#total) this.#total = this.#done;
  }

  get state(): Extract<SyncState, { kind: 'syncing' }> {
    const left = this.#total - this.#done;
    // Rate 0 means unlimited: the ETA is then only the network's, which we do not guess.
    const etaMs = this.#ratePerSecond > 0 ? Math.round((left * 1_000) / this.#ratePerSecond) : 0;
    return { kind: 'syncing', done: this.#done, total: this.#total, etaMs };
  }
}
