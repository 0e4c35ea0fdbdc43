// The cache worker's saves of streams while their pieces arrive (piece-save.ts has the rule: one
// transaction per event, from its first piece to its last). A save starts in the worker's queue
// of writes, in the road's order (cache-writer.ts), never at a piece alone: a write the road
// carried before the stream (an outbox mirror, a resolved id) commits first, and one it carries
// after waits for the stream's commit. Pieces that arrive before the save's turn are kept (the
// joiner has them too) and written when it opens.
import type { DataPiece } from '../../../src-shared/data-pieces';
import type { CustomerCache } from './customer-cache';
import { PieceInbox } from './piece-save';
import { storageFailureOf, type StorageFailure } from './storage-failure';

/** A stream being saved: customers written so far, and where the page's request wants progress. */
export type StreamSave = {
  inbox: PieceInbox;
  written: number;
  progress: ((done: number) => void) | null;
  /** Resolves once the save's transaction is open (or the save has failed). */
  opened: Promise<void>;
  /** True once the whole event committed; false when it was not saved (the cache is unchanged). */
  done: Promise<boolean>;
  /** Once done: the customers in the cache after the save, when known without counting them. */
  customers: number | null;
  /** Set when the save failed because the storage refused it (a full disk, a damaged database). */
  failure: StorageFailure | null;
};

/** Finished streams remembered for a late opening (one per sync at most: hours of them). */
const FINISHED_KEPT = 256;

export class StreamSaves {
  readonly #cacheOf: (accountKey: string) => Promise<CustomerCache>;
  readonly #gapMs: number;
  /** Streams being saved, until the page's 'stream' request takes them. */
  #saving = new Map<string, StreamSave>();
  /** Pieces of streams not opened (yet): written if the page opens them. */
  #kept = new Map<string, DataPiece[]>();
  /** Streams the page opened before their piece 0 arrived: called once their save is open. */
  #waiting = new Map<string, () => void>();
  /**
   * Streams already taken by the page's 'stream' request (or dropped): an opening that comes
   * after it (a one-piece stream whose piece overtook its announcement) has nothing to wait for.
   * The last FINISHED_KEPT of them.
   */
  #finished = new Set<string>();
  /**
   * Saves the page's 'stream' request took while their last pieces were still on their way: that
   * request travels on the page's port, the pieces on main's, so it can overtake them (a busy
   * machine delivered it before piece 2 of 5). They still take their pieces until they end.
   */
  #handed = new Map<string, StreamSave>();

  constructor(cacheOf: (accountKey: string) => Promise<CustomerCache>, gapMs: number) {
    this.#cacheOf = cacheOf;
    this.#gapMs = gapMs;
  }

  /**
   * A piece for a save (running, or opened and waiting for piece 0): taken, true. False: the
   * caller joins it (and `keep`s it for an opening to come).
   */
  take(piece: DataPiece): boolean {
    const save = this.#saving.get(piece.stream) ?? this.#handed.get(piece.stream);
    if (save) {
      // An out-of-order piece fails the save (piece-save.ts): the page's 'stream' request then
      // answers null and the page asks main to send the data again.
      save.inbox.push(piece);
      return true;
    }
    const waiting = this.#waiting.get(piece.stream);
    if (!waiting || piece.index !== 0 || !piece.head) return false;
    this.#waiting.delete(piece.stream);
    void this.#start([piece]).opened.then(waiting);
    return true;
  }

  /** Keeps a piece the caller joined, in order, for the page's opening. */
  keep(piece: DataPiece): void {
    if (piece.index === 0) this.#kept.set(piece.stream, [piece]);
    else this.#kept.get(piece.stream)?.push(piece);
  }

