// The cache's writes run in a dedicated module worker (cache-writer.worker.ts), off the UI thread.
// Measured at 100k customers (docs/architecture.md, data flow of a sync): writing a snapshot from
// the page cost 6.2 s of UI-thread time in IndexedDB's serialisation of the records, as ten
// 0.4-0.8 s long tasks. The worker opens the same Dexie database and applies every write of main's
// (snapshot, delta, the outbox mirror, a resolved id) with CustomerCache, in one transaction each,
// so the overlay's all-or-nothing guarantee holds as before; the page's liveQueries see each
// commit through Dexie's cross-context broadcast (BroadcastChannel, same origin).
// Large events never exist whole on the UI thread: each piece (src-shared/data-pieces.ts) is
// handed on to the worker as it arrives ('piece', the one entry for pieces however they came);
// the page gets back only a snapshot's customers, a piece's text at a time (snapshot-stage.ts).
// The page opens each stream main announced ('open', in its turn among the page's writes) and
// the worker then writes its pieces as they come, in the event's one transaction (stream-saves.ts:
// why the page, not piece 0, starts it; piece-save.ts: the rule and its deadline); the page's
// 'stream' request waits for that save and answers its count. A stream never opened (an account
// signed out of: its cache is being deleted) is only joined, and applied when the page says it
// is open again, so no deleted cache comes back.
import type { Acknowledged, EventOf, Op } from '../../../src-shared';
import * as v from 'valibot';
import {
  DataPieceSchema,
  metaOf,
  PieceJoiner,
  type DataPiece,
  type JoinedEvent,
  type PieceMeta,
} from '../../../src-shared/data-pieces';
import { DATA_PORT_READY } from '../../../src-shared/data-port';
import { CustomerCache } from './customer-cache';
import { PIECE_GAP_MS } from './piece-save';
import { StreamSaves, type StreamSave } from './stream-saves';

/** What the page asks of the worker; every request but `piece` and `data-port` is answered by its `id`. */
export type WriterRequest =
  | { kind: 'piece'; piece: DataPiece }
  /** Main's data channel (Electron's MessagePort), handed on by the page: pieces arrive on it. */
  | { kind: 'data-port'; port: MessagePort }
  /** The page opens a stream main announced: its save starts in this turn of the queue. */
  | { kind: 'open'; id: number; stream: string; accountKey: string }
  /** `apply` false: the stream's account is not the open one, so its joined event is dropped. */
  | { kind: 'stream'; id: number; stream: string; apply: boolean }
  | { kind: 'event'; id: number; joined: JoinedEvent }
  | { kind: 'pending'; id: number; accountKey: string; ops: Op[]; acknowledged?: Acknowledged }
  | {
      kind: 'resolve';
      id: number;
      accountKey: string;
      target: EventOf<'ids:resolved'>['kind'];
      tempId: string;
      serverId: string;
    }
  | { kind: 'close'; id: number; accountKey: string };

/** The worker's answers: progress of a save (customers written), then done or failed. */
export type WriterReply =
  /**
   * A piece arrived (from main's data channel or the page): the page counts it. `json`: the
   * piece's own text, for a snapshot's customers that came as text (snapshot-stage.ts).
   */
  | { kind: 'piece'; meta: PieceMeta; json?: string }
  /**
   * A stream's save failed (stream-saves.ts), so the cache kept what it held. The page needs it
   * for a stream whose last piece never came (lost on its way): nothing else would tell it.
   */
  | { kind: 'unsaved'; stream: string; accountKey: string }
  | { kind: 'progress'; id: number; done: number }
  /** `count`: customers in the cache after the write, null when it was not applied. */
  | { kind: 'done'; id: number; count: number | null }
  | { kind: 'failed'; id: number; message: string };

/** The part of a Worker (or of the worker's global scope) the two sides use. */
export interface WriterPort {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent) => unknown) | null;
}

/** Dropped streams remembered (see `dropped` in serveCacheWriter). */
const DROPPED_KEPT = 64;

export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export type Served = Exclude<WriterRequest, { kind: 'piece' } | { kind: 'data-port' }>;

/**
 * The worker's side: saves a stream's pieces as they arrive once the page opened it (its one
 * transaction: stream-saves.ts) and applies each request in arrival order. Answers the entry for
 * pieces that come straight from main (validated here with DataPieceSchema): the data
 * port feeds it (Electron's, and the browser runner's relay of one).
 * `pieceGapMs`: the deadline for a stream's next piece (tests shorten it).
 */
