// The one road from main to the cache worker. Everything main says that changes the cache or its
// meaning (the session, the sync state, the outbox mirror, resolved ids, snapshots and deltas in
// pieces) is one numbered message on it: `road` names one opening of it (the page asks for one
// when it starts, and again to recover), `seq` its place. A message goes the worker's own way
// when that listens (Electron's data port, the browser runner's socket joined to one), else
// through the page, which hands it on unread; the worker applies messages in `seq` order only,
// whichever way each came, so no order between the two transports matters. A message that never
// comes (a page that loaded again, a transport that dropped it) is a gap the worker reports once;
// the page then opens a new road, main starts it with its state as it is now, and the page asks
// for the snapshot its cache lacks. There is no other recovery.
import * as v from 'valibot';
import {
  DataPieceSchema,
  isPiecedEvent,
  PIECE_ITEMS,
  splitEvent,
  streamPieces,
  type DataPiece,
  type OpenSnapshotStream,
  type PiecedEvent,
} from './data-pieces';
import type { EventChannel, EventOf } from './ipc-contract';

/** Main's events that are not records but change what the cache holds or means. */
export const STATE_EVENTS = [
  'session:changed',
  'sync:state',
  'outbox:changed',
  'ids:resolved',
] as const;
export type StateEvent = (typeof STATE_EVENTS)[number];

const Place = {
  road: v.pipe(v.number(), v.integer(), v.minValue(1)),
  seq: v.pipe(v.number(), v.integer(), v.minValue(1)),
};

/** A message on the road: a data piece, or a state event (its payload checked by the worker). */
export const RoadMessageSchema = v.union([
  v.object({ ...Place, piece: DataPieceSchema }),
  v.object({ ...Place, event: v.picklist(STATE_EVENTS), payload: v.unknown() }),
]);
export type RoadMessage = v.InferOutput<typeof RoadMessageSchema>;

export function isRoadEvent(event: EventChannel): event is StateEvent | PiecedEvent {
  return isPiecedEvent(event) || (STATE_EVENTS as readonly string[]).includes(event);
}

/** How a road's messages leave main for one page. */
export interface RoadTransport {
  /** The cache worker's own channel when it listens (it takes a message's text), else null. */
  direct(): ((text: string) => void) | null;
  /** Through the page ('data:road' over IPC), which hands the message to the worker unread. */
  viaPage(message: RoadMessage): void;
  /**
   * Runs `fn` after `ms` unless the returned function cancels it (main's timer: src-shared has
   * none). With it, a stream that waited ROOM_STALL_MS for room with no report sends on.
   */
  later?(fn: () => void, ms: number): () => void;
}

/**
 * Messages of a stream that may be on their way to the worker (sent on its own channel, not yet
 * reported taken) before the stream waits for room (Road.room): a few pieces keep the worker fed
 * while main holds at most this many of them.
 */
export const STREAM_WINDOW = 4;
/**
 * How long a stream waits for a worker that reports nothing taken before it sends on without
 * room (a worker that stopped reporting must not hold a sync for good); the worker's own wait
 * for a stream's next piece (PIECE_GAP_MS) is longer.
 */
export const ROOM_STALL_MS = 10_000;

/** Main's end of the road to one page. Closed (dropping messages) until the page opens it. */
export class Road {
  #opened = 0;
  #id = 0;
  #seq = 0;
  /**
   * Pieces of the open road sent on the worker's own channel and not yet reported taken; counted
   * only once the worker reported a message of this road (a transport that reports nothing never
   * makes a stream wait).
   */
  readonly #onTheirWay = new Set<number>();
  #reporting = false;
  #waiters: Array<() => void> = [];

  constructor(private readonly transport: RoadTransport) {}

