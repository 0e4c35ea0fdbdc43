// The batch crash test's workload, shared by the child (which enqueues it) and the parent (which
// checks what survived): each batch renames the same shared customers and adds its own ones.
import { serverCustomer, updateCustomer } from './fixtures';
import type { NewOp } from '../../src-shared/outbox-types';

export const SHARED = 40;
export const OWN = 60;
/** Small, so kills also land during compactions. */
export const BATCH_COMPACT_AFTER = 7;
/** Batches a child makes at most (then it idles until killed): bounds the queue's size. */
export const MAX_BATCHES = 40;

export const sharedId = (i: number): string => String(900_000_000 + i);
export const ownId = (b: number, i: number): string => String(b * 100 + i);

/** Batch `b`: the shared customers renamed `b<b>`, then OWN customers of its own (with bases). */
export function batchOps(b: number): NewOp[] {
  const ops: NewOp[] = [];
  for (let i = 0; i < SHARED; i += 1) {
    ops.push(updateCustomer(sharedId(i), { name: `b${b}` }, serverCustomer(sharedId(i))));
  }
  for (let i = 0; i < OWN; i += 1) {
    ops.push(updateCustomer(ownId(b, i), { name: `b${b}` }, serverCustomer(ownId(b, i))));
  }
  return ops;
}
