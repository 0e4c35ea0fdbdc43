// The renderer's side of a sync: main's data on its way into the list, as the cache worker reports
// it in the road's order (cache/cache-writer.ts). A stream is received piece by piece, saved, and
// then shown once the list holds it (read back, or the snapshot the page kept while it was
// saved: cache/snapshot-stage.ts). A page that opens an account reads what its cache already
// holds before the list shows anything (a restart). The status bar reads this beside the sync
// state the worker applied, so "Synced" only appears once main's data is in the cache and on
// screen.
import type { PieceMeta } from '../../../src-shared/data-pieces';
import { progressStep } from './sync-status-text';

export type LocalWork =
  /** Pieces of an event are arriving from main. */
  | { phase: 'receiving'; done: number; total: number }
  /** An event's pieces are in, its transaction is being written. */
  | { phase: 'saving'; done: number; total: number }
  /** Saved: the list has not read it back yet (`done` is what it shows). */
  | { phase: 'showing'; done: number; total: number }
  /** The list's first read of the account's cache has not answered yet (nothing counted). */
  | { phase: 'reading'; done: 0; total: 0 };

type Stream = { accountKey: string; phase: 'receiving' | 'saving'; done: number; total: number };

export class LocalWorkState {
  /** Streams the worker is receiving or saving, oldest first. */
  #streams = $state.raw<ReadonlyMap<string, Stream>>(new Map());
  /**
   * How many customers the list holds once it has read back the cache's last write. Every write
   * the worker reports updates it, so it is never stale.
   */
  #expect = $state.raw<{ accountKey: string; count: number } | null>(null);

  #set(stream: string, next: Stream | null): void {
    const now = this.#streams.get(stream);
    if (next && now && now.phase === next.phase && now.done === next.done) return;
    const streams = new Map(this.#streams);
    if (next) streams.set(stream, next);
    else if (!streams.delete(stream)) return;
    this.#streams = streams;
  }

  /**
   * A piece the worker took. A delta without customers (every sync sends one) changes nothing
   * the list shows: not worth a "0 of 0" on the status bar.
   */
  piece(meta: PieceMeta): void {
    if (meta.dropped) return this.#set(meta.stream, null);
    if (meta.total === 0 && meta.event === 'data:delta') return;
    const last = meta.index === meta.count - 1;
    this.#set(meta.stream, {
      accountKey: meta.accountKey,
      phase: last ? 'saving' : 'receiving',
      done: last ? 0 : progressStep(meta.received, meta.total),
      total: meta.total,
    });
  }

  /** A stream's save wrote `done` customers. */
  saving(stream: string, done: number): void {
    const now = this.#streams.get(stream);
    if (now) this.#set(stream, { ...now, phase: 'saving', done: progressStep(done, now.total) });
  }

  /** The worker applied a write: a stream's end (`stream`), or another write that left `count`. */
  applied(accountKey: string | null, count: number | null, stream?: string): void {
    if (stream !== undefined) this.#set(stream, null);
    if (accountKey !== null && count !== null) this.#expect = { accountKey, count };
  }

  /** A new road: what the old one was bringing will not come. */
  reset(): void {
    this.#streams = new Map();
  }

  /**
   * The page signed out of an account and deleted its cache: what its cache held is gone, and a
   * sign-in again starts from an empty list, not from "Showing" the count it had.
   */
  forget(accountKey: string): void {
    if (this.#expect?.accountKey === accountKey) this.#expect = null;
    const streams = new Map(this.#streams);
    for (const [stream, work] of streams)
      if (work.accountKey === accountKey) streams.delete(stream);
    if (streams.size !== this.#streams.size) this.#streams = streams;
  }

  /**
   * The data work under way, given the account shown (null: none yet, then any account's
   * streams count), how many customers its list holds, and whether the list has read its cache
   * yet (`loaded`: after a restart the sync state can come before the first read answers).
   */
  current(accountKey: string | null, listed: number, loaded = true): LocalWork | null {
    for (const stream of this.#streams.values()) {
      // Only the account shown: another's stream (one signed out of) is not this list's business.
      if (accountKey !== null && stream.accountKey !== accountKey) continue;
      return { phase: stream.phase, done: stream.done, total: stream.total };
    }
    if (!loaded) return { phase: 'reading', done: 0, total: 0 };
    const expect = this.#expect;
    if (!expect || expect.accountKey !== accountKey || listed === expect.count) return null;
    return { phase: 'showing', done: listed, total: expect.count };
  }
}
