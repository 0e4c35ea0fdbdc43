import { describe, expect, it } from 'vitest';
import { emptyCustomerFields } from '../../src-shared/domain';
import type { Op } from '../../src-shared/outbox-types';
import { planRound } from '../../src-main/core/sync/plan';
import { tempId } from '../support/main';

let n = 0;
function op(partial: Partial<Op> & Pick<Op, 'kind' | 'target'>): Op {
  n++;
  const payload =
    partial.kind === 'createCustomer'
      ? emptyCustomerFields()
      : partial.kind === 'deleteCustomer'
        ? null
        : {};
  return {
    opId: `op${n}`,
    accountKey: 'a',
    createdAt: n,
    attempts: 0,
    lastError: null,
    state: 'pending',
    base: null,
    payload,
    ...partial,
  } as Op;
}

const ids = (plan: ReturnType<typeof planRound>) => plan.runs.map((run) => run.map((o) => o.opId));

describe('planRound', () => {
  it('keeps FIFO per target and lets a flagged op block only its own target', () => {
    const ops = [
      op({ kind: 'updateCustomer', target: 'A', state: 'needs-attention' }),
      op({ kind: 'updateCustomer', target: 'B' }),
      op({ kind: 'updateCustomer', target: 'A' }),
      op({ kind: 'deleteCustomer', target: 'B' }),
      op({ kind: 'updateCustomer', target: 'B' }),
    ];
    expect(ids(planRound(ops, new Set(), 100))).toEqual([['op2', 'op4']]);
  });

  it('holds ops on a temp id, and routes through one, until the create resolves', () => {
    const t = tempId(1);
    const ops = [
      op({ kind: 'createCustomer', target: t, state: 'in-flight' }),
      op({ kind: 'updateCustomer', target: t }),
      op({
        kind: 'createRoute',
        target: tempId(2),
        payload: { routeName: 'r', customerIds: ['S', t] },
      }),
      op({
        kind: 'createRoute',
        target: tempId(3),
        payload: { routeName: 'r', customerIds: ['S'] },
      }),
      op({ kind: 'updateCustomFields', target: 'user', payload: { a: 1 } }),
    ];
    expect(ids(planRound(ops, new Set(), 100))).toEqual([['op6'], ['op9'], ['op10']]);
  });

  it('skips targets that failed in this sync and bounds the round', () => {
    const ops = [
      op({ kind: 'updateCustomer', target: 'A' }),
      op({ kind: 'updateCustomer', target: 'B' }),
      op({ kind: 'updateCustomer', target: 'C' }),
      op({ kind: 'updateCustomer', target: 'D' }),
    ];
    expect(ids(planRound(ops, new Set(['B']), 2))).toEqual([['op11'], ['op13']]);
  });
});
