// Updates merged three-way against the fresh server record, under both PUT readings.
import { afterEach, describe, expect, it } from 'vitest';
import { Harness, USER } from '../support/main';

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

async function started(
  put: 'patch' | 'replace',
): Promise<{ h: Harness; id: string; other: string }> {
  h = await Harness.start({ variants: { put } });
  await h.engine.syncNow();
  const [first, second] = h.serverCustomers();
  return { h, id: first!.id, other: second!.id };
}

describe.each(['patch', 'replace'] as const)('conflicts with PUT as %s', (put) => {
  it('keeps the rep value when both changed a field, logs the server value, and lets the rep take it back', async () => {
    const { h, id } = await started(put);
    const base = h.base(id);
    h.service.store.updateCustomerDirect(USER, id, { city: 'Server City', notes: 'server note' });
    await h.outbox.enqueue({
      kind: 'updateCustomer',
      target: id,
      payload: { city: 'Rep City' },
      base,
    });
    expect((await h.engine.syncNow()).kind).toBe('synced');

    const after = h.base(id);
    expect(after.city).toBe('Rep City');
    expect(after.notes).toBe('server note'); // changed only on the server: kept
    const [conflict, ...more] = await h.engine.conflicts();
    expect(more).toEqual([]);
    expect(conflict).toMatchObject({
      customerId: id,
      field: 'city',
      baseValue: base.city,
      repValue: 'Rep City',
      serverValue: 'Server City',
      resolution: 'rep-default',
    });
    expect(h.of('conflicts:changed').at(-1)?.conflicts).toHaveLength(1);

    const decided = await h.engine.resolveConflict(conflict!.conflictId, 'server');
    expect(decided.resolution).toBe('server');
    await h.engine.syncNow();
    expect(h.base(id).city).toBe('Server City');
    expect(h.base(id).notes).toBe('server note');

    // Changing their mind: the rep's value is what the service ends with.
    await h.engine.resolveConflict(conflict!.conflictId, 'rep');
    await h.engine.syncNow();
    expect(h.base(id).city).toBe('Rep City');
    expect(h.outbox.list()).toEqual([]);

    // The log is durable, and a restart's first ask (the page's, as it opens) waits for it.
    await h.close();
    await h.open();
    expect((await h.engine.conflicts()).map((c) => c.resolution)).toEqual(['rep']);
    await h.engine.syncNow();
    expect((await h.engine.conflicts()).map((c) => c.resolution)).toEqual(['rep']);
  });

  it('merges a field changed only on the server with a field changed only locally, without conflict', async () => {
    const { h, id } = await started(put);
    const base = h.base(id);
    h.service.store.updateCustomerDirect(USER, id, { phone: '+33 1 23 45 67 89' });
    await h.outbox.enqueue({
      kind: 'updateCustomer',
      target: id,
      payload: { company: 'Rep Co' },
      base,
    });
    await h.engine.syncNow();
    expect(h.base(id)).toMatchObject({ phone: '+33 1 23 45 67 89', company: 'Rep Co' });
    expect(await h.engine.conflicts()).toEqual([]);
  });

  it('sends nothing for a field both sides changed to the same value', async () => {
    const { h, id } = await started(put);
    const base = h.base(id);
    h.service.store.updateCustomerDirect(USER, id, { zip: '75001' });
    await h.outbox.enqueue({ kind: 'updateCustomer', target: id, payload: { zip: '75001' }, base });
    h.service.resetStats();
    await h.engine.syncNow();
    expect(await h.engine.conflicts()).toEqual([]);
    expect(h.base(id).zip).toBe('75001');
    // One GET for the record, four for the pull: no PUT.
    expect(h.service.stats().requests).toBe(5);
  });
});

describe('records gone from the service', () => {
  it('treats deleting a missing record as done, and flags an edit of one without recreating it', async () => {
    const { h, id, other } = await started('patch');
    const third = h.serverCustomers()[2]!;
    const base = h.base(id);
    // Someone else deletes both on the service.
    await h.client.deleteCustomer(id);
    await h.client.deleteCustomer(other);
    const count = h.serverCustomers().length;
    await h.outbox.enqueue({
      kind: 'updateCustomer',
      target: id,
      payload: { notes: 'mine' },
      base,
    });
    await h.outbox.enqueue({
      kind: 'deleteCustomer',
      target: other,
      payload: null,
      base: h.base(third.id),
    });
    await h.outbox.enqueue({
      kind: 'updateCustomer',
      target: third.id,
      payload: { notes: 'fine' },
      base: h.base(third.id),
    });
    expect((await h.engine.syncNow()).kind).toBe('synced');

    const [left, ...rest] = h.outbox.list();
    expect(rest).toEqual([]);
    expect(left).toMatchObject({
      target: id,
      state: 'needs-attention',
      lastError: { kind: 'Rejected', detail: 'deleted on the service' },
    });
    expect(h.serverCustomers()).toHaveLength(count);
    expect(h.service.store.customer(USER, id)).toBeUndefined();
    expect(h.base(third.id).notes).toBe('fine'); // the flagged op blocked nothing unrelated
  });
});
