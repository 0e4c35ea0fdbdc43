// Coalescing rules of architecture.md, on a real outbox in a temp dir; each test also reopens the
// outbox to check the merged queue is what was journaled, not just what memory holds.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Outbox } from '../../src-main/core/outbox/outbox';
import type { Op } from '../../src-shared/outbox-types';
import {
  createCustomer,
  createRoute,
  deleteCustomer,
  scratch,
  serverCustomer,
  tempId,
  updateCustomer,
  updateCustomFields,
} from './fixtures';

let box: Awaited<ReturnType<typeof scratch>>;
let outbox: Outbox;

beforeEach(async () => {
  box = await scratch();
  outbox = await box.open();
});
afterEach(async () => {
  await box.cleanup();
});

/** The queue after a close and reopen: what the journal holds. */
async function reopened(): Promise<Op[]> {
  await outbox.close();
  outbox = await box.open();
  return outbox.list();
}

const summary = (ops: Op[]) => ops.map((op) => `${op.kind}:${op.target}:${op.state}`);

describe('outbox coalescing', () => {
  it('create + update = the create with merged fields, in the create place', async () => {
    const t = tempId(1);
    const created = await outbox.enqueue(createCustomer(t, 'Acme', { city: 'Oslo' }));
    await outbox.enqueue(createCustomer(tempId(2), 'Other'));
    const merged = await outbox.enqueue(updateCustomer(t, { city: 'Bergen', phone: '555' }));
    expect(merged.opId).toBe(created.opId);
    expect(merged.kind).toBe('createCustomer');
    const ops = await reopened();
    expect(summary(ops)).toEqual([
      `createCustomer:${t}:pending`,
      `createCustomer:${tempId(2)}:pending`,
    ]);
    expect(ops[0]?.payload).toMatchObject({ name: 'Acme', city: 'Bergen', phone: '555' });
  });

  it('create + delete = nothing, and the pending updates of that temp id go too', async () => {
    const t = tempId(1);
    const other = await outbox.enqueue(updateCustomer('srv1', { name: 'kept' }));
    await outbox.enqueue(createCustomer(t, 'Acme'));
    const created = outbox.list()[1] as Op;
    await outbox.markInFlight(created.opId, 1);
    await outbox.enqueue(updateCustomer(t, { city: 'queued behind in-flight create' }));
    await outbox.markRetryLater(created.opId, null); // create pending again, update pending behind it
    expect(outbox.list()).toHaveLength(3);
    const result = await outbox.enqueue(deleteCustomer(t));
    expect(result.state).toBe('done');
    expect((await reopened()).map((op) => op.opId)).toEqual([other.opId]);
  });

  it('create + delete sends routes through that customer to needs-attention as Rejected', async () => {
    const t = tempId(1);
    await outbox.enqueue(createCustomer(t, 'Acme'));
    const route = await outbox.enqueue(createRoute(tempId(9), 'Monday', ['srv1', t]));
    const unrelated = await outbox.enqueue(createRoute(tempId(10), 'Tuesday', ['srv1']));
    await outbox.enqueue(deleteCustomer(t));
    const ops = await reopened();
    expect(ops.map((op) => op.opId)).toEqual([route.opId, unrelated.opId]);
    expect(ops[0]?.state).toBe('needs-attention');
    expect(ops[0]?.lastError?.kind).toBe('Rejected');
    expect(ops[0]?.lastError?.message).toMatch(/deleted before it reached the service/);
    expect(ops[1]?.state).toBe('pending');
  });

  it('update + update = one update with merged payload and the first base', async () => {
    const first = await outbox.enqueue(
      updateCustomer('srv1', { city: 'A', zip: '1' }, serverCustomer('srv1', 'v1')),
    );
    await outbox.enqueue(updateCustomer('srv2', { city: 'unrelated' }));
    const merged = await outbox.enqueue(
      updateCustomer('srv1', { city: 'B', phone: '2' }, serverCustomer('srv1', 'v2')),
    );
    expect(merged.opId).toBe(first.opId);
    const ops = await reopened();
    expect(ops).toHaveLength(2);
    expect(ops[0]).toMatchObject({
      opId: first.opId,
      kind: 'updateCustomer',
      payload: { city: 'B', zip: '1', phone: '2' },
      base: { name: 'v1' },
    });
  });

  it('update + delete = the delete in the update place, keeping the update base when it has none', async () => {
    const first = await outbox.enqueue(
      updateCustomer('srv1', { city: 'A' }, serverCustomer('srv1', 'v1')),
    );
    await outbox.enqueue(updateCustomer('srv2', { city: 'unrelated' }));
    await outbox.enqueue(deleteCustomer('srv1'));
    await outbox.enqueue(updateCustomer('srv3', { city: 'A' }, serverCustomer('srv3', 'old')));
    await outbox.enqueue(deleteCustomer('srv3', serverCustomer('srv3', 'newer')));
    const ops = await reopened();
    expect(summary(ops)).toEqual([
      'deleteCustomer:srv1:pending',
      'updateCustomer:srv2:pending',
      'deleteCustomer:srv3:pending',
    ]);
    expect(ops[0]).toMatchObject({ opId: first.opId, payload: null, base: { name: 'v1' } });
    expect(ops[2]?.base?.name).toBe('newer');
  });

  it('updateCustomFields + updateCustomFields = one with merged payload', async () => {
    const first = await outbox.enqueue(updateCustomFields({ visits: 1, calls: 2 }));
    await outbox.enqueue(updateCustomFields({ calls: 5, miles: 9 }));
    const ops = await reopened();
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({ opId: first.opId, payload: { visits: 1, calls: 5, miles: 9 } });
  });

  it('never merges into in-flight or needs-attention ops: the new op queues behind', async () => {
    const t = tempId(1);
    const create = await outbox.enqueue(createCustomer(t, 'Acme'));
    await outbox.markInFlight(create.opId, 10);
    const update = await outbox.enqueue(updateCustomer(t, { city: 'X' }));
    expect(update.opId).not.toBe(create.opId);
    await outbox.enqueue(deleteCustomer(t)); // merges into the pending update, not the create
    const upd = await outbox.enqueue(updateCustomer('srv1', { city: 'A' }));
    await outbox.markNeedsAttention(upd.opId, { kind: 'Rejected', message: 'no' });
    await outbox.enqueue(updateCustomer('srv1', { city: 'B' }));
    const fields = await outbox.enqueue(updateCustomFields({ a: 1 }));
    await outbox.markInFlight(fields.opId, 11);
    await outbox.enqueue(updateCustomFields({ b: 2 }));
    const ops = await reopened();
    expect(summary(ops)).toEqual([
      `createCustomer:${t}:in-flight`,
      `deleteCustomer:${t}:pending`,
      'updateCustomer:srv1:needs-attention',
      'updateCustomer:srv1:pending',
      'updateCustomFields:user:in-flight',
      'updateCustomFields:user:pending',
    ]);
    expect(ops[0]?.payload).toMatchObject({ city: '' }); // the in-flight create was not touched
  });

  it('delete of a temp id whose create is in flight queues behind it', async () => {
    const t = tempId(1);
    const create = await outbox.enqueue(createCustomer(t, 'Acme'));
    await outbox.markInFlight(create.opId, 10);
    const del = await outbox.enqueue(deleteCustomer(t));
    expect(del.state).toBe('pending');
    expect(summary(await reopened())).toEqual([
      `createCustomer:${t}:in-flight`,
      `deleteCustomer:${t}:pending`,
    ]);
  });

  it('keeps FIFO order across targets, a coalesced op keeping the earliest place', async () => {
    await outbox.enqueue(updateCustomer('a', { city: '1' }));
    await outbox.enqueue(updateCustomer('b', { city: '1' }));
    await outbox.enqueue(createCustomer(tempId(1), 'c'));
    await outbox.enqueue(updateCustomer('a', { city: '2' }));
    await outbox.enqueue(updateCustomFields({ x: 1 }));
    await outbox.enqueue(updateCustomer(tempId(1), { city: '2' }));
    await outbox.enqueue(deleteCustomer('b'));
    await outbox.enqueue(updateCustomer('d', { city: '1' }));
    expect(summary(await reopened())).toEqual([
      'updateCustomer:a:pending',
      'deleteCustomer:b:pending',
      `createCustomer:${tempId(1)}:pending`,
      'updateCustomFields:user:pending',
      'updateCustomer:d:pending',
    ]);
    // New ops after a reopen still go to the end.
    await outbox.enqueue(updateCustomer('e', { city: '1' }));
    expect(outbox.list().at(-1)?.target).toBe('e');
  });
});
