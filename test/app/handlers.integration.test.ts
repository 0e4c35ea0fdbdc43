// The data handlers (sync, outbox, conflicts, search, links) through the IPC router, against
// the reference service over HTTP, the real keychain and real files.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EventOf } from '../../src-shared/ipc-contract';
import type { Op } from '../../src-shared/outbox-types';
import { startService, type RunningService } from '../../src-service/index';
import { HAS_KEYCHAIN, startApp, type AppUnderTest } from '../support/main';

const REP = { username: 'rep', password: 'handlers-rep-pw-51' };
const LOOPBACK = ['127.0.0.1/8', '::1'];

describe.skipIf(!HAS_KEYCHAIN)('data handlers', () => {
  let service: RunningService;
  let app: AppUnderTest;
  let accountKey: string;

  beforeAll(async () => {
    service = await startService({ rate: 0, accounts: [{ ...REP, customers: 25, seed: 11 }] });
  });
  afterAll(async () => {
    await service.stop();
  });
  beforeEach(async () => {
    service.configure({ allow: LOOPBACK });
    app = await startApp();
    accountKey = (await app.ok('session:login', { baseUrl: service.url, ...REP })).accountKey;
  });
  afterEach(async () => {
    await app.dispose();
  });

  it('sync:now delivers a snapshot of the account to the renderer', async () => {
    const state = await app.ok('sync:now');
    expect(state.kind).toBe('synced');
    const snapshot = await app.waitForEvent<EventOf<'data:snapshot'>>('data:snapshot');
    expect(snapshot.accountKey).toBe(accountKey);
    const expected = service.store
      .customers('rep')
      .map((c) => c.id)
      .sort();
    expect(snapshot.customers.map((c) => c.id).sort()).toEqual(expected);
    expect(snapshot.user.username).toBe('rep');
    expect(await app.ok('sync:state')).toEqual(state);

    // A reload of the renderer gets the snapshot again.
    const before = app.events.filter((e) => e.event === 'data:snapshot').length;
    expect(await app.ok('data:open', { accountKey: null, newerThan: null })).toBe(true);
    await app.waitForEvent(
      'data:snapshot',
      () => app.events.filter((e) => e.event === 'data:snapshot').length > before,
    );
  });

  it('enqueue announces outbox:changed and the change reaches the service', async () => {
    // sync:now joins a running sync; let the start-up sync finish so the next one includes the op.
    await app.ok('sync:now');
    const customer = service.store.customers('rep')[0]!;
    const op = await app.ok('outbox:enqueue', {
      kind: 'updateCustomer',
      target: customer.id,
      payload: { notes: 'met the buyer' },
      base: customer,
    });
    expect(op).toMatchObject({ accountKey, kind: 'updateCustomer', target: customer.id });
    const changed = await app.waitForEvent<EventOf<'outbox:changed'>>('outbox:changed', (e) =>
      e.ops.some((o) => o.opId === op.opId),
    );
    expect(changed.accountKey).toBe(accountKey);
    await app.ok('sync:now');
    expect(service.store.customer('rep', customer.id)?.notes).toBe('met the buyer');
    expect(await app.ok('outbox:list')).toEqual([]);
  });

  it('lists, edits, retries and discards queued changes', async () => {
    service.configure({ allow: ['10.0.0.0/8'] }); // off the office network: everything stays queued
    const customer = service.store.customers('rep')[1]!;
    const op = await app.ok('outbox:enqueue', {
      kind: 'updateCustomer',
      target: customer.id,
      payload: { city: 'Lyon' },
      base: customer,
    });
    expect((await app.ok('outbox:list')).map((o) => o.opId)).toEqual([op.opId]);

    const edited = await app.ok('outbox:edit', { opId: op.opId, payload: { city: 'Nantes' } });
    expect(edited.payload).toEqual({ city: 'Nantes' });

    const badEdit = await app.call('outbox:edit', {
      opId: op.opId,
      payload: { routeName: 'x', customerIds: ['a'] },
    });
    expect(badEdit.ok).toBe(false);
    if (!badEdit.ok) expect(badEdit.error.kind).toBe('InvalidRequest');

    const unknown = await app.call('outbox:retry', { opId: 'no-such-op' });
    expect(unknown.ok).toBe(false);
    if (!unknown.ok) expect(unknown.error.field).toBe('opId');

    expect(await app.ok('outbox:discard', { opId: op.opId })).toBe(true);
    expect(await app.ok('outbox:list')).toEqual([]);
    const last = app.events.filter((e) => e.event === 'outbox:changed').at(-1)?.payload as {
      ops: Op[];
    };
    expect(last.ops).toEqual([]);
  });

  it('searches the service for the rep before the first pull', async () => {
    const target = service.store.customers('rep')[2]!;
    const found = await app.ok('customers:search', { term: target.name });
    expect(found.map((c) => c.id)).toContain(target.id);
  });

  it('lists conflicts (none on a fresh account) and refuses to resolve an unknown one', async () => {
    expect(await app.ok('conflicts:list')).toEqual([]);
    const result = await app.call('conflicts:resolve', { conflictId: 'nope', choice: 'server' });
    expect(result.ok).toBe(false);
  });

  it('refuses links that are not https or not from a click', async () => {
    const http = await app.call('shell:open-external', {
      url: 'http://example.com',
      userActivated: true,
    });
    expect(http.ok).toBe(false);
    const noClick = await app.call('shell:open-external', { url: 'https://example.com' });
    expect(noClick.ok).toBe(false);
  });

  it('answers NotSignedIn, or an empty view, once signed out', async () => {
    await app.ok('session:logout', { accountKey, dropUnsynced: false });
    expect(await app.ok('sync:state')).toEqual({ kind: 'signed-out' });
    expect(await app.ok('outbox:list')).toEqual([]);
    const enqueue = await app.call('outbox:enqueue', {
      kind: 'updateCustomFields',
      target: 'user',
      payload: { visits: 1 },
      base: null,
    });
    expect(enqueue.ok).toBe(false);
    if (!enqueue.ok) expect(enqueue.error.kind).toBe('NotSignedIn');
  });
});
