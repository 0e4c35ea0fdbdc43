// "Who is near here" off the UI thread: a module worker holds the spatial index
// (src-shared/nearby.ts, kdbush) of the account's customer positions; the page asks it for the
// customers within a radius of a point and gets back their indices and distances, nearest first.
// The page sends positions as two Float64Array columns, transferred (not 100k objects cloned),
// once per data version and only when a search needs them; the worker rebuilds its tree from
// them (a long task at 100k, but the worker's). One side runs in the worker (serveNearby), the
// other in the page (NearbyClient); both talk over any MessagePort-like pair.
import type { LngLat } from '../../../../src-shared';
import { NearbyIndex } from '../../../../src-shared/nearby';

export type ToNearbyWorker =
  | { kind: 'build'; version: number; lng: Float64Array; lat: Float64Array }
  | {
      kind: 'query';
      id: number;
      version: number;
      center: LngLat;
      radiusMeters: number;
      limit: number;
      /** Index of a customer never to return (the one the search is around), or -1. */
      exclude: number;
    };

export type FromNearbyWorker =
  | {
      kind: 'result';
      id: number;
      /** Indices into the customers of `version`, nearest first, at most `limit`. */
      indices: Uint32Array;
      meters: Float64Array;
      /** Customers within the radius in all (beyond the limit too). */
      total: number;
    }
  | { kind: 'error'; id: number; message: string };

/** The part of a MessagePort (or a Worker, or a worker's global scope) both sides use. */
export interface NearbyPort {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent) => unknown) | null;
}

/** The worker's side: keeps the index of the last version built, answers queries on it. */
export function serveNearby(port: NearbyPort): void {
  let index: { version: number; tree: NearbyIndex } | null = null;
  port.onmessage = (event) => {
    const message = event.data as ToNearbyWorker;
    if (message.kind === 'build') {
      index = { version: message.version, tree: new NearbyIndex(message) };
      return;
    }
    const { id, version, center, radiusMeters, limit, exclude } = message;
    if (!index || index.version !== version) {
      const answer: FromNearbyWorker = { kind: 'error', id, message: 'stale data version' };
      return port.postMessage(answer);
    }
    try {
      const { hits, total } = index.tree.search(center, radiusMeters, { limit, exclude });
      const indices = Uint32Array.from(hits, (h) => h.index);
      const meters = Float64Array.from(hits, (h) => h.meters);
      const answer: FromNearbyWorker = { kind: 'result', id, indices, meters, total };
      port.postMessage(answer, [indices.buffer, meters.buffer]);
    } catch (error) {
      port.postMessage({ kind: 'error', id, message: String(error) } satisfies FromNearbyWorker);
    }
  };
}

export interface NearbyAnswer<T> {
  /** The items within the radius, nearest first, with their distance in metres. */
  hits: Array<{ item: T; meters: number }>;
  total: number;
}

/**
 * The page's side. `search` takes the current list of items (customers) with their positions;
 * a list it has not sent yet (a new data version: a new array) goes to the worker first as
 * columns, so an edit costs one cheap column pass here and one rebuild there, and only when
 * someone searches.
 */
export class NearbyClient<T extends { position: LngLat | null }> {
  #port: NearbyPort;
  #sent: readonly T[] | null = null;
  #version = 0;
  #next = 0;
  #waiting = new Map<
    number,
    { items: readonly T[]; resolve: (a: NearbyAnswer<T>) => void; reject: (e: Error) => void }
  >();

  constructor(port: NearbyPort) {
    this.#port = port;
    port.onmessage = (event) => this.#answer(event.data as FromNearbyWorker);
  }

  search(
    items: readonly T[],
    center: LngLat,
    radiusMeters: number,
    options: { limit: number; exclude?: T | undefined },
  ): Promise<NearbyAnswer<T>> {
    if (items !== this.#sent) {
      this.#sent = items;
      this.#version++;
      const lng = new Float64Array(items.length);
      const lat = new Float64Array(items.length);
      for (let i = 0; i < items.length; i++) {
        const p = items[i]!.position;
        lng[i] = p ? p[0] : NaN;
        lat[i] = p ? p[1] : NaN;
      }
      const build: ToNearbyWorker = { kind: 'build', version: this.#version, lng, lat };
      this.#port.postMessage(build, [lng.buffer, lat.buffer]);
    }
    const id = ++this.#next;
    const exclude = options.exclude === undefined ? -1 : items.indexOf(options.exclude);
    const query: ToNearbyWorker = {
      kind: 'query',
      id,
      version: this.#version,
      center,
      radiusMeters,
      limit: options.limit,
      exclude,
    };
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { items, resolve, reject });
      this.#port.postMessage(query);
    });
  }

  /** Rejects every search still waiting (the worker failed or is going away). */
  fail(error: Error): void {
    for (const waiting of this.#waiting.values()) waiting.reject(error);
    this.#waiting.clear();
  }

  #answer(answer: FromNearbyWorker): void {
    const waiting = this.#waiting.get(answer.id);
    if (!waiting) return;
    this.#waiting.delete(answer.id);
    if (answer.kind === 'error') return waiting.reject(new Error(answer.message));
    const hits = Array.from(answer.indices, (index, k) => ({
      item: waiting.items[index]!,
      meters: answer.meters[k]!,
    }));
    waiting.resolve({ hits, total: answer.total });
  }
}
