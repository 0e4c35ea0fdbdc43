// How far a bulk action's changes have got to the service, as the Selection panel says it:
// "Sending 120 of 300 changes · about 1 min left". A change counts as sent only once main said
// the service has it ('outbox:changed' reached): one the page has not yet seen in the queue, or
// whose answer has not come, is waiting, so "All … reached" is never said early. The time left is
// main's one estimate, the status bar's too (core/sync/progress.ts: the requests left at their
// measured pace and the pull after them), as the page counts it down: panel and bar never
// disagree, and with no estimate (main not yet syncing them, or past its estimate) none is said.
import type { Op } from '../../../../src-shared';
import { format } from '../../ui/format';
import { text as said } from './text';

export interface Drain {
  /** The ops a bulk action queued (their ids), and when the first of them was queued. */
  tracked: ReadonlySet<string>;
  /** Tracked ops seen in the queue: one gone from it that did not reach the service was dropped. */
  seen: Set<string>;
}

export interface DrainView {
  total: number;
  sent: number;
  waiting: number;
  attention: number;
  text: string;
  /** True once none of them is queued any more. */
  finished: boolean;
}

export function drainCounts(
  drain: Drain,
  ops: readonly Op[],
  reached: ReadonlySet<string>,
): Omit<DrainView, 'text' | 'finished'> {
  let waiting = 0;
  let attention = 0;
  const queued = new Set<string>();
  for (const op of ops) {
    // Main's word that the service has it beats the page's copy of the queue, which lags.
    if (!drain.tracked.has(op.opId) || reached.has(op.opId)) continue;
    queued.add(op.opId);
    if (op.state === 'needs-attention') attention += 1;
    else if (op.state !== 'done') waiting += 1;
  }
  let sent = 0;
  let dropped = 0;
  for (const id of drain.tracked) {
    if (queued.has(id)) continue;
    if (reached.has(id)) sent += 1;
    // Gone without reaching the service: the rep discarded it.
    else if (drain.seen.has(id)) dropped += 1;
    // Not in the page's copy of the queue yet, nor answered: on its way.
    else waiting += 1;
  }
  return { total: drain.tracked.size - dropped, sent, waiting, attention };
}

export function drainView(
  drain: Drain,
  ops: readonly Op[],
  env: {
    online: boolean;
    reached: ReadonlySet<string>;
    /** What is left of main's estimate, as the status bar shows it (null: none). */
    timeLeftMs: number | null;
  },
): DrainView {
  const counts = drainCounts(drain, ops, env.reached);
  const { total, sent, waiting, attention } = counts;
  const others = ops.filter((op) => op.state !== 'done' && !drain.tracked.has(op.opId)).length;
  const needs = attention > 0 ? said.drain.needAttention(attention) : '';
  let text: string;
  if (waiting > 0 && !env.online) {
    text = said.drain.offline(waiting, total, needs);
  } else if (waiting > 0) {
    const left = env.timeLeftMs === null ? null : format.wait(env.timeLeftMs / 1000);
    text = said.drain.sending(sent, total, left, needs);
  } else if (attention > 0) {
    text = said.drain.someReached(sent, total, needs);
  } else {
    text = said.drain.allReached(total, others);
  }
  return { ...counts, text, finished: waiting === 0 && attention === 0 };
}
