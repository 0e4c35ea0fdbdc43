// Main mirrors the whole queue to the cache worker at every change of it ('outbox:changed'): while
// a bulk change of thousands drains, that is a queue of thousands per sent change, and applying
// each took longer than the next took to come, so the cache fell minutes behind main and every
// waiting copy piled up in memory. An event that arrives while the last one still waits its turn
// is folded into it: the newest queue, and every acknowledged record of both.
import type { EventOf } from '../../../src-shared/ipc-contract';

type OutboxEvent = EventOf<'outbox:changed'>;

/** One event with the effect of `earlier` then `later` (of the same account). */
export function mergeOutboxEvents(earlier: OutboxEvent, later: OutboxEvent): OutboxEvent {
  const a = earlier.acknowledged;
  const b = later.acknowledged;
  // Every op that reached the service in either: none is lost to the fold.
  const both = [...(earlier.reached ?? []), ...(later.reached ?? [])];
  const reached = both.length > 0 ? { reached: both } : {};
  if (!a || !b) {
    const acknowledged = b ?? a;
    return {
      accountKey: later.accountKey,
      ops: later.ops,
      ...(acknowledged ? { acknowledged } : {}),
      ...reached,
    };
  }
  // The later word on a customer wins: a later upsert replaces an earlier one or undoes its
  // delete, a later delete drops an earlier upsert.
  const upserted = new Map(a.upserted.map((c) => [c.id, c]));
  const deleted = new Set(a.deleted);
  for (const id of b.deleted) {
    upserted.delete(id);
    deleted.add(id);
  }
  for (const c of b.upserted) {
    deleted.delete(c.id);
    upserted.set(c.id, c);
  }
  return {
    accountKey: later.accountKey,
    ops: later.ops,
    acknowledged: { upserted: [...upserted.values()], deleted: [...deleted] },
    ...reached,
  };
}

/**
 * A queue of main's events keeps at most one outbox event waiting at its tail: `push` folds a new
 * one into it, or queues it when anything else was queued since. `T`: what the caller keeps of
 * the latest event folded in (its place on the road).
 */
export class OutboxInbox<T = undefined> {
  #waiting: { event: OutboxEvent; tag: T } | null = null;

  /** Something else was queued: a later outbox event must not jump ahead of it. */
  closeTail(): void {
    this.#waiting = null;
  }

  /** Queues the event (through `enqueue`) or folds it into the one waiting at the tail. */
  push(
    event: OutboxEvent,
    enqueue: (task: () => Promise<void>) => void,
    apply: (event: OutboxEvent, tag: T) => Promise<void>,
    tag?: T,
  ): void {
    const waiting = this.#waiting;
    if (waiting && waiting.event.accountKey === event.accountKey) {
      waiting.event = mergeOutboxEvents(waiting.event, event);
      waiting.tag = tag as T;
      return;
    }
    const slot = { event, tag: tag as T };
    enqueue(() => {
      if (this.#waiting === slot) this.#waiting = null;
      return apply(slot.event, slot.tag);
    });
    this.#waiting = slot;
  }
}
