// Large data crosses process boundaries in pieces: every snapshot and delta leaves main as a
// sequence of pieces of at most PIECE_ITEMS records each (the first also carries the payload with
// its record arrays emptied), each one message on the road to the cache worker (data-road.ts),
// which joins or saves them back into the one event it applies. So no message grows with the
// account (a 100k snapshot as one message is ~76 MB, which Chromium's CDP connection drops).
import * as v from 'valibot';
import type { EventChannel, EventOf } from './ipc-contract';

/** Records per piece: ~1.5 MB of customers, small enough for any transport to carry. */
export const PIECE_ITEMS = 2_000;

export const PIECED_EVENTS = ['data:snapshot', 'data:delta'] as const;
export type PiecedEvent = (typeof PIECED_EVENTS)[number];

export const DataPieceSchema = v.object({
  /** One id per split event, unique for the emitter. */
  stream: v.string(),
  event: v.picklist(PIECED_EVENTS),
  accountKey: v.string(),
  index: v.pipe(v.number(), v.integer(), v.minValue(0)),
  count: v.pipe(v.number(), v.integer(), v.minValue(1)),
  /** Customers in the whole event, upserted and deleted (progress: "8,000 of 20,000"). */
  total: v.pipe(v.number(), v.integer(), v.minValue(0)),
  /** Piece 0 only: the event's payload with every record array emptied. */
  head: v.optional(v.record(v.string(), v.unknown())),
  /** Where the items go: a top-level array (`customers`) or one a level down (`customers.upserted`). */
  path: v.pipe(v.array(v.string()), v.minLength(1), v.maxLength(2)),
  items: v.pipe(v.array(v.unknown()), v.maxLength(PIECE_ITEMS)),
  /**
   * The stream is given up (main's pull failed while it was being sent: openSnapshotStream):
   * nothing of it is kept, its save is rolled back. Carries no items.
   */
  abort: v.optional(v.literal(true)),
});
export type DataPiece = v.InferOutput<typeof DataPieceSchema>;

type Obj = Record<string, unknown>;
/** The payload fields that hold records (directly, or as a delta's upserted/deleted). */
const RECORD_KEYS = new Set(['customers', 'routes', 'territories']);
const isObj = (value: unknown): value is Obj =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The record arrays of a payload (one level down at most), and the payload with them emptied. */
function hollow(payload: Obj): { head: Obj; arrays: Array<{ path: string[]; items: unknown[] }> } {
  const head: Obj = { ...payload };
  const arrays: Array<{ path: string[]; items: unknown[] }> = [];
  for (const [key, value] of Object.entries(payload)) {
    if (!RECORD_KEYS.has(key)) continue;
    if (Array.isArray(value)) {
      arrays.push({ path: [key], items: value });
      head[key] = [];
    } else if (isObj(value)) {
      const inner: Obj = { ...value };
      for (const [sub, items] of Object.entries(value)) {
        if (!Array.isArray(items)) continue;
        arrays.push({ path: [key, sub], items });
        inner[sub] = [];
      }
      head[key] = inner;
    }
  }
  return { head, arrays };
}

/**
 * The pieces of a large event, or null when it fits in one message as it is. `always`: pieces
 * even for a small event (at least one), for a transport that carries every data event.
 */
export function splitEvent<E extends PiecedEvent>(
  stream: string,
  event: E,
  payload: EventOf<E>,
  max = PIECE_ITEMS,
  always = false,
): DataPiece[] | null {
  const { head, arrays } = hollow(payload as unknown as Obj);
  if (!always && arrays.every((a) => a.items.length <= max)) return null;
  const customers = (a: { path: string[] }) => a.path[0] === 'customers';
  const total = arrays.filter(customers).reduce((n, a) => n + a.items.length, 0);
  const parts: Array<{ path: string[]; items: unknown[] }> = [];
  for (const { path, items } of arrays) {
    for (let i = 0; i < items.length; i += max)
      parts.push({ path, items: items.slice(i, i + max) });
  }
  if (parts.length === 0) parts.push({ path: ['customers'], items: [] });
  const { accountKey } = payload;
  return parts.map((part, index) => ({
    stream,
    event,
    accountKey,
    index,
    count: parts.length,
    total,
    ...(index === 0 ? { head } : {}),
    ...part,
  }));
}

export function isPiecedEvent(event: EventChannel): event is PiecedEvent {
  return (PIECED_EVENTS as readonly string[]).includes(event);
}

/**
 * What the page learns of a piece: everything but its records. The cache worker tells the page of
 * each piece it takes, in the road's order (for the status bar, and a snapshot's text for the
 * list); `dropped`: the stream lost a piece.
 */
export interface PieceMeta {
  stream: string;
  event: PiecedEvent;
  accountKey: string;
  index: number;
  count: number;
  total: number;
  /** Piece 0, which starts the stream. */
  first: boolean;
  /** Customers this piece carries. */
  customers: number;
  /** Customers of its stream taken so far, this piece's included. */
  received: number;
  dropped: boolean;
  /** Main gave the stream up (its pull failed): dropped, and not to be asked for again. */
  aborted?: boolean;
}

export function metaOf(piece: DataPiece, dropped = false, received = 0): PieceMeta {
  const { stream, event, accountKey, index, count, total } = piece;
  const customers = piece.path[0] === 'customers' ? piece.items.length : 0;
  return {
    stream,
    event,
    accountKey,
    index,
    count,
    total,
    first: index === 0 && !!piece.head,
    customers,
    received,
    dropped: dropped || piece.abort === true,
    ...(piece.abort ? { aborted: true } : {}),
  };
}

