// The cache's writes run in a dedicated module worker (cache-writer.worker.ts), off the UI thread,
// and this worker is the cache's only writer: writing a large snapshot from the page costs
// seconds of UI-thread time in IndexedDB's serialisation.
// Main's road (src-shared/data-road.ts) ends here: the session, sync state, outbox mirror, resolved
// ids and data pieces come by main's data port or through the page, are put back in main's order
// (road-reader.ts), and are applied one after another, each in one transaction, so the overlay's
// all-or-nothing guarantee holds; the page's liveQueries see each commit through Dexie's
// cross-context broadcast (BroadcastChannel, same origin). The page hears of each message as it
// is applied ('applied'), so what it shows (the status bar's state above all) follows the cache.
// A stream's pieces are written as they come, in the event's one transaction (stream-saves.ts,
// piece-save.ts). Messages of an account that is not main's signed-in one (at that point of the
// road), or that the page closed (signed out of: its cache is being deleted), are not applied,
// so no deleted cache comes back.
import { queueCounts, type EventOf, type QueueCounts } from '../../../src-shared';
import * as v from 'valibot';
import { eventChannels } from '../../../src-shared/ipc-contract';
import {
  metaOf,
  PieceJoiner,
  type DataPiece,
  type JoinedEvent,
  type PieceMeta,
} from '../../../src-shared/data-pieces';
import {
  RoadMessageSchema,
  type RoadMessage,
  type StateEvent,
} from '../../../src-shared/data-road';
import { DATA_PORT_READY, tookReport } from '../../../src-shared/data-port';
import { CustomerCache } from './customer-cache';
import { OutboxInbox } from './outbox-events';
import { PIECE_GAP_MS } from './piece-save';
import { RoadReader } from './road-reader';
import { StreamSaves, type StreamSave } from './stream-saves';
import { storageFailureOf, type StorageFailure } from './storage-failure';

/** What the page asks of the worker; `close` and `idle` are answered by their `id`. */
export type WriterRequest =
  /** A road message that came through the page ('data:road'), handed on unread. */
  | { kind: 'road'; message: unknown }
  /** Main's data channel (Electron's MessagePort), handed on by the page: messages arrive on it. */
  | { kind: 'data-port'; port: MessagePort }
  /** The page signs out of an account: nothing more is applied to it until main signs it in. */
  | { kind: 'close'; id: number; accountKey: string }
  /** Answered once everything the worker has taken so far is applied. */
  | { kind: 'idle'; id: number };

/** A state event as the page hears it once applied (an outbox mirror without its ops). */
export type AppliedEvent =
  | { event: 'session:changed'; payload: EventOf<'session:changed'> }
  | { event: 'sync:state'; payload: EventOf<'sync:state'> }
  | {
      event: 'outbox:changed';
      /** `held`: the mirror's ops still queued, by opId (the page's saved-ahead count drops them). */
      payload: { accountKey: string; reached: string[]; held: string[]; queue: QueueCounts };
    }
  | { event: 'ids:resolved'; payload: EventOf<'ids:resolved'> };

/** The worker's reports, in the road's order. */
export type WriterReply =
  /**
   * A data piece taken (not yet saved). `json`: the piece's own text, for a snapshot's customers
   * that came as text (snapshot-stage.ts).
   */
  | { kind: 'piece'; meta: PieceMeta; json?: string }
  /** A stream's last piece is in: customers written so far. */
  | { kind: 'saving'; stream: string; accountKey: string; done: number; total: number }
  /**
   * Message `seq` of road `road` is applied. `count`: customers in its account's cache after it
   * (null when it wrote nothing). A stream's end names it; `saved` false: the cache kept what it
   * held (a piece lost, a failed write, main gave the stream up); `failure`: the storage refused
   * the write (storage-failure.ts), which the rep must hear of.
   */
  | ({
      kind: 'applied';
      road: number;
      seq: number;
      accountKey: string | null;
      count: number | null;
    } & (AppliedEvent | { stream: string; saved: boolean; failure?: StorageFailure }))
  /** The road lost a message, or a stream was not saved: the page opens a new road. */
  | { kind: 'lost'; road: number; seq: number }
  | { kind: 'done'; id: number }
  | { kind: 'failed'; id: number; message: string };

