// The page's side of the cache writer (cache-writer.ts has the worker's side and the messages).
import type { Acknowledged, EventOf, Op } from '../../../src-shared';
import type { DataPiece, JoinedEvent, PieceMeta } from '../../../src-shared/data-pieces';
import type {
  DistributiveOmit,
  Served,
  WriterPort,
  WriterReply,
  WriterRequest,
} from './cache-writer';

type Call = {
  progress?: (done: number) => void;
  resolve(count: number | null): void;
  reject(e: Error): void;
};

/** The page's side: one worker for the page's life; calls resolve in the order they were made. */
export class CacheWriter {
  #next = 0;
  #calls = new Map<number, Call>();
  #broken: string | null = null;
  #onPiece: ((meta: PieceMeta, json?: string) => void) | null = null;
  #onUnsaved: ((stream: string, accountKey: string) => void) | null = null;

  readonly #port: WriterPort;

  /** Starts the worker; tests may hand in a port instead. */
  constructor(port?: WriterPort) {
    if (port) this.#port = port;
    else {
      const worker = new Worker(new URL('./cache-writer.worker.ts', import.meta.url), {
        type: 'module',
      });
      worker.addEventListener('error', (event) =>
        this.#fail(event.message || 'the cache worker did not start'),
      );
      this.#port = worker as unknown as WriterPort;
    }
    this.#port.onmessage = (event) => this.#receive(event.data as WriterReply);
  }

  /** A worker that failed answers nothing more: every call waiting on it fails instead of hanging. */
  #fail(message: string): void {
    console.error('fieldmap: the cache worker failed', message);
    this.#broken = `the cache worker failed: ${message}`;
    for (const call of this.#calls.values()) call.reject(new Error(this.#broken));
    this.#calls.clear();
  }

  #receive(reply: WriterReply): void {
    if (reply.kind === 'piece') return this.#onPiece?.(reply.meta, reply.json);
    if (reply.kind === 'unsaved') return this.#onUnsaved?.(reply.stream, reply.accountKey);
    const call = this.#calls.get(reply.id);
    if (!call) return;
    if (reply.kind === 'progress') return call.progress?.(reply.done);
    this.#calls.delete(reply.id);
    if (reply.kind === 'done') call.resolve(reply.count);
    else call.reject(new Error(`the cache write failed: ${reply.message}`));
  }

  #call(
    request: DistributiveOmit<Served, 'id'>,
    progress?: (done: number) => void,
  ): Promise<number | null> {
    if (this.#broken) return Promise.reject(new Error(this.#broken));
    const id = ++this.#next;
    return new Promise((resolve, reject) => {
      this.#calls.set(id, { resolve, reject, ...(progress ? { progress } : {}) });
      this.#port.postMessage({ ...request, id });
    });
  }

  /** Hands a piece that came through the page (main's fallback) to the worker, which joins it. */
  piece(piece: DataPiece): void {
    this.#port.postMessage({ kind: 'piece', piece } satisfies WriterRequest);
  }

  /**
   * Hears of every piece the worker receives, whichever way it came (its records left out), with
   * the piece's JSON text when it holds a snapshot's customers that came as text.
   */
  onPiece(listener: (meta: PieceMeta, json?: string) => void): void {
    this.#onPiece = listener;
  }

  /** Hears of every stream whose save failed in the worker (the cache kept what it held). */
  onUnsaved(listener: (stream: string, accountKey: string) => void): void {
    this.#onUnsaved = listener;
  }

  /** Hands main's data port (Electron) to the worker: main's pieces then skip the page. */
  connectData(port: MessagePort): void {
    this.#port.postMessage({ kind: 'data-port', port } satisfies WriterRequest, [port]);
  }

  /**
   * Opens a stream main announced: the worker saves its pieces as they arrive, after every write
   * asked of it before. Resolves once the save has started.
   */
  async openStream(stream: string, accountKey: string): Promise<void> {
    await this.#call({ kind: 'open', stream, accountKey });
  }

  /**
   * Applies the event joined from a stream's pieces (or, `apply` false, drops it); answers the
   * customers then cached, or null when nothing was applied.
   */
  applyStream(
    stream: string,
    apply: boolean,
    progress?: (done: number) => void,
  ): Promise<number | null> {
    return this.#call({ kind: 'stream', stream, apply }, progress);
  }

  /** Applies a whole (small) snapshot or delta. */
  apply(joined: JoinedEvent, progress?: (done: number) => void): Promise<number | null> {
    return this.#call({ kind: 'event', joined }, progress);
  }

  /**
   * Replaces the outbox mirror, and takes what the service acknowledged as server data in the
   * same write; answers the customers then cached.
   */
  setPendingOps(
    accountKey: string,
    ops: Op[],
    acknowledged?: Acknowledged,
  ): Promise<number | null> {
    return this.#call({
      kind: 'pending',
      accountKey,
      ops,
      ...(acknowledged ? { acknowledged } : {}),
    });
  }

  /** Rewrites a temp id to its server id everywhere in the cache; answers the customers then cached. */
  resolveId(resolved: EventOf<'ids:resolved'>): Promise<number | null> {
    const { accountKey, kind: target, tempId, id: serverId } = resolved;
    return this.#call({ kind: 'resolve', accountKey, target, tempId, serverId });
  }

  /** Closes the worker's connection to an account's cache (before it is deleted). */
  async close(accountKey: string): Promise<void> {
    await this.#call({ kind: 'close', accountKey });
  }
}
