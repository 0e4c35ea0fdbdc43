// State transitions, edit/discard/retry, temp id rewrite, validation and queries, on real files.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OutboxError, type Outbox } from '../../src-main/core/outbox/outbox';
import { isTempId, type NewOp, type Op } from '../../src-shared/outbox-types';
import {
  ACCOUNT,
  createCustomer,
  createRoute,
  deleteCustomer,
  scratch,
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

async function reopen(): Promise<Outbox> {
  await outbox.close();
  outbox = await box.open();
  return outbox;
}

/** Awaits a rejection and returns the OutboxError's info. */
async function refusal(promise: Promise<unknown>): Promise<OutboxError['info']> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboxError);
  return (error as OutboxError).info;
}

const rejected = { kind: 'Rejected', message: 'refused', status: 400 } as const;

describe('outbox state transitions', () => {
  it('pending -> in-flight -> done', async () => {
    const op = await outbox.enqueue(updateCustomer('srv1', { city: 'A' }));
    expect(op).toMatchObject({
      state: 'pending',
      attempts: 0,
      lastError: null,
      accountKey: ACCOUNT,
    });
    await outbox.markInFlight(op.opId, 1234);
    expect((await reopen()).get(op.opId)).toMatchObject({
      state: 'in-flight',
      sentAt: 1234,
      attempts: 1,
    });
    await outbox.markDone(op.opId);
    expect((await reopen()).list()).toEqual([]);
  });

  it('in-flight -> pending on retry later keeps the error; in-flight -> needs-attention -> retry', async () => {
    const op = await outbox.enqueue(updateCustomer('srv1', { city: 'A' }));
    await outbox.markInFlight(op.opId, 1);
    await outbox.markRetryLater(op.opId, { kind: 'ServerError', message: 'boom', status: 502 });
    expect((await reopen()).get(op.opId)).toMatchObject({
      state: 'pending',
      attempts: 1,
      lastError: { kind: 'ServerError', status: 502 },
    });
    await outbox.markInFlight(op.opId, 2);
    await outbox.markNeedsAttention(op.opId, rejected);
    expect((await reopen()).get(op.opId)).toMatchObject({
      state: 'needs-attention',
      attempts: 2,
      lastError: rejected,
    });
    const retried = await outbox.retry(op.opId);
    expect(retried).toMatchObject({ state: 'pending', lastError: null, attempts: 2 });
    expect((await reopen()).get(op.opId)?.state).toBe('pending');
  });

  it('refuses transitions from the wrong state or for unknown ops', async () => {
    const op = await outbox.enqueue(updateCustomer('srv1', { city: 'A' }));
    expect((await refusal(outbox.retry(op.opId))).message).toMatch(/is pending/);
    await outbox.markInFlight(op.opId, 1);
    expect((await refusal(outbox.markInFlight(op.opId, 2))).kind).toBe('InvalidRequest');
    expect((await refusal(outbox.edit(op.opId, { city: 'B' }))).message).toMatch(/in-flight/);
    expect((await refusal(outbox.discard(op.opId))).message).toMatch(/in-flight/);
    expect((await refusal(outbox.markDone('nope'))).message).toMatch(/no queued change nope/);
    expect(await outbox.discard('nope')).toBe(false);
    expect(outbox.get(op.opId)?.state).toBe('in-flight');
  });

  it('hands out frozen ops, so a caller cannot change the queue behind its back', async () => {
    const op = await outbox.enqueue(updateCustomer('srv1', { city: 'A' }));
    expect(() => {
      (op.payload as { city?: string }).city = 'mutated';
    }).toThrow(TypeError);
    expect(outbox.get(op.opId)?.payload).toEqual({ city: 'A' });
  });

  it('onChange tells listeners after each durable change, until unsubscribed', async () => {
    const seen: Op[][] = [];
    const stop = outbox.onChange((ops) => seen.push(ops));
    const op = await outbox.enqueue(updateCustomer('srv1', { city: 'A' }));
    await outbox.markInFlight(op.opId, 1);
    stop();
    await outbox.markDone(op.opId);
    expect(seen.map((ops) => ops.map((o) => o.state))).toEqual([['pending'], ['in-flight']]);
  });

  it('names the ops that left because the service has them, and not a discarded one', async () => {
    const reached: string[][] = [];
    outbox.onChange((_ops, _acknowledged, ids) => reached.push([...ids]));
    const sent = await outbox.enqueue(updateCustomer('srv1', { city: 'A' }));
    const dropped = await outbox.enqueue(updateCustomer('srv2', { city: 'B' }));
    const created = await outbox.enqueue(createCustomer(tempId(1), 'Acme'));
    await outbox.markInFlight(sent.opId, 1);
    await outbox.markDone(sent.opId);
    await outbox.discard(dropped.opId);
    await outbox.markInFlight(created.opId, 2);
    await outbox.resolveCreate(created.opId, 'srv3');
    expect(reached).toEqual([[], [], [], [], [sent.opId], [], [], [created.opId]]);
  });
});

