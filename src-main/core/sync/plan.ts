// Which queued ops a push round may send: FIFO per target, a target stops at its first op that
// cannot go (needs attention, waits for a temp id, failed earlier in this sync), unrelated
// targets are independent.
import { isTempId, type Op } from '../../../src-shared/outbox-types';

export interface RoundPlan {
  /** Per target, the ops to send in order (a create ends its target's run). */
  runs: Op[][];
  /** Ops in the plan, counted. */
  size: number;
}

/** The id an op waits on, if any: its own temp target, or a route's temp customer ids. */
export function waitsOnTempId(op: Op): boolean {
  switch (op.kind) {
    case 'updateCustomer':
    case 'deleteCustomer':
      return isTempId(op.target);
    case 'createRoute':
      return op.payload.customerIds.some(isTempId);
    default:
      return false;
  }
}

/**
 * Plans one round. `blocked` holds targets that failed transiently in this sync (they wait for
 * the next one); `maxOps` bounds the round so the fresh server data it works from stays fresh.
 */
export function planRound(ops: Op[], blocked: ReadonlySet<string>, maxOps: number): RoundPlan {
  const byTarget = new Map<string, Op[]>();
  // Customers with a change queued so far in FIFO order (flagged ones excepted: they wait for
  // the rep). A route is stored with its customers' positions when it is created, so it waits
  // for the earlier changes of its customers (a moved pin) to reach the service first.
  const changed = new Set<string>();
  const waiting = new Set<Op>();
  for (const op of ops) {
    if (op.kind === 'createRoute' && op.payload.customerIds.some((id) => changed.has(id))) {
      waiting.add(op);
    }
    if (op.kind !== 'createRoute' && op.state !== 'needs-attention') changed.add(op.target);
    const list = byTarget.get(op.target);
    if (list) list.push(op);
    else byTarget.set(op.target, [op]);
  }
  const runs: Op[][] = [];
  let size = 0;
  for (const [target, targetOps] of byTarget) {
    if (blocked.has(target) || size >= maxOps) continue;
    const run: Op[] = [];
    for (const op of targetOps) {
      if (size + run.length >= maxOps) break;
      if (op.state === 'needs-attention' || op.state === 'done' || waitsOnTempId(op)) break;
      if (waiting.has(op)) break;
      run.push(op);
      if (op.kind === 'createCustomer' || op.kind === 'deleteCustomer') break;
    }
    if (run.length > 0) {
      runs.push(run);
      size += run.length;
    }
  }
  return { runs, size };
}
