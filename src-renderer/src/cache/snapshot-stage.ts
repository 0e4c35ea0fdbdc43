// The records of a snapshot main is sending, kept on the page while the cache worker saves them,
// so that the list need not read the whole table back once the save commits.
// After the worker's commit, the CustomerFeed's read-back of every customer of a large account
// takes seconds, almost all of them waiting on IndexedDB's backend, and the rep would look at
// "Showing 100,000 customers…" all that time. The worker hands on each customers piece's JSON
// text as it takes the piece (a string, copied: no structured clone of 2,000 records on either
// thread); the page parses it while the save runs (a short task a piece, while on a first sync
// the UI thread is otherwise idle; the first pull of each app start sends a snapshot too, so the page
// also holds a second copy of the customers while that one is saved)
// and keeps the records in the cache's primary-key order (each piece sorted, then merged with the
// runs before it, like a binary counter: no task sorts 100k at once). The merges run in slices,
// each its own task, behind the pieces (#compact), and a whole stream's last ones before the feed
// shows it (`merged`): a merge of 64k or 100k records in one task was the first sync's longest.
// The feed adopts a stream only when the committed cache says it holds exactly that snapshot
// (customer-feed.svelte.ts: the 'snapshotStream' marker, which only the snapshot's own save
// writes and every other change of the server data deletes), and reads the records the overlay
// changed from the cache itself. Anything else (a piece that came through the page without its
// text, a stream dropped, a marker for another stream) leaves the feed's full read-back in place.
// Listeners hear when a stream is whole (a first sync's feed then shows it before the commit:
// CustomerFeed #preview) and when one is let go unadopted (the feed then reads the cache back).
import type { PieceMeta } from '../../../src-shared/data-pieces';
import { compareById, RunMerge } from './id-order';
import { nextTask } from '../ui/next-task';
import type { CustomerRow } from './schema';

type Staged = {
  accountKey: string;
  count: number;
  /** Piece indices seen, in order (a gap means a piece is missing: never adopted). */
  seen: number;
  /** False once a customers piece came without its text: the stream cannot be adopted. */
  whole: boolean;
  /**
   * Runs of records in id order, each id once in a run (its last copy), longest first; two runs
   * merge when the newer grows as long. One run once merged (peek, merged).
   */
  runs: CustomerRow[][];
  /** The merges running in slices (#compact), until they have nothing left to merge. */
  compacting: Promise<void> | null;
};

/** Rows a merge in slices takes per task: a few ms. */
const MERGE_SLICE = 16_384;

/** Told when a stream is staged whole, and when a stream staged (whole or not) is let go unadopted. */
export interface StageListener {
  whole(stream: string, accountKey: string): void;
  gone(stream: string): void;
}

export class SnapshotStage {
  #streams = new Map<string, Staged>();
  /** Callers of `settled`, per stream. */
  #waiters = new Map<string, Array<() => void>>();
  #listeners = new Set<StageListener>();