export function serveCacheWriter(
  port: WriterPort,
  { pieceGapMs = PIECE_GAP_MS } = {},
): (raw: unknown) => void {
  const joiner = new PieceJoiner();
  const joined = new Map<string, JoinedEvent>();
  const caches = new Map<string, Promise<CustomerCache>>();
  const cacheOf = (accountKey: string) => {
    let cache = caches.get(accountKey);
    if (!cache) caches.set(accountKey, (cache = CustomerCache.open(accountKey)));
    return cache;
  };
  const reply = (message: WriterReply) => port.postMessage(message);
  // Customers in each account's cache after the last write that could change their number.
  // IndexedDB's count() walks the whole store (~175 ms at 100k here), and Chromium serves the
  // page's reads after it: counting after every outbox mirror held the edited record's read back
  // by that long. An outbox mirror changes the number only when it or the one before it holds a
  // create or a delete of a customer; otherwise the last count stands.
  const counts = new Map<string, number>();
  const existenceOps = new Map<string, boolean>();
  const countOf = async (cache: CustomerCache) => {
    const count = await cache.db.customers.count();
    counts.set(cache.accountKey, count);
    return count;
  };
  const saves = new StreamSaves(cacheOf, pieceGapMs, ({ stream, accountKey }) =>
    reply({ kind: 'unsaved', stream, accountKey }),
  );

  async function finishSave(id: number, save: StreamSave, apply: boolean): Promise<number | null> {
    save.progress = (done) => reply({ kind: 'progress', id, done });
    if (save.written > 0) save.progress(save.written);
    if (!(await save.done) || !apply) return null;
    return countOf(await cacheOf(save.inbox.first.accountKey));
  }

  async function apply(id: number, event: JoinedEvent | undefined): Promise<number | null> {
    if (!event) return null; // a stream that lost a piece: main resends on request
    const cache = await cacheOf(event.payload.accountKey);
    const progress = (done: number) => reply({ kind: 'progress', id, done });
    const applied =
      event.event === 'data:snapshot'
        ? await cache.applySnapshot(event.payload, progress)
        : await cache.applyDelta(event.payload, progress);
    return applied ? countOf(cache) : null;
  }

  async function handle(request: Served): Promise<number | null> {
    switch (request.kind) {
      case 'open': {
        // The joined copy of the pieces kept so far goes: the save has them.
        if (await saves.open(request.stream)) {
          joiner.drop(request.stream);
          joined.delete(request.stream);
        }
        return null;
      }
      case 'stream': {
        const save = saves.finish(request.stream);
        if (save) return finishSave(request.id, save, request.apply);
        const event = joined.get(request.stream);
        joined.delete(request.stream);
        if (!request.apply) return null;
        // A joined event that could not be saved left the cache as it was (one transaction):
        // answered null like a stream that broke, so the page asks main once to send it again.
        return apply(request.id, event).catch((error: unknown) => {
          console.error(`fieldmap: a data stream was not saved: ${String(error)}`, error);
          return null;
        });
      }
      case 'event':
        return apply(request.id, request.joined);
      case 'pending': {
        const cache = await cacheOf(request.accountKey);
        await cache.setPendingOps(request.ops, request.acknowledged);
        const existence = request.ops.some(
          (op) => op.kind === 'createCustomer' || op.kind === 'deleteCustomer',
        );
        const before = existenceOps.get(request.accountKey) ?? true;
        existenceOps.set(request.accountKey, existence);
        const known = counts.get(request.accountKey);
        return existence || before || known === undefined ? countOf(cache) : known;
      }
      case 'resolve': {
        const cache = await cacheOf(request.accountKey);
        await cache.resolveId(request.target, request.tempId, request.serverId);
        return countOf(cache);
      }
      case 'close': {
        counts.delete(request.accountKey);
        existenceOps.delete(request.accountKey);
        saves.failAccount(request.accountKey);
        const cache = caches.get(request.accountKey);
        caches.delete(request.accountKey);
        (await cache)?.close();
        return null;
      }
    }
  }

  /**
   * Streams that lost a piece: the page hears of each once (it asks main for a snapshot). The
   * last DROPPED_KEPT of them: a stream's later pieces follow its lost one within seconds.
   */
  const dropped = new Set<string>();
  const took = (piece: DataPiece, json: string | undefined) => {
    const meta = metaOf(piece);
    // The page keeps a snapshot's customers while they are saved (snapshot-stage.ts).
    const staged = json !== undefined && piece.event === 'data:snapshot' && meta.customers > 0;
    reply(staged ? { kind: 'piece', meta, json } : { kind: 'piece', meta });
  };
  const takePiece = (piece: DataPiece, json?: string) => {
    if (piece.abort) {
      // Main's pull failed while it streamed this snapshot: nothing of it is kept or saved.
      saves.abort(piece.stream);
      joiner.drop(piece.stream);
      joined.delete(piece.stream);
      return reply({ kind: 'piece', meta: metaOf(piece) });
    }
    if (saves.take(piece)) return took(piece, json);
    try {
      const whole = joiner.add(piece);
      saves.keep(piece);
      if (whole) joined.set(piece.stream, whole);
      took(piece, json);
    } catch (error) {
      console.error('fieldmap: dropped a data stream', error);
      saves.drop(piece.stream);
      if (dropped.has(piece.stream)) return;
      dropped.add(piece.stream);
      // The last few are enough to tell the page once per stream (its pieces come together).
      if (dropped.size > DROPPED_KEPT) dropped.delete(dropped.values().next().value!);
      reply({ kind: 'piece', meta: metaOf(piece, true) });
    }
  };
  /** A piece from main: its JSON text (as main sends it), or an object (an older main). */
  const takeRaw = (raw: unknown) => {
    let json: string | undefined;
    let value = raw;
    if (typeof raw === 'string') {
      json = raw;
      try {
        value = JSON.parse(raw);
      } catch {
        return console.error('fieldmap: refused a data piece that is not JSON');
      }
    }
    const parsed = v.safeParse(DataPieceSchema, value);
    if (parsed.success) takePiece(parsed.output, json);
    else console.error('fieldmap: refused a malformed data piece');
  };

  let queue: Promise<unknown> = Promise.resolve();
  port.onmessage = (message) => {
    const request = message.data as WriterRequest;
    if (request.kind === 'piece') return takePiece(request.piece);
    if (request.kind === 'data-port') {
      request.port.onmessage = (event) => takeRaw(event.data);
      request.port.postMessage(DATA_PORT_READY);
      return;
    }
    queue = queue.then(async () => {
      try {
        reply({ kind: 'done', id: request.id, count: await handle(request) });
      } catch (error) {
        reply({ kind: 'failed', id: request.id, message: String(error) });
      }
    });
  };
  return takeRaw;
}
