// What the status bar shows: the sync engine's state machine, and the one count of queued
// changes every display (status, Changes, import chip) agrees on.
import * as v from 'valibot';
import { ConnectionCauseSchema } from './errors';
import type { Op } from './outbox-types';

export const SyncStateSchema = v.variant('kind', [
  v.object({ kind: v.literal('signed-out') }),
  v.object({
    kind: v.literal('offline'),
    nextProbeAt: v.nullable(v.number()),
    /** What the network stack could tell (a proxy, a certificate); absent: no answer at all. */
    connection: v.optional(ConnectionCauseSchema),
  }),
  v.object({ kind: v.literal('off-network'), nextProbeAt: v.nullable(v.number()) }),
  v.object({ kind: v.literal('auth-required') }),
  v.object({
    kind: v.literal('syncing'),
    /** Requests done and planned in this sync. */
    done: v.number(),
    total: v.number(),
    /**
     * Estimated milliseconds to the sync's end when main sent it (0: not known): the requests
     * left at their pace and the pull's expected time (main's sync/progress.ts).
     */
    etaMs: v.number(),
  }),
  v.object({ kind: v.literal('synced'), at: v.number() }),
  v.object({
    kind: v.literal('error'),
    message: v.string(),
    /** When the engine tries again by itself (null or absent: it waits for the rep). */
    nextTryAt: v.optional(v.nullable(v.number())),
  }),
]);
export type SyncState = v.InferOutput<typeof SyncStateSchema>;

/**
 * What is left of main's estimate at `now`, counted down from `syncAt` (when the page applied the
 * state); null when main gave none or it has run out: a sync that outruns its estimate shows no
 * time rather than "about 1 s left" for as long as it takes. The status bar and the Selection
 * panel both say this one time.
 */
export function timeLeftMs(sync: SyncState, syncAt: number, now: number): number | null {
  if (sync.kind !== 'syncing' || sync.etaMs <= 0) return null;
  const left = sync.etaMs - Math.max(0, now - syncAt);
  return left > 0 ? left : null;
}

/** The outbox by what it means to the rep: waiting to be sent, being sent, needing the rep. */
export interface QueueCounts {
  /** Every change not yet on the service (the Changes count). */
  queued: number;
  /** Pending or in flight: the engine sends these by itself. */
  waiting: number;
  /** In flight right now. */
  sending: number;
  /** Refused or unsure: they wait for the rep (Changes view). */
  attention: number;
}

export function queueCounts(ops: readonly Pick<Op, 'state'>[]): QueueCounts {
  let waiting = 0;
  let sending = 0;
  let attention = 0;
  for (const op of ops) {
    if (op.state === 'needs-attention') attention++;
    else if (op.state !== 'done') waiting++;
    if (op.state === 'in-flight') sending++;
  }
  return { queued: waiting + attention, waiting, sending, attention };
}

/** "1 change" / "3 changes". */
export function changesText(n: number): string {
  return `${n} change${n === 1 ? '' : 's'}`;
}