  /** Adds a listener; returns its removal. */
  listen(listener: StageListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * A piece the cache worker took, with its JSON text when it carries a snapshot's customers.
   * A new snapshot of an account replaces any older one staged for it (only the newest can be
   * the cache's), so at most one copy per account is held.
   */
  add(meta: PieceMeta, json?: string): void {
    if (meta.event !== 'data:snapshot' || meta.dropped) {
      if (meta.dropped) this.#forget(meta.stream);
      return;
    }
    let staged = this.#streams.get(meta.stream);
    if (meta.index === 0) {
      for (const [stream, other] of this.#streams)
        if (other.accountKey === meta.accountKey) this.#forget(stream);
      staged = {
        accountKey: meta.accountKey,
        count: meta.count,
        seen: 0,
        whole: true,
        runs: [],
        compacting: null,
      };
      this.#streams.set(meta.stream, staged);
    }
    if (!staged) return;
    if (meta.index !== staged.seen) return this.#forget(meta.stream);
    staged.seen++;
    if (meta.customers > 0 && json === undefined) {
      staged.whole = false;
      staged.runs = [];
    } else if (meta.customers > 0 && staged.whole) {
      const piece = JSON.parse(json!) as { path: string[]; items: CustomerRow[] };
      if (piece.path.length !== 1 || piece.path[0] !== 'customers')
        return this.#forget(meta.stream);
      staged.runs.push(new RunMerge(piece.items.sort(compareById), []).all());
      void this.#compact(meta.stream, staged);
    }
    if (!staged.whole || staged.seen === staged.count) this.#settle(meta.stream);
    if (this.has(meta.stream))
      for (const listener of [...this.#listeners]) listener.whole(meta.stream, staged.accountKey);
  }

  /**
   * True while a stream is staged whole but some of its pieces have not come yet. The cache may
   * commit a save a moment before the page hears of its last piece (the commit's broadcast and
   * the worker's messages travel apart): the feed then waits for `settled` instead of reading
   * the whole table back.
   */
  pending(stream: string): boolean {
    const staged = this.#streams.get(stream);
    return !!staged && staged.whole && staged.seen < staged.count;
  }

  /** Resolves once a stream is staged whole, or can no longer be (at once if it is not pending). */
  settled(stream: string): Promise<void> {
    if (!this.pending(stream)) return Promise.resolve();
    return new Promise((resolve) => {
      const waiting = this.#waiters.get(stream);
      if (waiting) waiting.push(resolve);
      else this.#waiters.set(stream, [resolve]);
    });
  }

  #settle(stream: string): void {
    const waiting = this.#waiters.get(stream);
    this.#waiters.delete(stream);
    for (const resolve of waiting ?? []) resolve();
  }

  /** Lets a stream go; `gone` unless it was taken (adopted). */
  #forget(stream: string, taken = false): void {
    const known = this.#streams.delete(stream);
    this.#settle(stream);
    if (known && !taken) for (const listener of [...this.#listeners]) listener.gone(stream);
  }

  /**
   * Every customer of a stream whose pieces all came with their text, in primary-key order,
   * and forgets it; null when it is not (or no longer) staged whole. The caller owns the rows.
   */
  take(stream: string): CustomerRow[] | null {
    const rows = this.peek(stream);
    if (rows) this.#forget(stream, true);
    return rows;
  }

  /**
   * Every customer of a whole stream, in primary-key order, kept staged (its runs become this one
   * array, which `take` then gives out: the caller must not change it); null when not whole.
   */
  peek(stream: string): CustomerRow[] | null {
    const staged = this.#streams.get(stream);
    if (!staged || !this.has(stream)) return null;
    const runs = staged.runs;
    // Newest first, so a copy in a newer run wins over an older one's.
    while (runs.length > 1) {
      const newer = runs.pop()!;
      runs.push(new RunMerge(runs.pop()!, newer).all());
    }
    if (runs.length === 0) runs.push([]);
    return runs[0]!;
  }

  /**
   * `peek`, its merges done in slices, each its own task; null when the stream is not (or no
   * longer) whole.
   */
  async merged(stream: string): Promise<CustomerRow[] | null> {
    for (;;) {
      const staged = this.#streams.get(stream);
      if (!staged || !this.has(stream)) return null;
      if (staged.runs.length <= 1) return this.peek(stream);
      await this.#compact(stream, staged);
    }
  }

  /** Starts the merges of a stream's runs in slices, unless they run; resolves when they stop. */
  #compact(stream: string, staged: Staged): Promise<void> {
    staged.compacting ??= this.#merges(stream, staged).finally(() => (staged.compacting = null));
    return staged.compacting;
  }

  /**
   * Merges two neighbouring runs at a time, in slices: while pieces come, a run as long as the
   * one before it (a binary counter, each record merged about log2(pieces) times); once the
   * stream is whole, the last two, down to one run.
   */
  async #merges(stream: string, staged: Staged): Promise<void> {
    for (;;) {
      // Never in the task of the piece or the call that started it: each merge in tasks of its own.
      await nextTask();
      if (this.#streams.get(stream) !== staged) return;
      const runs = staged.runs;
      let at = runs.length - 2;
      if (!this.has(stream)) {
        at = 0;
        while (at < runs.length - 1 && runs[at]!.length > runs[at + 1]!.length) at++;
        if (at >= runs.length - 1) return;
      }
      if (at < 0) return;
      const older = runs[at]!;
      const newer = runs[at + 1]!;
      const merge = new RunMerge(older, newer);
      while (!merge.step(MERGE_SLICE)) {
        await nextTask();
        if (this.#streams.get(stream) !== staged) return;
      }
      // Pieces may have come meanwhile (runs after these two), or a `peek` merged every run at
      // once (these two are gone): the merge replaces its two runs only where they still are.
      const i = runs.indexOf(older);
      if (i >= 0 && runs[i + 1] === newer) runs.splice(i, 2, merge.out);
    }
  }

  /** True when `take(stream)` would answer the rows. */
  has(stream: string): boolean {
    const staged = this.#streams.get(stream);
    return !!staged && staged.whole && staged.seen === staged.count;
  }

  /** Forgets a stream (its save failed, or it was for an account now closed). */
  drop(stream: string): void {
    this.#forget(stream);
  }

  /**
   * Forgets every stream that is no longer arriving (whole or not): the feed calls it when it
   * reads the cache back instead of adopting, so no unadopted copy of 100k customers lingers.
   * A stream still arriving stays: its commit is yet to come.
   */
  dropSettled(): void {
    for (const stream of [...this.#streams.keys()]) if (!this.pending(stream)) this.#forget(stream);
  }

  /** Forgets every stream of an account. */
  dropAccount(accountKey: string): void {
    for (const [stream, staged] of this.#streams)
      if (staged.accountKey === accountKey) this.#forget(stream);
  }
}
