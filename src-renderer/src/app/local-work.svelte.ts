// The renderer's side of a sync: main's data on its way into the list. Large snapshots and deltas
// arrive in pieces (src-shared/data-pieces.ts), which the cache worker receives and joins
// (cache/cache-writer.ts); this counts them from main's announcement of their stream, then as the
// worker reports them (stream-tally.ts: why from the announcement). Each whole event then
// waits its turn, is saved to the cache, and is shown once the list holds it (read back, or the
// snapshot the page kept while it was saved: cache/snapshot-stage.ts). The status bar
// reads this so that "Synced" only appears once the data is in the cache and on screen.
import type { DataStream, JoinedEvent, PieceMeta } from '../../../src-shared/data-pieces';
import {
  receivingFor,
  sameSummary,
  StreamTally,
  type PieceCount,
  type StreamSummary,
} from './stream-tally';
import { progressStep } from './sync-status-text';

export type LocalWork =
  /** Pieces of a large event are arriving from main. */
  | { phase: 'receiving'; done: number; total: number }
  /** Whole events wait for, or are in, their cache transaction. */
  | { phase: 'saving'; done: number; total: number }
  /** Saved: the list has not read it back yet (`done` is what it shows). */
  | { phase: 'showing'; done: number; total: number };

/** Customers an event carries (a delta's upserted and deleted). */
export function customersIn(joined: JoinedEvent): number {
  if (joined.event === 'data:snapshot') return joined.payload.customers.length;
  return joined.payload.customers.upserted.length + joined.payload.customers.deleted.length;
}

export class LocalWorkState {
  /** Main's streams on their way to the cache worker, from their announcement to their last piece. */
  #tally = new StreamTally();
  /** The tally's streams as last shown (reassigned only when a count or a stream changes). */
  #receiving = $state.raw<readonly StreamSummary[]>([]);
  /** Customers of each whole event not yet saved, in queue order. */
  #waiting = $state.raw<number[]>([]);
  #saving = $state.raw<{ done: number; total: number } | null>(null);
  /**
   * How many customers the list holds once it has read back the cache's last write. Every write
   * of the page's queue updates it (`save`, `recount`), so it is never stale.
   */
  #expect = $state.raw<{ accountKey: string; count: number } | null>(null);

  /**
   * Main announced a stream ('data:stream', in order with its "synced"): on its way from now,
   * although the worker may hear of its pieces only after main's state says it is done.
   */
  announced(stream: DataStream): void {
    this.#tally.announce(stream);
    this.#showReceiving();
  }

  /**
   * A piece the cache worker received, counted: true once it is the last of its stream. A piece
   * out of order, of a stream whose start was missed, or one the worker dropped, drops the stream
   * (the worker's joiner applies the same rule); main resends a snapshot on request.
   */
  piece(piece: PieceMeta): PieceCount {
    const counted = this.#tally.piece(piece);
    if (counted === 'dropped')
      console.error(`fieldmap: dropped data stream ${piece.stream} at piece ${piece.index}`);
    this.#showReceiving();
    return counted;
  }

  /**
   * The worker could not save a stream: true when its last piece never came (it was still on its
   * way), so no 'stream' request of the page will say so, and it no longer counts as on its way.
   */
  lost(stream: string): boolean {
    const lost = this.#tally.lost(stream);
    if (lost) this.#showReceiving();
    return lost;
  }

  /**
   * The worker's opening of an announced stream is over: true when not one piece of it came (the
   * worker gave up waiting), and it no longer counts as on its way.
   */
  unheard(stream: string): boolean {
    const unheard = this.#tally.unheard(stream);
    if (unheard) this.#showReceiving();
    return unheard;
  }

  #showReceiving(): void {
    const next = this.#tally.summary();
    if (!sameSummary(next, this.#receiving)) this.#receiving = next;
  }

  /** A whole event was queued for the cache. */
  queued(total: number): void {
    this.#waiting = [...this.#waiting, total];
  }

  /**
   * Saves one queued event: `save` applies it (reporting customers written) and answers the
   * number of customers the list should then show, or null when the event was not for it.
   */
  async save(
    accountKey: string,
    save: (progress: (done: number) => void) => Promise<number | null>,
  ): Promise<void> {
    const [total = 0, ...rest] = this.#waiting;
    this.#waiting = rest;
    this.#saving = { done: 0, total };
    try {
      const count = await save((saved) => {
        const done = progressStep(Math.min(saved, total), total);
        if (this.#saving?.done !== done) this.#saving = { done, total };
      });
      if (count !== null) this.#expect = { accountKey, count };
    } finally {
      this.#saving = null;
    }
  }

  /** Another cache write (the outbox mirror, a resolved id) left `count` customers in the cache. */
  recount(accountKey: string, count: number | null): void {
    if (count !== null && this.#expect?.accountKey === accountKey)
      this.#expect = { accountKey, count };
  }

  /**
   * The data work under way, given the account shown (null: none yet, then any account's
   * streams count) and how many customers its list holds.
   */
  current(accountKey: string | null, listed: number): LocalWork | null {
    // Only the account shown: another's stream (one signed out of) is not this list's business.
    const receiving = receivingFor(this.#receiving, accountKey);
    if (receiving) return { phase: 'receiving', ...receiving };
    if (this.#saving) return { phase: 'saving', ...this.#saving };
    const next = this.#waiting[0];
    if (next !== undefined) return { phase: 'saving', done: 0, total: next };
    const expect = this.#expect;
    if (!expect || expect.accountKey !== accountKey || listed === expect.count) return null;
    return { phase: 'showing', done: listed, total: expect.count };
  }
}
