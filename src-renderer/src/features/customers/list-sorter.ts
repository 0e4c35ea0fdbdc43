// The page's side of the sort worker (list-sort-worker.ts): after a data version whose orders
// are not all known (a first read, a large change), its columns go to the worker in a task of
// their own, and the answer is adopted into that version's ListKeys, so a later sort switch
// finds its order ready. One request at a time: while the worker sorts, only the newest
// version waits. Until an answer comes (or when the worker fails), ListKeys sorts on first use.
import { nextTask } from '../../ui/next-task';
import type { ListKeys } from './list-keys';
import { SORT_KEYS, TEXT_SORTS } from './list-orders';
import { packText, type SortAnswer, type SortPort, type SortRequest } from './list-sort-worker';

/** Below this many customers a sort on first use is a few ms: no worker is started for them. */
export const MIN_WORKER_ROWS = 5_000;

export class ListSorter {
  #port: SortPort | null = null;
  #open: () => SortPort;
  #version = 0;
  /** The version with the worker and its keys. */
  #busy: { version: number; keys: ListKeys } | null = null;
  /** The newest keys still to send. */
  #next: ListKeys | null = null;
  /** A send is scheduled for the next task. */
  #scheduled = false;
  #failed = false;
  /** Callers of `answered`, until the worker no longer owes their keys an answer. */
  #waiters: Array<{ keys: ListKeys; resolve(): void }> = [];

  /** `open` starts the worker (or, in a test, one end of a MessageChannel served by serveSorts). */
  constructor(open: () => SortPort) {
    this.#open = open;
  }

  /** Asks for every order of `keys` unless it knows them all already. */
  request(keys: ListKeys): void {
    if (this.#failed || keys.rows.length < MIN_WORKER_ROWS || complete(keys)) return;
    this.#next = keys;
    if (this.#busy === null && !this.#scheduled) {
      this.#scheduled = true;
      void nextTask().then(() => this.#send());
    }
    this.#settle();
  }

  /** True while the worker owes `keys` their orders (sent, or to be sent). */
  pending(keys: ListKeys): boolean {
    return !this.#failed && (this.#busy?.keys === keys || this.#next === keys);
  }

  /** Resolves once `keys` got the worker's orders, or will not (a newer version, a failure). */
  answered(keys: ListKeys): Promise<void> {
    if (!this.pending(keys)) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ keys, resolve }));
  }

  #settle(): void {
    const waiting = this.#waiters;
    this.#waiters = [];
    for (const waiter of waiting)
      if (this.pending(waiter.keys)) this.#waiters.push(waiter);
      else waiter.resolve();
  }

  /** The worker could not start or answer: every order is sorted on first use from now on. */
  fail(): void {
    this.#failed = true;
    this.#port?.terminate?.();
    this.#port = null;
    this.#busy = null;
    this.#next = null;
    this.#settle();
  }

  dispose(): void {
    this.fail();
  }

  /** Packs the columns one per task (each a join of 100k strings), then posts them. */
  async #send(): Promise<void> {
    this.#scheduled = false;
    const keys = this.#next;
    this.#next = null;
    if (keys === null || this.#failed || complete(keys)) return this.#settle();
    const version = ++this.#version;
    this.#busy = { version, keys };
    const text = {} as SortRequest['text'];
    for (const key of TEXT_SORTS) {
      text[key] = packText(keys.text[key]);
      await nextTask();
      if (this.#failed) return;
    }
    const lastVisitMs = keys.lastVisitMs.slice();
    const request: SortRequest = { version, n: keys.rows.length, text, lastVisitMs };
    const port = (this.#port ??= this.#connect());
    port.postMessage(request, [lastVisitMs.buffer]);
  }

  #connect(): SortPort {
    const port = this.#open();
    port.onmessage = (event) => this.#answer(event.data as SortAnswer);
    return port;
  }

  #answer(answer: SortAnswer): void {
    if (this.#busy?.version === answer.version) this.#busy.keys.adopt(new Map(answer.orders));
    this.#busy = null;
    this.#settle();
    if (this.#next !== null) void this.#send();
  }
}

function complete(keys: ListKeys): boolean {
  return SORT_KEYS.every((key) => keys.hasOrder(key, 'asc') && keys.hasOrder(key, 'desc'));
}