/** The part of a Worker (or of the worker's global scope) the two sides use. */
export interface WriterPort {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent) => unknown) | null;
}

/** Options tests shorten: the deadline for a stream's next piece, and for a gap in the road. */
export interface WriterOptions {
  pieceGapMs?: number;
  roadGapMs?: number;
}

/**
 * The worker's side: takes road messages from main's data port and the page, and applies them
 * in main's order. Returns the entry for a message's text (what the data port delivers).
 */
export function serveCacheWriter(
  port: WriterPort,
  { pieceGapMs = PIECE_GAP_MS, roadGapMs = pieceGapMs }: WriterOptions = {},
): (raw: unknown) => { road: number; seq: number } | null {
  let joiner = new PieceJoiner();
  const joined = new Map<string, JoinedEvent>();
  const caches = new Map<string, Promise<CustomerCache>>();
  const cacheOf = (accountKey: string) => {
    let cache = caches.get(accountKey);
    if (!cache) caches.set(accountKey, (cache = CustomerCache.open(accountKey)));
    return cache;
  };
  const reply = (message: WriterReply) => port.postMessage(message);
  // Customers in each account's cache after the last write that could change their number.
  // IndexedDB's count() walks the whole store, and Chromium serves the page's reads after it:
  // counting after every outbox mirror held the edited record's read-back by that long. An outbox
  // mirror changes the number only when it or the one before it holds a create or a delete of a
  // customer; otherwise the last count stands.
  const counts = new Map<string, number>();
  const existenceOps = new Map<string, boolean>();
  const countOf = async (cache: CustomerCache, known: number | null = null) => {
    const count = known ?? (await cache.db.customers.count());
    counts.set(cache.accountKey, count);
    return count;
  };
  const saves = new StreamSaves(cacheOf, pieceGapMs);
  /** Main's signed-in account at the road's current point (undefined: not said yet). */
  let session: string | null | undefined;
  /** Accounts the page signed out of, until main signs them in again. */
  const closed = new Set<string>();
  const applies = (accountKey: string) => session === accountKey && !closed.has(accountKey);
  /** Customers taken so far of each stream being received. */
  const received = new Map<string, number>();

  // Writes run one after another, in the road's order (a stream's pieces go to its open save
  // as they come: they never wait behind a write queued after the stream began).
  let queue: Promise<unknown> = Promise.resolve();
  const outboxes = new OutboxInbox<{ road: number; seq: number }>();
  const enqueue = (task: () => Promise<void>) => {
    outboxes.closeTail();
    queue = queue.then(task).catch((error: unknown) => {
      console.error('fieldmap: a cache write failed', error);
    });
  };

  const applyOutbox = async (
    { accountKey, ops, acknowledged, reached = [] }: EventOf<'outbox:changed'>,
    { road, seq }: { road: number; seq: number },
  ): Promise<void> => {
    if (!applies(accountKey)) return;
    const cache = await cacheOf(accountKey);
    await cache.setPendingOps(ops, acknowledged);
    const existence = ops.some(
      (op) => op.kind === 'createCustomer' || op.kind === 'deleteCustomer',
    );
    const before = existenceOps.get(accountKey) ?? true;
    existenceOps.set(accountKey, existence);
    const known = counts.get(accountKey);
    const count = existence || before || known === undefined ? await countOf(cache) : known;
    const held = ops.flatMap((op) => (op.state === 'done' ? [] : [op.opId]));
    const payload = { accountKey, reached, held, queue: queueCounts(ops) };
    reply({ kind: 'applied', road, seq, accountKey, count, event: 'outbox:changed', payload });
  };

  const applyResolved = async (payload: EventOf<'ids:resolved'>, road: number, seq: number) => {
    const { accountKey } = payload;
    if (!applies(accountKey)) return;
    const cache = await cacheOf(accountKey);
    await cache.resolveId(payload.kind, payload.tempId, payload.id);
    const count = await countOf(cache);
    reply({ kind: 'applied', road, seq, accountKey, count, event: 'ids:resolved', payload });
  };

  /** A state event in its turn (validated here: the road's schema leaves payloads to this). */
  const takeEvent = (message: Extract<RoadMessage, { event: StateEvent }>) => {
    const { road, seq } = message;
    const checked = v.safeParse(eventChannels[message.event], message.payload);
    if (!checked.success)
      return console.error(`fieldmap: refused a malformed ${message.event} on the road`);
    switch (message.event) {
      case 'session:changed': {
        // In the road's order: the writes after this message are for this account.
        const payload = checked.output as EventOf<'session:changed'>;
        const accountKey = payload?.accountKey ?? null;
        session = accountKey;
        if (accountKey !== null) closed.delete(accountKey);
        const at = { kind: 'applied', road, seq, accountKey, count: null } as const;
        return enqueue(async () => reply({ ...at, event: 'session:changed', payload }));
      }
      case 'sync:state': {
        const payload = checked.output as EventOf<'sync:state'>;
        const at = { kind: 'applied', road, seq, accountKey: null, count: null } as const;
        return enqueue(async () => reply({ ...at, event: 'sync:state', payload }));
      }
      case 'outbox:changed':
        return outboxes.push(checked.output as EventOf<'outbox:changed'>, enqueue, applyOutbox, {
          road,
          seq,
        });
      case 'ids:resolved': {
        const payload = checked.output as EventOf<'ids:resolved'>;
        return enqueue(() => applyResolved(payload, road, seq));
      }
    }
  };

  /** Applies the event joined from a stream that was not saved while it came (it never opened). */
  const applyJoined = async (event: JoinedEvent | undefined): Promise<number | null> => {
    if (!event) return null;
    const cache = await cacheOf(event.payload.accountKey);
    const applied =
      event.event === 'data:snapshot'
        ? await cache.applySnapshot(event.payload)
        : await cache.applyDelta(event.payload);
    return applied ? countOf(cache) : null;
  };

  /** A stream's end: its save's outcome, reported in its turn. */
  const finish = async (road: number, seq: number, piece: DataPiece): Promise<void> => {
    const { stream, accountKey } = piece;
    const save: StreamSave | undefined = saves.finish(stream);
    let count: number | null = null;
    let failure: StorageFailure | null = null;
    if (piece.abort) {
      // Main gave the stream up (its pull failed): nothing of it is kept, and no one asks again.
    } else if (save) {
      save.progress = (done) =>
        reply({ kind: 'saving', stream, accountKey, done, total: piece.total });
      if (save.written > 0) save.progress(save.written);
      // A snapshot's save knows its count: a count() walks the whole store (100k: the stream's
      // report, and so the page's adoption and "Synced", waited for it).
      if (await save.done) count = await countOf(await cacheOf(accountKey), save.customers);
      failure = save.failure;
    } else {
      const event = joined.get(stream);
      joined.delete(stream);
      count = await applyJoined(event).catch((error: unknown) => {
        console.error(`fieldmap: a data stream was not saved: ${String(error)}`, error);
        failure = storageFailureOf(error);
        return null;
      });
    }
    const saved = count !== null;
    const end = { kind: 'applied', road, seq, accountKey, count, stream, saved } as const;
    reply(!saved && failure ? { ...end, failure } : end);
    if (!saved && !piece.abort) reply({ kind: 'lost', road, seq });
  };

  /** Takes a piece in the road's order: its stream's save starts in its turn of the writes. */
  const takePiece = (road: number, seq: number, piece: DataPiece, json: string | undefined) => {
    const { stream } = piece;
    if (!applies(piece.accountKey)) return;
    if (piece.abort) {
      saves.abort(stream);
      joiner.drop(stream);
      joined.delete(stream);
      received.delete(stream);
      reply({ kind: 'piece', meta: metaOf(piece, true) });
      enqueue(() => finish(road, seq, piece));
      return;
    }
    if (piece.index === 0) {
      received.set(stream, 0);
      enqueue(async () => {
        // The kept pieces go to the save: the joined copy is dropped.
        if (await saves.open(stream)) {
          joiner.drop(stream);
          joined.delete(stream);
        }
      });
    }
    const count =
      (received.get(stream) ?? 0) + (piece.path[0] === 'customers' ? piece.items.length : 0);
    received.set(stream, count);
    const meta = metaOf(piece, false, count);
    // The page keeps a snapshot's customers while they are saved (snapshot-stage.ts).
    const staged = json !== undefined && piece.event === 'data:snapshot' && meta.customers > 0;
    if (!saves.take(piece)) {
      try {
        const whole = joiner.add(piece);
        saves.keep(piece);
        if (whole) joined.set(stream, whole);
      } catch (error) {
        // A piece out of its stream's order cannot happen on an ordered road but for a stream
        // whose start belonged to an older road: that stream is over.
        console.error('fieldmap: dropped a data stream', error);
        saves.drop(stream);
        received.delete(stream);
        reply({ kind: 'piece', meta: metaOf(piece, true) });
        return;
      }
    }
    reply(staged ? { kind: 'piece', meta, json } : { kind: 'piece', meta });
    if (piece.index === piece.count - 1) {
      received.delete(stream);
      enqueue(() => finish(road, seq, piece));
    }
  };

  const deliver = (message: RoadMessage, text: string | undefined) => {
    const { road, seq } = message;
    if ('piece' in message) {
      // The piece's own text, cut from the message's (the page parses only that).
      const json = text === undefined ? undefined : pieceText(text);
      return takePiece(road, seq, message.piece, json);
    }
    takeEvent(message);
  };

  const reader = new RoadReader(
    deliver,
    () => {
      // A new road: streams of the old one will never end.
      saves.failAll();
      joiner = new PieceJoiner();
      joined.clear();
      received.clear();
    },
    (road, seq) => reply({ kind: 'lost', road, seq }),
    roadGapMs,
  );

  /**
   * A road message: its text (from the data port), or an object (through the page). Returns its
   * place on the road, or null when it was refused.
   */
  const takeRaw = (raw: unknown): { road: number; seq: number } | null => {
    let text: string | undefined;
    let value = raw;
    if (typeof raw === 'string') {
      text = raw;
      try {
        value = JSON.parse(raw);
      } catch {
        console.error('fieldmap: refused a road message that is not JSON');
        return null;
      }
    }
    const parsed = v.safeParse(RoadMessageSchema, value);
    if (!parsed.success) {
      console.error('fieldmap: refused a malformed road message');
      return null;
    }
    reader.take(parsed.output, text);
    return { road: parsed.output.road, seq: parsed.output.seq };
  };

  port.onmessage = (message) => {
    const request = message.data as WriterRequest;
    if (request.kind === 'road') return void takeRaw(request.message);
    if (request.kind === 'data-port') {
      const dataPort = request.port;
      // Each message taken is reported back on the port: main sends a stream's next pieces only
      // while few are still on their way (Road.room), instead of queuing a whole account.
      dataPort.onmessage = (event) => {
        const place = takeRaw(event.data);
        if (place) dataPort.postMessage(tookReport(place.road, place.seq));
      };
      request.port.postMessage(DATA_PORT_READY);
      return;
    }
    enqueue(async () => {
      try {
        if (request.kind === 'close') {
          closed.add(request.accountKey);
          counts.delete(request.accountKey);
          existenceOps.delete(request.accountKey);
          saves.failAccount(request.accountKey);
          const cache = caches.get(request.accountKey);
          caches.delete(request.accountKey);
          (await cache)?.close();
        }
        reply({ kind: 'done', id: request.id });
      } catch (error) {
        reply({ kind: 'failed', id: request.id, message: String(error) });
      }
    });
  };
  return takeRaw;
}

/** The text of the piece in a road message's text (as Road.postPiece writes it). */
function pieceText(text: string): string | undefined {
  const at = text.indexOf('"piece":');
  return at < 0 || !text.endsWith('}') ? undefined : text.slice(at + 8, -1);
}