  /** The worker took message `seq` of road `road` off its own channel (its report to main). */
  took(road: number, seq: number): void {
    if (road !== this.#id) return;
    this.#reporting = true;
    if (this.#onTheirWay.delete(seq)) this.#wake();
  }

  /**
   * Resolves once at most `max` messages sent on the worker's own channel are still on their way
   * (at once when none is, or the road is closed or opened again), or after ROOM_STALL_MS without
   * a report: what a stream awaits before its next piece.
   */
  room(max = STREAM_WINDOW): Promise<void> {
    if (this.#onTheirWay.size <= max || this.#id === 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const check = () => {
        if (this.#onTheirWay.size > max && this.#id !== 0) return false;
        cancel?.();
        resolve();
        return true;
      };
      const waiter = () => {
        if (!check()) this.#waiters.push(waiter);
      };
      this.#waiters.push(waiter);
      const cancel = this.transport.later?.(() => {
        // Nothing reported for that long: nothing more is counted until the worker reports again.
        this.#reporting = false;
        this.#onTheirWay.clear();
        this.#wake();
      }, ROOM_STALL_MS);
    });
  }

  /** A stream waits for room on this road. */
  get waiting(): boolean {
    return this.#waiters.length > 0;
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const waiter of waiters) waiter();
  }

  /** The open road's id, or 0. */
  get id(): number {
    return this.#id;
  }

  /** Opens a new road: numbering starts again, and messages of older roads go nowhere. */
  open(): number {
    this.#id = ++this.#opened;
    this.#seq = 0;
    this.#reporting = false;
    this.#onTheirWay.clear();
    this.#wake();
    return this.#id;
  }

  /** The page is gone or loading: nothing is sent until it opens a road again. */
  close(): void {
    this.#id = 0;
    this.#reporting = false;
    this.#onTheirWay.clear();
    this.#wake();
  }

  /** Sends a state event on road `road` (the open one by default); false when that is closed. */
  postEvent(event: StateEvent, payload: unknown, road = this.#id): boolean {
    if (road === 0 || road !== this.#id) return false;
    const message = { road, seq: ++this.#seq, event, payload };
    const direct = this.transport.direct();
    if (direct) direct(JSON.stringify(message));
    else this.transport.viaPage(message);
    return true;
  }

  /**
   * Sends a piece. Its text is the message's JSON made at once, not the piece's JSON wrapped:
   * a wrapped text is copied whole again where it is sent, a few MB of main's heap per piece.
   */
  postPiece(piece: DataPiece, road = this.#id): boolean {
    if (road === 0 || road !== this.#id) return false;
    const seq = ++this.#seq;
    const direct = this.transport.direct();
    if (direct) {
      if (this.#reporting) this.#onTheirWay.add(seq);
      direct(JSON.stringify({ road, seq, piece }));
    } else this.transport.viaPage({ road, seq, piece });
    return true;
  }
}

/** Main's emitter, with the road's opening for the handler of 'data:open'. */
export type RoadEmit = (<E extends EventChannel>(event: E, payload: EventOf<E>) => void) & {
  openSnapshotStream: OpenSnapshotStream;
  /** Opens a new road to every page (main then posts its state: main-services.ts). */
  openRoad(): void;
};

/**
 * Wraps a transport's `send` (for every event not on the road) and its roads (one per page):
 * road events go on every open road, a snapshot or delta as pieces of at most `max` records.
 */
export function roadEmitter(
  send: (event: EventChannel, payload: unknown) => void,
  roads: () => Iterable<Road>,
  max = PIECE_ITEMS,
): RoadEmit {
  let streams = 0;
  // Unique across app starts too: the cache remembers the stream its snapshot came in.
  const prefix = [1, 2].map(() => Math.random().toString(36).slice(2, 10)).join('');
  const emit = ((event: EventChannel, payload: unknown) => {
    if (!isRoadEvent(event)) return send(event, payload);
    if (!isPiecedEvent(event)) {
      for (const road of roads()) road.postEvent(event, payload);
      return;
    }
    const stream = `${prefix}-${++streams}`;
    const pieces = splitEvent(stream, event, payload as EventOf<PiecedEvent>, max, true)!;
    for (const piece of pieces) for (const road of roads()) road.postPiece(piece);
  }) as RoadEmit;
  emit.openSnapshotStream = (head, counts) => {
    // A stream stays on the roads open when it began: a road opened meanwhile starts afresh.
    const bound = [...roads()].map((road) => [road, road.id] as const);
    return streamPieces(
      `${prefix}-${++streams}`,
      head,
      counts,
      max,
      (piece) => {
        for (const [road, id] of bound) road.postPiece(piece, id);
      },
      async () => {
        for (const [road] of bound) await road.room();
      },
    );
  };
  emit.openRoad = () => {
    for (const road of roads()) road.open();
  };
  return emit;
}
