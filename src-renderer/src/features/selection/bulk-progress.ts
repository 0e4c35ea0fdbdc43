// How far a bulk action's changes have got to the service, as the Selection panel says it:
// "Sending 120 of 300 changes · about 1 min left". Never "done" while one of them is queued; the
// time left comes from the measured drain rate, or from the service's limit of 3 requests per
// second (one PUT or DELETE per change) until enough changes have drained to measure it.
import type { Op } from '../../../../src-shared';
import { secondsText } from '../../app/sync-status-text';
import { text as said } from './text';

/** The service's rate limit: each change of a bulk action is one request. */
export const LIMIT_PER_SECOND = 3;
/** Changes that must have drained before their measured rate replaces the limit's. */
const MEASURE_AFTER = 5;

export interface Drain {
  /** The ops a bulk action queued (their ids), and when the first of them was queued. */
  tracked: ReadonlySet<string>;
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
): Omit<DrainView, 'text' | 'finished'> {
  let waiting = 0;
  let attention = 0;
  for (const op of ops) {
    if (!drain.tracked.has(op.opId)) continue;
    if (op.state === 'needs-attention') attention += 1;
    else if (op.state !== 'done') waiting += 1;
  }
  const total = drain.tracked.size;
  return { total, sent: total - waiting - attention, waiting, attention };
}

/** Changes per second: measured once MEASURE_AFTER have drained, the service's limit before. */
export function drainRate(drain: Drain, sent: number, now: number): number {
  if (drain.firstSent) {
    const [at, from] = drain.firstSent;
    const seconds = (now - at) / 1000;
    if (sent - from >= MEASURE_AFTER && seconds > 0) return (sent - from) / seconds;
  }
  return LIMIT_PER_SECOND;
}

export function drainView(
  drain: Drain,
  ops: readonly Op[],
  env: { online: boolean; now: number },
): DrainView {
  const counts = drainCounts(drain, ops);
  const { total, sent, waiting, attention } = counts;
  const others = ops.filter((op) => op.state !== 'done' && !drain.tracked.has(op.opId)).length;
  const needs = attention > 0 ? said.drain.needAttention(attention) : '';
  let text: string;
  if (waiting > 0 && !env.online) {
    text = said.drain.offline(waiting, total, needs);
  } else if (waiting > 0) {
    const left = (waiting / drainRate(drain, sent, env.now)) * 1000;
    text = said.drain.sending(sent, total, secondsText(left), needs);
  } else if (attention > 0) {
    text = said.drain.someReached(sent, total, needs);
  } else {
    text = said.drain.allReached(total, others);
  }
  return { ...counts, text, finished: waiting === 0 && attention === 0 };
}
