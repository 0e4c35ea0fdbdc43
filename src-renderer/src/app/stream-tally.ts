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
  | 'dropped'
  /** Of a stream already over here (ended, dropped, or its save reported failed): nothing to do. */
  | 'stale';

type Stream = { accountKey: string; next: number; received: number; total: number };

export interface StreamSummary {
  accountKey: string;
  done: number;
  total: number;
}

/** The summary of the oldest stream for `accountKey` (any account's when null), or null. */
export function receivingFor(
  streams: readonly StreamSummary[],
  accountKey: string | null,
): { done: number; total: number } | null {
  const first = streams.find((s) => accountKey === null || s.accountKey === accountKey);
  return first ? { done: first.done, total: first.total } : null;
}

/** The same streams with the same counts (the status bar then needs no new frame). */
export const sameSummary = (a: readonly StreamSummary[], b: readonly StreamSummary[]): boolean =>
  a.length === b.length &&
  a.every(
    (s, i) => s.accountKey === b[i]!.accountKey && s.done === b[i]!.done && s.total === b[i]!.total,
  );

export class StreamTally {
  /** Streams on their way, oldest first: the next piece expected, customers so far, and of all. */
  #streams = new Map<string, Stream>();
  /** The last OVER_KEPT streams finished or dropped (a one-piece stream may overtake its announcement). */
  #over = new Set<string>();

  /**
   * Main announced a stream: on its way until its pieces say otherwise. A delta without customers
   * (every sync sends one) changes nothing the list shows: not worth a "0 of 0" on the status
   * bar. A snapshot without customers empties the list, so it counts.
   */
  announce(stream: Pick<DataStream, 'stream' | 'event' | 'accountKey' | 'total'>): void {
    if (stream.total === 0 && stream.event === 'data:delta') return;
    if (this.#over.has(stream.stream) || this.#streams.has(stream.stream)) return;
    const { accountKey, total } = stream;
    this.#streams.set(stream.stream, { accountKey, next: 0, received: 0, total });
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
      const { accountKey, total } = piece;
      this.#streams.set(piece.stream, (stream = { accountKey, next: 0, received: 0, total }));
    }
    if (!stream && this.#over.has(piece.stream)) return 'stale';
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

  /**
   * The worker's save of a stream failed: if its last piece never came (lost on its way), it is
   * no longer on its way. True when it was (nothing else tells the page of such a stream).
   */
  lost(stream: string): boolean {
    if (!this.#streams.has(stream)) return false;
    this.#end(stream);
    return true;
  }

  /** The streams on their way, oldest first: each one's account, customers so far in steps, total. */
  summary(): StreamSummary[] {
    return [...this.#streams.values()].map(({ accountKey, received, total }) => ({
      accountKey,
      done: progressStep(received, total),
      total,
    }));
  }

  #end(stream: string): void {
    this.#streams.delete(stream);
    this.#over.add(stream);
    if (this.#over.size > OVER_KEPT) this.#over.delete(this.#over.values().next().value!);
  }
}
