// Saving a large snapshot or delta while its pieces arrive (src-shared/data-pieces.ts), instead of
// after the last one. The rule (chosen by measurement at 100k customers: docs/perf-log.md):
// - ONE IndexedDB read-write transaction per event, opened at piece 0 and committed after the
//   last piece, whatever the cache held before (an empty cache on a first sync, or one being
//   replaced). A liveQuery or the page's read-back never sees part of an event; the records of
//   each piece are put as soon as it is here, so IndexedDB's cost (the records' serialisation
//   in this worker, the backend's writes) overlaps delivery and the commit at the end is short.
// - The transaction stays alive between pieces through Dexie.waitFor, which keeps one cheap
//   request in flight (behind the puts: it spins only while the worker has nothing to write).
// - Deadline: a piece that is not here PIECE_GAP_MS after the previous one (a lost stream, main
//   gone) aborts the transaction, so the cache keeps its previous state and the database is free
//   again; a piece out of order fails the stream at once. The page then asks main for a snapshot.
// Rejected: committing each piece into an empty cache (the list fills as pieces land) needs the
// overlay re-applied per commit, a marker so a restart never trusts half a snapshot, and the
// page re-reading the list 50 times; and it cannot replace a non-empty cache anyway.
import { Dexie, type Table } from 'dexie';
import type { DataPiece } from '../../../src-shared/data-pieces';
import type { FieldmapDb } from './schema';

/** Longest wait for the next piece of a stream before its transaction is given up. */
export const PIECE_GAP_MS = 30_000;

/** The next piece: at once when it is already here, else a promise of it. */
export type NextPiece = () => DataPiece | Promise<DataPiece>;

/** A stream's pieces for `writePieces`: PieceInbox. */
export interface PieceSource {
  next: NextPiece;
  /** The next piece if it is here already, else null (throws once the stream failed). */
  ready(): DataPiece | null;
  /** Resolves when the next piece arrives (it stays for `ready`); rejects once the stream failed. */
  arrival(): Promise<void>;
}

/** A snapshot's puts get a hook every this many records (see writeSnapshot). */
const HOOK_EVERY = 250;

const TABLES = new Set(['customers', 'routes', 'territories']);

/**
 * Dexie.waitFor, but also settling (rejected) when the transaction ends first. Dexie hands the
 * waited promise's outcome back only from a success callback of its keep-alive requests, which
 * stop once the transaction aborts (a failed add, an exception in a pump, the backend): the wait
 * then never settles, and neither the commit nor the failure report of the save is reached.
 */
function waitInside<T>(promise: Promise<T>, gapMs?: number): Promise<T> {
  const trans = Dexie.currentTransaction;
  const idb = trans?.idbtrans;
  if (!trans || !idb) return Promise.reject(new Error('a piece is awaited inside its transaction'));
  if (!trans.active) return Promise.reject(idb.error ?? new Error('the save was aborted'));
  let off = () => {};
  const ended = new Promise<never>((_, reject) => {
    const aborted = () => reject(idb.error ?? new Error('the save was aborted'));
    idb.addEventListener('abort', aborted);
    off = () => idb.removeEventListener('abort', aborted);
  });
  return Promise.race([Dexie.waitFor(promise, gapMs), ended]).finally(off);
}

/**
 * Writes the pieces of one event, `first` and then every `next` one up to the last, inside the
 * caller's transaction: a snapshot's records are put into its cleared tables, a delta's
 * upserted put and deleted removed. Resolves once every write succeeded, with the customers a
 * snapshot left in its table (null for a delta); rejects (aborting the transaction) on a failed
 * write, a piece out of place or one that missed its deadline.
 */
export async function writePieces(
  db: FieldmapDb,
  snapshot: boolean,
  first: DataPiece,
  source: PieceSource,
  progress?: (done: number) => void,
  gapMs = PIECE_GAP_MS,
): Promise<number | null> {
  if (snapshot) return writeSnapshot(first, source, progress, gapMs);
  const next = source.next;
  const writes: Array<Promise<void>> = [];
  const failed: unknown[] = [];
  let written = 0;
  for (let piece = first; ;) {
    if (failed.length > 0) throw failed[0];
    const [key, sub] = piece.path as [string, string | undefined];
    if (!TABLES.has(key) || piece.stream !== first.stream)
      throw new Error(`data piece ${piece.index} of ${piece.stream} does not fit its stream`);
    const table = db.table(key) as Table<unknown, string>;
    const items = piece.items;
    // Not awaited: the next piece's puts queue behind these, so IndexedDB never waits on us.
    // An id twice in a delta's upserted is put twice, in order: its last copy wins, as in main.
    const write = sub === 'deleted' ? table.bulkDelete(items as string[]) : table.bulkPut(items);
    writes.push(
      write.then(
        () => {
          if (key !== 'customers') return;
          written += items.length;
          progress?.(written);
        },
        (error: unknown) => void failed.push(error),
      ),
    );
    if (piece.index + 1 >= piece.count) break;
    const coming = next();
    piece = coming instanceof Promise ? await waitInside(coming, gapMs) : coming;
  }
  await Promise.all(writes);
  if (failed.length > 0) throw failed[0];
  return null;
}