describe('outbox edit', () => {
  it('replaces the payload of a pending op and sends a needs-attention op back to pending', async () => {
    const create = await outbox.enqueue(createCustomer(tempId(1), 'Acme'));
    const edited = await outbox.edit(create.opId, { ...create.payload, name: 'Acme Corp' });
    expect(edited.payload).toMatchObject({ name: 'Acme Corp' });
    const update = await outbox.enqueue(updateCustomer('srv1', { city: 'A' }));
    await outbox.markInFlight(update.opId, 1);
    await outbox.markNeedsAttention(update.opId, rejected);
    const fixed = await outbox.edit(update.opId, { city: 'B', zip: '9' });
    expect(fixed).toMatchObject({
      state: 'pending',
      lastError: null,
      payload: { city: 'B', zip: '9' },
    });
    const reopened = await reopen();
    expect(reopened.get(create.opId)?.payload).toMatchObject({ name: 'Acme Corp' });
    expect(reopened.get(update.opId)).toMatchObject({
      state: 'pending',
      payload: { city: 'B', zip: '9' },
    });
  });

  it('validates the payload against the op kind and names the problem', async () => {
    const create = await outbox.enqueue(createCustomer(tempId(1), 'Acme'));
    const update = await outbox.enqueue(updateCustomer('srv1', { city: 'A' }));
    const route = await outbox.enqueue(createRoute(tempId(2), 'Mon', ['srv1']));
    const fields = await outbox.enqueue(updateCustomFields({ a: 1 }));
    const del = await outbox.enqueue(deleteCustomer('srv9'));

    const partial = await refusal(outbox.edit(create.opId, { name: 'only a name' }));
    expect(partial.kind).toBe('InvalidRequest');
    expect(partial.message).toMatch(/createCustomer/);
    expect((await refusal(outbox.edit(update.opId, { city: 5 }))).message).toMatch(/"city"/);
    expect((await refusal(outbox.edit(update.opId, { id: 'x' }))).message).toMatch(/"id"/);
    expect(
      (await refusal(outbox.edit(route.opId, { routeName: 'Mon', customerIds: [] }))).message,
    ).toMatch(/customerIds/);
    expect((await refusal(outbox.edit(fields.opId, { a: 1.5 }))).message).toMatch(/"a"/);
    expect((await refusal(outbox.edit(del.opId, null))).message).toMatch(
      /delete has nothing to edit/,
    );
    expect((await reopen()).get(update.opId)?.payload).toEqual({ city: 'A' });
  });
});

describe('outbox enqueue validation', () => {
  it('refuses ops that fail NewOpSchema, name the problem and write nothing', async () => {
    const bad: unknown[] = [
      { kind: 'explode', target: 'x', payload: null, base: null },
      { ...createCustomer('not-a-temp-id', 'A') },
      { ...createCustomer(tempId(1), 'A'), payload: { name: 'A' } },
      updateCustomer('srv1', { color: 7 } as never),
      createRoute(tempId(2), '', ['srv1']),
      updateCustomFields({}),
    ];
    for (const op of bad) {
      const info = await refusal(outbox.enqueue(op as NewOp));
      expect(info.kind).toBe('InvalidRequest');
      expect(info.message).toMatch(/^Invalid change/);
    }
    expect((await refusal(outbox.enqueue(createCustomer('nope', 'A')))).message).toMatch(
      /"target"/,
    );
    expect((await reopen()).list()).toEqual([]);
  });

  it('refuses an op of another account and a second create of the same temp id', async () => {
    const foreign = { ...updateCustomer('srv1', { city: 'A' }), accountKey: 'http://x#other' };
    expect((await refusal(outbox.enqueue(foreign))).message).toMatch(/another account/);
    const own = { ...updateCustomer('srv1', { city: 'A' }), accountKey: ACCOUNT };
    expect((await outbox.enqueue(own)).accountKey).toBe(ACCOUNT);
    await outbox.enqueue(createCustomer(tempId(1), 'A'));
    expect((await refusal(outbox.enqueue(createCustomer(tempId(1), 'B')))).message).toMatch(
      /already has a create/,
    );
  });
});

describe('outbox discard', () => {
  it('removes a pending or needs-attention op', async () => {
    const a = await outbox.enqueue(updateCustomer('srv1', { city: 'A' }));
    const b = await outbox.enqueue(updateCustomer('srv2', { city: 'B' }));
    await outbox.markInFlight(b.opId, 1);
    await outbox.markNeedsAttention(b.opId, rejected);
    expect(await outbox.discard(a.opId)).toBe(true);
    expect(await outbox.discard(b.opId)).toBe(true);
    expect((await reopen()).list()).toEqual([]);
  });

  it('discarding a create drops the pending ops of its temp id and flags routes through it', async () => {
    const t = tempId(1);
    const create = await outbox.enqueue(createCustomer(t, 'Acme'));
    await outbox.markInFlight(create.opId, 1);
    await outbox.enqueue(updateCustomer(t, { city: 'queued' }));
    await outbox.markNeedsAttention(create.opId, rejected);
    const route = await outbox.enqueue(createRoute(tempId(2), 'Mon', [t]));
    const other = await outbox.enqueue(updateCustomer('srv1', { city: 'A' }));
    expect(await outbox.discard(create.opId)).toBe(true);
    const ops = (await reopen()).list();
    expect(ops.map((op) => op.opId)).toEqual([route.opId, other.opId]);
    expect(ops[0]).toMatchObject({ state: 'needs-attention', lastError: { kind: 'Rejected' } });
  });
});