  /**
   * The page opens a stream: its save starts with the pieces here, or at piece 0. Resolves once
   * the save's transaction is open; true when the kept pieces went to it (the caller drops its
   * joined copy), false when nothing was here yet or the stream is already being saved.
   */
  async open(stream: string): Promise<boolean> {
    if (this.#finished.delete(stream)) return false;
    if (this.#saving.has(stream) || this.#waiting.has(stream)) return false;
    const kept = this.#kept.get(stream);
    if (kept) {
      this.#kept.delete(stream);
      await this.#start(kept).opened;
      return true;
    }
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      // Piece 0 never came: the queue goes on, and a late stream is joined and applied whole.
      const timer = setTimeout(() => {
        if (this.#waiting.get(stream) === done) this.#waiting.delete(stream);
        resolve();
      }, this.#gapMs);
      this.#waiting.set(stream, done);
    });
    return false;
  }

  /** The save of a stream, handed to the page's 'stream' request (once). */
  finish(stream: string): StreamSave | undefined {
    const save = this.#saving.get(stream);
    this.#saving.delete(stream);
    if (save) {
      this.#handed.set(stream, save);
      const ended = () => {
        if (this.#handed.get(stream) === save) this.#handed.delete(stream);
      };
      void save.done.then(ended, ended);
    }
    this.#kept.delete(stream);
    this.#markFinished(stream);
    return save;
  }

  /** A stream that lost a piece: nothing of it is saved or kept, and no opening waits for it. */
  drop(stream: string): void {
    this.#kept.delete(stream);
    this.#markFinished(stream);
  }

  /**
   * Main gave a stream up (its pull failed while it was sent): a running save fails (its
   * transaction aborts, the cache keeps what it held), an opening waiting for piece 0 goes on,
   * and nothing of it is kept.
   */
  abort(stream: string): void {
    const save = this.#saving.get(stream) ?? this.#handed.get(stream);
    save?.inbox.fail(new Error(`data stream ${stream} was abandoned by main (its pull failed)`));
    this.#saving.delete(stream);
    this.#handed.delete(stream);
    const waiting = this.#waiting.get(stream);
    this.#waiting.delete(stream);
    waiting?.();
    this.drop(stream);
  }

  #markFinished(stream: string): void {
    this.#finished.add(stream);
    if (this.#finished.size > FINISHED_KEPT)
      this.#finished.delete(this.#finished.values().next().value!);
  }

  /** Signed out: the account's saves fail (their transactions abort), its kept pieces go. */
  failAccount(accountKey: string): void {
    for (const save of [...this.#saving.values(), ...this.#handed.values()])
      if (save.inbox.first.accountKey === accountKey)
        save.inbox.fail(new Error('the account was signed out'));
    for (const [stream, pieces] of this.#kept)
      if (pieces[0]?.accountKey === accountKey) this.#kept.delete(stream);
  }

  /** A new road began: every save of the old one fails (its pieces will not come). */
  failAll(): void {
    for (const save of [...this.#saving.values(), ...this.#handed.values()])
      save.inbox.fail(new Error('the road to main was opened again'));
    this.#saving.clear();
    this.#handed.clear();
    this.#kept.clear();
    for (const waiting of this.#waiting.values()) waiting();
    this.#waiting.clear();
  }

  #start(pieces: DataPiece[]): StreamSave {
    const first = pieces[0]!;
    const inbox = new PieceInbox(first);
    let opened = () => {};
    const save: StreamSave = {
      inbox,
      written: 0,
      progress: null,
      opened: new Promise<void>((resolve) => (opened = resolve)),
      done: Promise.resolve(false),
      customers: null,
      failure: null,
    };
    save.done = this.#cacheOf(first.accountKey)
      .then((cache) =>
        cache.applyPieces(
          first,
          inbox,
          (done) => {
            save.written = done;
            save.progress?.(done);
          },
          this.#gapMs,
          opened,
        ),
      )
      .then((applied) => {
        if (applied) save.customers = applied.customers;
        return applied !== false;
      })
      .catch((error: unknown) => {
        console.error(`fieldmap: a data stream was not saved: ${String(error)}`, error);
        save.failure = storageFailureOf(error);
        // The save stays registered: its later pieces go to its failed inbox (a joiner that
        // no longer holds the stream would drop them unreported), and its last piece reports the
        // stream unsaved (cache-writer.ts), so the page recovers.
        inbox.fail(error instanceof Error ? error : new Error(String(error)));
        return false;
      })
      .finally(opened);
    this.#saving.set(first.stream, save);
    for (const piece of pieces.slice(1)) inbox.push(piece);
    return save;
  }
}
