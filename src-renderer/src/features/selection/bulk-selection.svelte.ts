// The Selection panel's state: the customers a lasso or box selected, the bulk action running
// (its batches being queued) and how far the queued changes have got to the service. Owned by
// Panels, so the progress stays when the panel is closed and reopened.
import type { Op } from '../../../../src-shared';
import { BulkError, type BulkProgress } from '../editor/change-writer';
import type { Drain } from './bulk-progress';
import { text } from './text';

/** Deletes over this many ask the rep to type the count. */
export const TYPED_CONFIRM_OVER = 100;
/** Reached ops remembered: more than any bulk action queues (a delete of 5,000 and then some). */
const REACHED_KEPT = 20_000;

export class BulkSelection {
  /** The selected customers' ids, in the order the lasso found them; null before any area. */
  #ids = $state.raw<string[] | null>(null);
  /** The action queuing its batches now: what it is, changes queued of all it queues. */
  #running = $state.raw<{ label: string; queued: number; total: number } | null>(null);
  #message = $state<string | null>(null);
  #failure = $state<string | null>(null);
  #drain = $state.raw<Drain | null>(null);
  #finished = false;
  /**
   * Ops main said reached the service, the newest REACHED_KEPT: a bulk's first batches may be sent
   * before the action has queued its last one and its drain starts counting.
   */
  #reached = new Set<string>();
  #reachedVersion = $state(0);

  get ids(): readonly string[] | null {
    return this.#ids;
  }

  get running(): { label: string; queued: number; total: number } | null {
    return this.#running;
  }

  get message(): string | null {
    return this.#message;
  }

  get failure(): string | null {
    return this.#failure;
  }

  get drain(): Drain | null {
    return this.#drain;
  }

  get reached(): ReadonlySet<string> {
    void this.#reachedVersion;
    return this.#reached;
  }

  /** Main said these ops reached the service ('outbox:changed'). */
  noteReached(opIds: readonly string[]): void {
    if (opIds.length === 0) return;
    for (const id of opIds) this.#reached.add(id);
    // A Set iterates in insertion order: the oldest go first.
    for (const id of this.#reached) {
      if (this.#reached.size <= REACHED_KEPT) break;
      this.#reached.delete(id);
    }
    this.#reachedVersion += 1;
  }

  /** Says what an action that queues nothing did (e.g. Add to plan). */
  say(message: string): void {
    this.#message = message;
    this.#failure = null;
  }

  /** A new area replaces the selection (the result of the last action stays until then). */
  select(ids: readonly string[]): void {
    this.#ids = [...ids];
    this.#message = null;
    this.#failure = null;
  }

  clear(): void {
    this.#ids = null;
    this.#message = null;
    this.#failure = null;
  }

  /**
   * Notes which tracked changes were seen queued, and when none is queued any more (the next
   * action then starts a count of its own).
   */
  observe(ops: readonly Op[], finished: boolean): void {
    const drain = this.#drain;
    if (!drain) return;
    for (const op of ops) if (drain.tracked.has(op.opId)) drain.seen.add(op.opId);
    if (finished !== this.#finished) this.#finished = finished;
  }

  /**
   * Runs a bulk action that queues changes: one at a time, its progress shown, its ops tracked
   * until they reached the service. `done` names what happened from the ops it queued. When a
   * batch fails, the customers whose changes were not queued stay selected, so the rep can retry.
   */
  async run(
    label: string,
    action: (onProgress: BulkProgress) => Promise<Op[]>,
    done: (queued: Op[]) => string,
    remaining?: (queued: Op[]) => string[],
  ): Promise<boolean> {
    if (this.#running) return false;
    this.#running = { label, queued: 0, total: 0 };
    this.#message = null;
    this.#failure = null;
    let queued: Op[] = [];
    try {
      queued = await action((n, total) => (this.#running = { label, queued: n, total }));
      this.#message = done(queued);
      return true;
    } catch (error) {
      queued = error instanceof BulkError ? error.queued : [];
      this.#failure = text.run.stopped(
        label,
        error instanceof Error ? error.message : String(error),
        queued.length,
      );
      if (remaining) this.#ids = remaining(queued);
      return false;
    } finally {
      this.#track(queued);
      this.#running = null;
    }
  }

  #track(queued: Op[]): void {
    const fresh = queued.filter((op) => op.state !== 'done').map((op) => op.opId);
    if (fresh.length === 0) return;
    const before = this.#finished ? null : this.#drain;
    this.#finished = false;
    this.#drain = {
      tracked: new Set([...(before?.tracked ?? []), ...fresh]),
      seen: before?.seen ?? new Set(),
    };
  }

  /** The account changed: nothing of the last one stays. */
  reset(): void {
    this.clear();
    this.#drain = null;
    this.#reached.clear();
    this.#reachedVersion += 1;
  }
}