/** Every temp id the queued ops name: targets and routes' customerIds. */
function tempIdsIn(ops: readonly Op[]): Set<string> {
  const ids = new Set<string>();
  for (const op of ops) {
    if (isTempId(op.target)) ids.add(op.target);
    if (op.kind === 'createRoute')
      for (const id of op.payload.customerIds) if (isTempId(id)) ids.add(id);
  }
  return ids;
}

describe('outbox temp ids', () => {
  it('rewriteTempId rewrites targets and route customer ids durably, leaving the create its temp id', async () => {
    const t = tempId(1);
    const create = await outbox.enqueue(createCustomer(t, 'Acme'));
    await outbox.markInFlight(create.opId, 1);
    const upd = await outbox.enqueue(updateCustomer(t, { city: 'A' }));
    const route = await outbox.enqueue(createRoute(tempId(2), 'Mon', ['srv0', t, tempId(3)]));
    const del = await outbox.enqueue(deleteCustomer(tempId(3)));
    expect([...tempIdsIn(outbox.list())].sort()).toEqual([t, tempId(2), tempId(3)].sort());
    expect(outbox.list().filter((op) => op.state === 'pending')).toHaveLength(3);

    await outbox.rewriteTempId(t, 'Ab3dE5gH9k');
    const reopened = await reopen();
    expect(reopened.get(create.opId)?.target).toBe(t);
    expect(reopened.get(upd.opId)?.target).toBe('Ab3dE5gH9k');
    expect(reopened.get(route.opId)?.payload).toEqual({
      routeName: 'Mon',
      customerIds: ['srv0', 'Ab3dE5gH9k', tempId(3)],
    });
    expect(reopened.get(del.opId)?.target).toBe(tempId(3));
    // The journal holds the rewrite as one record: the one after the four enqueues and the send.
    expect(reopened.recovery.journalRecords).toBe(6);
  });

  it('resolveCreate removes the create and rewrites its temp id in one durable record', async () => {
    const t = tempId(1);
    const create = await outbox.enqueue(createCustomer(t, 'Acme'));
    await outbox.markInFlight(create.opId, 1);
    const upd = await outbox.enqueue(updateCustomer(t, { city: 'A' }));
    const route = await outbox.enqueue(createRoute(tempId(2), 'Mon', [t]));
    const before = (await reopen()).recovery.journalRecords;
    await outbox.resolveCreate(create.opId, 'Srv0000001');
    const reopened = await reopen();
    expect(reopened.recovery.journalRecords).toBe(before + 1);
    expect(reopened.list().map((op) => [op.opId, op.target])).toEqual([
      [upd.opId, 'Srv0000001'],
      [route.opId, tempId(2)],
    ]);
    expect(reopened.get(route.opId)?.payload).toMatchObject({ customerIds: ['Srv0000001'] });
    expect(tempIdsIn(reopened.list())).toEqual(new Set([tempId(2)]));
    expect((await refusal(outbox.resolveCreate(upd.opId, 'x'))).message).toMatch(
      /not a queued customer create/,
    );
  });

  it('refuses a rewrite to a temp id or from a server id', async () => {
    expect((await refusal(outbox.rewriteTempId(tempId(1), tempId(2)))).kind).toBe('InvalidRequest');
    expect((await refusal(outbox.rewriteTempId('srv1', 'srv2'))).kind).toBe('InvalidRequest');
  });
});

describe('outbox concurrency', () => {
  it('serialises concurrent enqueues: every op lands once, in call order', async () => {
    const ops = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        outbox.enqueue(updateCustomer(`srv${i}`, { city: String(i) })),
      ),
    );
    expect(outbox.list().map((op) => op.opId)).toEqual(ops.map((op) => op.opId));
    expect((await reopen()).list().map((op) => op.target)).toEqual(ops.map((op) => op.target));
  });
});

describe('outbox close', () => {
  it('finishes the mutations asked before close and refuses later ones', async () => {
    const pending = outbox.enqueue(updateCustomer('srv1', { city: 'A' }));
    const closing = outbox.close();
    const late = outbox.enqueue(updateCustomer('srv2', { city: 'B' }));
    await expect(pending).resolves.toMatchObject({ target: 'srv1' });
    await closing;
    await outbox.close(); // twice is fine
    expect((await refusal(late)).message).toMatch(/closed/);
    expect((await reopen()).list().map((op) => op.target)).toEqual(['srv1']);
  });
});