/** A whole event joined from its pieces. */
export type JoinedEvent =
  | { event: 'data:snapshot'; payload: EventOf<'data:snapshot'> }
  | { event: 'data:delta'; payload: EventOf<'data:delta'> };

/**
 * Joins pieces (in the order they were sent) back into whole events. A piece out of order, or
 * of a stream whose start was missed, drops that stream: main resends a full snapshot on request.
 */
export class PieceJoiner {
  #streams = new Map<string, { head: Obj; next: number; received: number }>();

  /** Adds a piece; returns the whole event once its last piece is in, else null. */
  add(piece: DataPiece): JoinedEvent | null {
    let stream = this.#streams.get(piece.stream);
    if (piece.index === 0 && piece.head) {
      stream = { head: piece.head, next: 0, received: 0 };
      this.#streams.set(piece.stream, stream);
    }
    if (!stream || stream.next !== piece.index) {
      this.#streams.delete(piece.stream);
      throw new Error(`data piece ${piece.index} of ${piece.stream} arrived out of order`);
    }
    const [key, sub] = piece.path as [string, string | undefined];
    const holder = sub === undefined ? stream.head : (stream.head[key] as Obj);
    const target = holder[sub ?? key] as unknown[];
    for (const item of piece.items) target.push(item);
    stream.next++;
    if (key === 'customers') stream.received += piece.items.length;
    if (stream.next < piece.count) return null;
    this.#streams.delete(piece.stream);
    return { event: piece.event, payload: stream.head } as unknown as JoinedEvent;
  }

  /** Forgets a stream (its pieces go elsewhere now). */
  drop(stream: string): void {
    this.#streams.delete(stream);
  }

  /** Customers received so far of a stream. */
  received(stream: string): number {
    return this.#streams.get(stream)?.received ?? 0;
  }
}

/** A snapshot's pieces sent while main still reads it (openSnapshotStream). */
export interface SnapshotStream {
  /** The next records of one kind; sent in pieces of at most PIECE_ITEMS, kinds one after another. */
  add(kind: RecordKind, items: readonly unknown[]): void;
  /** Every record was added: the last piece goes (the counts must have been met). */
  end(): void;
  /** The pull failed: the renderer drops what came of the stream, its save rolled back. */
  abort(): void;
  /**
   * Resolves once the transport has room for the next pieces (few sent are still on their way
   * to the worker): a reader that adds faster than the page takes waits here instead of queuing.
   */
  room(): Promise<void>;
}

export type RecordKind = 'customers' | 'routes' | 'territories';

/**
 * Opens a snapshot that is sent while main still reads it: `head` is the payload with its record
 * arrays empty, `counts` how many records of each kind will come (every piece carries the
 * stream's piece count and total). Null when the transport cannot stream.
 */
export type OpenSnapshotStream = (
  head: EventOf<'data:snapshot'>,
  counts: Record<RecordKind, number>,
) => SnapshotStream | null;

/** The pieces of a snapshot streamed as its records are added (see OpenSnapshotStream). */
export function streamPieces(
  stream: string,
  payload: EventOf<'data:snapshot'>,
  counts: Record<RecordKind, number>,
  max: number,
  deliver: (piece: DataPiece) => void,
  room: () => Promise<void> = () => Promise.resolve(),
): SnapshotStream {
  const { head } = hollow(payload as unknown as Obj);
  const kinds: RecordKind[] = ['customers', 'routes', 'territories'];
  const count = Math.max(
    1,
    kinds.reduce((n, kind) => n + Math.ceil(counts[kind] / max), 0),
  );
  const { accountKey } = payload;
  const total = counts.customers;
  const event = 'data:snapshot' as const;
  let index = 0;
  let kind: RecordKind | null = null;
  let buffer: unknown[] = [];
  const added: Record<RecordKind, number> = { customers: 0, routes: 0, territories: 0 };
  let over = false;
  const piece = (path: RecordKind, items: unknown[], abort = false) => {
    deliver({
      stream,
      event,
      accountKey,
      index,
      count,
      total,
      ...(index === 0 && !abort ? { head } : {}),
      path: [path],
      items,
      ...(abort ? { abort } : {}),
    });
    index++;
  };
  const flush = () => {
    if (kind !== null && buffer.length > 0) piece(kind, buffer);
    buffer = [];
  };
  return {
    add(next, items) {
      if (over) throw new Error(`stream ${stream} is over`);
      if (kind !== next) {
        if (kind !== null && added[next] > 0) throw new Error(`${next} were added already`);
        flush();
        kind = next;
      }
      added[next] += items.length;
      if (added[next] > counts[next]) throw new Error(`more ${next} than announced`);
      for (const item of items) {
        buffer.push(item);
        if (buffer.length === max) flush();
      }
    },
    end() {
      if (over) return;
      flush();
      for (const k of kinds)
        if (added[k] !== counts[k]) throw new Error(`${added[k]} ${k} of ${counts[k]} added`);
      // An empty snapshot is one piece with no records, as splitEvent sends it.
      if (index === 0) piece('customers', []);
      over = true;
    },
    abort() {
      if (over) return;
      over = true;
      piece('customers', [], true);
    },
    room,
  };
}