/**
 * A snapshot's pieces, put into their cleared tables with IndexedDB's own requests, so that the
 * worker's serialisation of a piece overlaps the backend's writes of the pieces before it.
 * With Dexie's bulkAdd per piece and Dexie.waitFor between pieces, a piece that arrived while
 * the backend was still writing was only added once the waitFor's keep-alive request, queued
 * BEHIND every pending put, came back: the worker serialised while the backend idled and the
 * backend wrote while the worker idled, and the save ended long after the last piece. Here every
 * HOOK_EVERY-th put's success (a moment the transaction is active) adds whatever pieces arrived
 * meanwhile; Dexie.waitFor only keeps the transaction alive while nothing is pending. Only a
 * snapshot goes this way: its tables were cleared through Dexie, which already tells every
 * context the whole table changed, so these adds need no key bookkeeping. A delta's keys must
 * reach the page's feed (Dexie's 'storagemutated'), so its pieces still go through Dexie.
 */
async function writeSnapshot(
  first: DataPiece,
  source: PieceSource,
  progress: ((done: number) => void) | undefined,
  gapMs: number,
): Promise<number> {
  const trans = Dexie.currentTransaction?.idbtrans;
  if (!trans) throw new Error('a snapshot is written inside its transaction');
  let failed: unknown = null;
  // The customers' ids: the table's count once the snapshot is in (an id listed twice is one
  // record), which the worker reports without walking the store again (IndexedDB's count()).
  const ids = new Set<unknown>();
  let issued = 0;
  let done = 0;
  let written = 0;
  let finish = () => {};
  let fail = (_error: unknown) => {};
  const finished = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  finished.catch(() => {}); // awaited below, maybe only after it failed
  const stop = (error: unknown) => {
    failed ??= error;
    fail(failed);
  };
  const pieceDone = (customers: number) => {
    if (customers > 0) progress?.((written += customers));
    if (++done === first.count) finish();
  };
  const issue = (piece: DataPiece) => {
    const [key, sub] = piece.path as [string, string | undefined];
    if (!TABLES.has(key) || sub !== undefined || piece.stream !== first.stream)
      throw new Error(`data piece ${piece.index} of ${piece.stream} does not fit its stream`);
    issued++;
    const store = trans.objectStore(key);
    const items = piece.items;
    const customers = key === 'customers' ? items.length : 0;
    if (items.length === 0) return pieceDone(0);
    if (customers > 0) for (const item of items) ids.add((item as { id?: unknown }).id);
    for (let i = 0; i < items.length; i++) {
      // put, not add: an id the service listed twice is saved once, its last copy winning, as
      // main keeps and diffs the pull by id, in a Map (pull.ts); an add would abort the save.
      const request = store.put(items[i]);
      const last = i === items.length - 1;
      if (last || (i + 1) % HOOK_EVERY === 0)
        request.onsuccess = () => {
          if (last) pieceDone(customers);
          pump();
        };
      request.onerror = () => stop(request.error);
    }
  };
  // Adds every piece that is here; runs only while the transaction is active (in the loop
  // below, resumed by Dexie inside a request's callback, or in a put's success callback).
  const pump = () => {
    if (failed) return;
    try {
      for (let piece = source.ready(); piece && issued < first.count; piece = source.ready())
        issue(piece);
    } catch (error) {
      stop(error);
      trans.abort();
    }
  };
  issue(first);
  pump();
  while (issued < first.count) {
    if (failed) throw failed;
    // A failed put ends the wait too (its transaction aborts).
    await waitInside(Promise.race([source.arrival(), finished]), gapMs);
    pump();
  }
  if (failed) throw failed;
  await waitInside(finished);
  return ids.size;
}

/**
 * The pieces of one stream as they reach the worker, in order, for `writePieces`: piece 0 starts
 * it; a piece out of order (or `fail`) fails the stream, and the save waiting on it rejects.
 */
export class PieceInbox implements PieceSource {
  #pieces: DataPiece[] = [];
  #expect = 1;
  #waiter: { resolve(piece: DataPiece): void; reject(error: Error): void } | null = null;
  #arrivals: Array<{ resolve(): void; reject(error: Error): void }> = [];
  #error: Error | null = null;

  constructor(readonly first: DataPiece) {}

  push(piece: DataPiece): void {
    if (this.#error) return;
    if (piece.index !== this.#expect)
      return this.fail(new Error(`data piece ${piece.index} of ${piece.stream} out of order`));
    this.#expect++;
    const waiter = this.#waiter;
    this.#waiter = null;
    if (waiter) waiter.resolve(piece);
    else this.#pieces.push(piece);
    const arrivals = this.#arrivals;
    this.#arrivals = [];
    for (const arrival of arrivals) arrival.resolve();
  }

  fail(error: Error): void {
    this.#error ??= error;
    this.#pieces = [];
    const waiter = this.#waiter;
    this.#waiter = null;
    waiter?.reject(error);
    const arrivals = this.#arrivals;
    this.#arrivals = [];
    for (const arrival of arrivals) arrival.reject(error);
  }

  ready(): DataPiece | null {
    if (this.#error) throw this.#error;
    return this.#pieces.shift() ?? null;
  }

  arrival(): Promise<void> {
    if (this.#error) return Promise.reject(this.#error);
    if (this.#pieces.length > 0) return Promise.resolve();
    return new Promise((resolve, reject) => this.#arrivals.push({ resolve, reject }));
  }

  readonly next: NextPiece = () => {
    if (this.#error) return Promise.reject(this.#error);
    const piece = this.#pieces.shift();
    if (piece) return piece;
    return new Promise((resolve, reject) => (this.#waiter = { resolve, reject }));
  };
}
