// Saving a large snapshot or delta while its pieces arrive (src-shared/data-pieces.ts), instead of
// after the last one. The rule, chosen by measurement at 100k customers (issue 13):
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

const TABLES = new Set(['customers', 'routes', 'territories']);

/**
 * Writes the pieces of one event, `first` and then every `next` one up to the last, inside the
 * caller's transaction: a snapshot's records are added (its tables were cleared), a delta's
 * upserted put and deleted removed. Resolves once every write succeeded; rejects (aborting the
 * transaction) on a failed write, a piece out of place or one that missed its deadline.
 */
export async function writePieces(
  db: FieldmapDb,
  snapshot: boolean,
  first: DataPiece,
  next: NextPiece,
  progress?: (done: number) => void,
  gapMs = PIECE_GAP_MS,
): Promise<void> {
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
    const write =
      sub === 'deleted'
        ? table.bulkDelete(items as string[])
        : snapshot
          ? table.bulkAdd(items)
          : table.bulkPut(items);
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
    piece = coming instanceof Promise ? await Dexie.waitFor(coming, gapMs) : coming;
  }
  await Promise.all(writes);
  if (failed.length > 0) throw failed[0];
}

/**
 * The pieces of one stream as they reach the worker, in order, for `writePieces`: piece 0 starts
 * it; a piece out of order (or `fail`) fails the stream, and the save waiting on it rejects.
 */
export class PieceInbox {
  #pieces: DataPiece[] = [];
  #expect = 1;
  #waiter: { resolve(piece: DataPiece): void; reject(error: Error): void } | null = null;
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
  }

  fail(error: Error): void {
    this.#error ??= error;
    this.#pieces = [];
    const waiter = this.#waiter;
    this.#waiter = null;
    waiter?.reject(error);
  }

  readonly next: NextPiece = () => {
    if (this.#error) return Promise.reject(this.#error);
    const piece = this.#pieces.shift();
    if (piece) return piece;
    return new Promise((resolve, reject) => (this.#waiter = { resolve, reject }));
  };
}
