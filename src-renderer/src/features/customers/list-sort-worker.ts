// The list's sort orders computed off the UI thread, once per data version (a first sort of a
// large account by a text column is a long task of the UI thread otherwise). The page sends
// the sort columns of a ListKeys (each text column as one joined string and its ends, which
// clone as a block, and last visit as a transferred copy); the worker answers every order, both
// directions, with list-orders.ts: the functions the UI thread falls back to, so the orders are
// the same by construction. Both sides of the port live here, so a test can run them on a
// MessageChannel without a worker.
import {
  SORT_KEYS,
  TEXT_SORTS,
  descendingFrom,
  orderName,
  sortedOrder,
  type SortColumns,
  type TextSort,
} from './list-orders';

/** A text column as one string and where each value ends in it. */
export interface PackedText {
  joined: string;
  ends: Uint32Array;
}

export interface SortRequest {
  version: number;
  n: number;
  text: Record<TextSort, PackedText>;
  lastVisitMs: Float64Array;
}

export interface SortAnswer {
  version: number;
  orders: Array<[string, Uint32Array]>;
}

/** The part of a MessagePort (or a Worker, or a worker's global scope) both sides use. */
export interface SortPort {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent) => unknown) | null;
  /** A Worker's: the page ends it when the account closes. */
  terminate?(): void;
}

export function packText(column: readonly string[]): PackedText {
  const ends = new Uint32Array(column.length);
  let at = 0;
  for (let i = 0; i < column.length; i++) {
    at += column[i]!.length;
    ends[i] = at;
  }
  return { joined: column.join(''), ends };
}

export function unpackText({ joined, ends }: PackedText): string[] {
  const out = new Array<string>(ends.length);
  let from = 0;
  for (let i = 0; i < ends.length; i++) {
    out[i] = joined.slice(from, ends[i]);
    from = ends[i]!;
  }
  return out;
}

/** Every order of the request's columns, ascending and descending. */
export function allOrders(request: SortRequest): Array<[string, Uint32Array]> {
  const text = {} as Record<TextSort, string[]>;
  for (const key of TEXT_SORTS) text[key] = unpackText(request.text[key]);
  const columns: SortColumns = { text, lastVisitMs: request.lastVisitMs };
  const orders: Array<[string, Uint32Array]> = [];
  for (const key of SORT_KEYS) {
    const asc = sortedOrder(columns, key, request.n);
    orders.push([orderName(key, 'asc'), asc]);
    orders.push([orderName(key, 'desc'), descendingFrom(columns, key, asc)]);
  }
  return orders;
}

/** The worker's side: answers each request with every order (transferred). */
export function serveSorts(port: SortPort): void {
  port.onmessage = (event) => {
    const request = event.data as SortRequest;
    const orders = allOrders(request);
    const answer: SortAnswer = { version: request.version, orders };
    port.postMessage(
      answer,
      orders.map(([, order]) => order.buffer as ArrayBuffer),
    );
  };
}
