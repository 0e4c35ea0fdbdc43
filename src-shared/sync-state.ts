// What the status bar shows: the sync engine's state machine.
import * as v from 'valibot';

export const SyncStateSchema = v.variant('kind', [
  v.object({ kind: v.literal('signed-out') }),
  v.object({ kind: v.literal('offline'), nextProbeAt: v.nullable(v.number()) }),
  v.object({ kind: v.literal('off-network'), nextProbeAt: v.nullable(v.number()) }),
  v.object({ kind: v.literal('auth-required') }),
  v.object({
    kind: v.literal('syncing'),
    /** Requests done and planned in this sync. */
    done: v.number(),
    total: v.number(),
    /** Estimated milliseconds left, from queue length and the rate limit. */
    etaMs: v.number(),
  }),
  v.object({ kind: v.literal('synced'), at: v.number() }),
  v.object({ kind: v.literal('error'), message: v.string() }),
]);
export type SyncState = v.InferOutput<typeof SyncStateSchema>;
