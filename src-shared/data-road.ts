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
}

/** Main's end of the road to one page. Closed (dropping messages) until the page opens it. */
export class Road {
  #opened = 0;
  #id = 0;
  #seq = 0;

  constructor(private readonly transport: RoadTransport) {}

  /** The open road's id, or 0. */
  get id(): number {
    return this.#id;
  }

  /** Opens a new road: numbering starts again, and messages of older roads go nowhere. */
  open(): number {
    this.#id = ++this.#opened;
    this.#seq = 0;
    return this.#id;
  }

  /** The page is gone or loading: nothing is sent until it opens a road again. */
  close(): void {
    this.#id = 0;
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

  /** Sends a piece (`text`: its JSON, made once for every road it goes to). */
  postPiece(piece: DataPiece, text: string, road = this.#id): boolean {
    if (road === 0 || road !== this.#id) return false;
    const seq = ++this.#seq;
    const direct = this.transport.direct();
    if (direct) direct(`{"road":${road},"seq":${seq},"piece":${text}}`);
    else this.transport.viaPage({ road, seq, piece });
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
    for (const piece of pieces) {
      const text = JSON.stringify(piece);
      for (const road of roads()) road.postPiece(piece, text);
    }
  }) as RoadEmit;
  emit.openSnapshotStream = (head, counts) => {
    // A stream stays on the roads open when it began: a road opened meanwhile starts afresh.
    const bound = [...roads()].map((road) => [road, road.id] as const);
    return streamPieces(`${prefix}-${++streams}`, head, counts, max, (piece) => {
      const text = JSON.stringify(piece);
      for (const [road, id] of bound) road.postPiece(piece, text, id);
    });
  };
  emit.openRoad = () => {
    for (const road of roads()) road.open();
  };
  return emit;
}
