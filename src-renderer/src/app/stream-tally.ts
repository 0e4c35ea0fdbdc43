// Main's data streams on their way to the cache worker, as the page hears of them. Main announces
// each stream on the page's own channel ('data:stream'), in order with its state ('sync:state'),
// and sends the pieces another road (Electron's data port, the runner's socket, or IPC through
// the page), which the cache worker reports piece by piece. The two roads keep no order between
// them: main's "synced" can reach the page before the worker has heard of a single piece. So a
// stream counts as on its way from its announcement, not from its first piece; the status bar
// (local-work.svelte.ts) then never reads "Synced" over data that has not arrived.
import type { DataStream, PieceMeta } from '../../../src-shared/data-pieces';
import { progressStep } from './sync-status-text';

/** Streams finished or dropped, remembered for an announcement that comes after their pieces. */
const OVER_KEPT = 256;

export type PieceCount =
  /** Counted; more of its stream to come. */
  | 'counted'
  /** The last piece of its stream: the whole event is in the worker. */
  | 'last'
  /** Out of order, of a stream whose start was missed, or dropped by the worker: the stream is gone. */
  | 'dropped';

export class StreamTally {
  /** Streams on their way, oldest first: the next piece expected, customers so far, and of all. */
  #streams = new Map<string, { next: number; received: number; total: number }>();
  /** The last OVER_KEPT streams finished or dropped (a one-piece stream may overtake its announcement). */
  #over = new Set<string>();

  /** Main announced a stream: on its way until its pieces say otherwise. */
  announce(stream: Pick<DataStream, 'stream' | 'total'>): void {
    if (this.#over.has(stream.stream) || this.#streams.has(stream.stream)) return;
    this.#streams.set(stream.stream, { next: 0, received: 0, total: stream.total });
  }

  /**
   * A piece the cache worker received. Piece 0 starts its stream (announced or not: a page that
   * loaded after the announcement hears only the pieces); a piece out of order, of a stream whose
   * start was missed, or one the worker dropped, drops the stream (the worker's joiner applies the
   * same rule, and main resends a snapshot on request).
   */
  piece(piece: PieceMeta): PieceCount {
    let stream = this.#streams.get(piece.stream);
    if (piece.first) {
      this.#over.delete(piece.stream);
      this.#streams.set(piece.stream, (stream = { next: 0, received: 0, total: piece.total }));
    }
    if (piece.dropped || !stream || stream.next !== piece.index) {
      this.#end(piece.stream);
      return 'dropped';
    }
    stream.next++;
    stream.received += piece.customers;
    if (stream.next < piece.count) return 'counted';
    this.#end(piece.stream);
    return 'last';
  }

  /**
   * The worker gave up waiting for an announced stream's first piece: forgotten (its pieces, if
   * they come after all, start it again). True when it was announced and not one piece came.
   */
  unheard(stream: string): boolean {
    if (this.#streams.get(stream)?.next !== 0) return false;
    this.#streams.delete(stream);
    return true;
  }

  /** The oldest stream on its way (its customers so far, in steps), or null when none is. */
  receiving(): { done: number; total: number } | null {
    const first = this.#streams.values().next();
    if (first.done) return null;
    const { received, total } = first.value;
    return { done: progressStep(received, total), total };
  }

  #end(stream: string): void {
    this.#streams.delete(stream);
    this.#over.add(stream);
    if (this.#over.size > OVER_KEPT) this.#over.delete(this.#over.values().next().value!);
  }
}
