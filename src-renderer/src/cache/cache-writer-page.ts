// The page's side of the cache writer (cache-writer.ts has the worker's side and the messages).
// The page never writes the cache and never reads main's road: it hands the worker main's data
// port and the road messages that came through the page, and hears what the worker applied.
import type { WriterPort, WriterReply, WriterRequest } from './cache-writer';

type Call = { resolve(): void; reject(e: Error): void };
type Report = Exclude<WriterReply, { kind: 'done' } | { kind: 'failed' }>;

/** The page's side: one worker for the page's life. */
export class CacheWriter {
  #next = 0;
  #calls = new Map<number, Call>();
  #broken: string | null = null;
  #listeners = new Set<(report: Report) => void>();

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
    if (reply.kind !== 'done' && reply.kind !== 'failed') {
      for (const listener of this.#listeners) listener(reply);
      return;
    }
    const call = this.#calls.get(reply.id);
    if (!call) return;
    this.#calls.delete(reply.id);
    if (reply.kind === 'done') call.resolve();
    else call.reject(new Error(`the cache write failed: ${reply.message}`));
  }

  #call(request: { kind: 'close'; accountKey: string } | { kind: 'idle' }): Promise<void> {
    if (this.#broken) return Promise.reject(new Error(this.#broken));
    const id = ++this.#next;
    return new Promise((resolve, reject) => {
      this.#calls.set(id, { resolve, reject });
      this.#port.postMessage({ ...request, id } satisfies WriterRequest);
    });
  }

  /** Hears the worker's reports (pieces taken, saves, messages applied, a lost road). */
  listen(listener: (report: Report) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Hands on a road message that came through the page, unread. */
  road(message: unknown): void {
    this.#port.postMessage({ kind: 'road', message } satisfies WriterRequest);
  }

  /** Hands main's data port (Electron) to the worker: main's messages then skip the page. */
  connectData(port: MessagePort): void {
    this.#port.postMessage({ kind: 'data-port', port } satisfies WriterRequest, [port]);
  }

  /** Signs the worker out of an account (before its cache is deleted). */
  close(accountKey: string): Promise<void> {
    return this.#call({ kind: 'close', accountKey });
  }

  /** Resolves once everything the worker has taken so far is applied. */
  idle(): Promise<void> {
    return this.#call({ kind: 'idle' });
  }
}
