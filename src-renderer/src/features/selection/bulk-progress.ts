// How far a bulk action's changes have got to the service, as the Selection panel says it:
// "Sending 120 of 300 changes · about 1 min left". A change counts as sent only once main said
// the service has it ('outbox:changed' reached): one the page has not yet seen in the queue, or
// whose answer has not come, is waiting, so "All … reached" is never said early. The time left
// comes from the measured drain rate, or from the service's limit of 3 requests per second (one
// PUT or DELETE per change) until enough changes have drained to measure it.
import type { Op } from '../../../../src-shared';
import { format } from '../../ui/format';
import { text as said } from './text';

/** The service's rate limit: each change of a bulk action is one request. */
export const LIMIT_PER_SECOND = 3;
/** Changes that must have drained before their measured rate replaces the limit's. */
const MEASURE_AFTER = 5;

export interface Drain {
  /** The ops a bulk action queued (their ids), and when the first of them was queued. */
  tracked: ReadonlySet<string>;
  /** Tracked ops seen in the queue: one gone from it that did not reach the service was dropped. */
  seen: Set<string>;
  /** [time, sent] when the first change was seen sent, for the measured rate. */
  firstSent: [number, number] | null;
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

/**
 * Changes per second: measured once MEASURE_AFTER have drained, the service's limit before. Never
 * above the limit: the first answers of a bulk come in a burst (the page hears of several at
 * once), and a rate measured over them said a fraction of the time really left.
 */
export function drainRate(drain: Drain, sent: number, now: number): number {
  if (drain.firstSent) {
    const [at, from] = drain.firstSent;
    const seconds = (now - at) / 1000;
    if (sent - from >= MEASURE_AFTER && seconds > 0)
      return Math.min((sent - from) / seconds, LIMIT_PER_SECOND);
  }
  return LIMIT_PER_SECOND;
}

export function drainView(
  drain: Drain,
  ops: readonly Op[],
  env: { online: boolean; now: number; reached: ReadonlySet<string> },
): DrainView {
  const counts = drainCounts(drain, ops, env.reached);
  const { total, sent, waiting, attention } = counts;
  const others = ops.filter((op) => op.state !== 'done' && !drain.tracked.has(op.opId)).length;
  const needs = attention > 0 ? said.drain.needAttention(attention) : '';
  let text: string;
  if (waiting > 0 && !env.online) {
    text = said.drain.offline(waiting, total, needs);
  } else if (waiting > 0) {
    const left = (waiting / drainRate(drain, sent, env.now)) * 1000;
    text = said.drain.sending(sent, total, format.wait(left / 1000), needs);
  } else if (attention > 0) {
    text = said.drain.someReached(sent, total, needs);
  } else {
    text = said.drain.allReached(total, others);
  }
  return { ...counts, text, finished: waiting === 0 && attention === 0 };
}
