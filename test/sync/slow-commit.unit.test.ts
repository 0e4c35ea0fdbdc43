// A slow server: the create's answer times out on the client, but the service still commits it
// afterwards. A list fetched right after the timeout does not show it yet; only a list started
// after the absence grace may prove it absent. Exactly one server record per create.
// The service holds the POST at a gate until the test releases it, and the engine runs on a
// FakeClock, so the grace passes only when the test says so: no timing windows.
import { afterEach, describe, expect, it } from 'vitest';
import { createdButNotFound } from '../../src-main/core/sync/errors';
import { FakeClock } from '../support/clock';
import { Harness, newFields, tempId, USER } from '../support/main';
import { until } from '../support/until';

/** The client gives up on an answer this soon (the gate holds the POST until released). */
const CLIENT_TIMEOUT_MS = 250;
/** The absence grace, on the engine's (fake) clock. */
const GRACE_MS = 1_600;

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

/** Waits for real I/O (HTTP on loopback, files) to reach a state; the bound only ends a hang. */
describe('a create the service commits after the client gave up', () => {
  it('is never resent: the temp id resolves to the one record, by itself', async () => {
    const clock = new FakeClock();
    h = await Harness.start({
      clientTimeoutMs: CLIENT_TIMEOUT_MS,
      engine: { clock, periodMs: 10 * 60_000, push: { absenceGraceMs: GRACE_MS } },
    });
    await h.engine.syncNow();
    const before = h.serverCustomers().length;
    const tmp = tempId(1);
    const fields = newFields('Slow Commit', { city: 'Lyon', latitude: 45.76, longitude: 4.84 });
    const create = await h.outbox.enqueue({
      kind: 'createCustomer',
      target: tmp,
      payload: fields,
      base: null,
    });
    const post = h.service.hold('POST', /^\/api\/v1\/customers$/);
    let posts = 0;
    const client = h.client;
    const createCustomer = client.createCustomer.bind(client);
    client.createCustomer = (...args) => {
      posts++;
      return createCustomer(...args);
    };
    const synced = () => h!.of('sync:state').filter((s) => s.kind === 'synced').length;
    const syncsBefore = synced();

    // The engine runs on its own: start, then whatever it schedules on its clock.
    h.engine.start();
    await post.arrived;
    // The rep edits the new customer meanwhile: the edit waits for the temp id.
    await h.outbox.enqueue({
      kind: 'updateCustomer',
      target: tmp,
      payload: { notes: 'edited while unsure' },
      base: null,
    });
    // The client gave up on the answer; a list made since cannot prove the create absent.
    await until(() => synced() > syncsBefore, 'the sync around the lost answer');
    expect(h.outbox.get(create.opId)?.state).toBe('in-flight');
    expect(h.serverCustomers().filter((c) => c.name === 'Slow Commit')).toEqual([]);

    // The service commits it now, long after the client gave up.
    post.release();
    await until(() => h!.serverCustomers().some((c) => c.name === 'Slow Commit'), 'the commit');
    // Past the grace: the engine's recheck finds the record instead of resending.
    await clock.advance(GRACE_MS);
    await until(() => h!.outbox.list().length === 0, 'outbox empty');

    const created = h.serverCustomers().filter((c) => c.name === 'Slow Commit');
    expect(created).toHaveLength(1);
    expect(posts).toBe(1);
    expect(h.serverCustomers()).toHaveLength(before + 1);
    expect(h.resolvedIds().get(tmp)).toBe(created[0]!.id);
    expect(created[0]!.notes).toBe('edited while unsure');
    expect(h.service.store.customer(USER, created[0]!.id)?.city).toBe('Lyon');
  });

  it('reconciles a create the rep retries after it was flagged, before any resend', async () => {
    h = await Harness.start();
    await h.engine.syncNow();
    const before = h.serverCustomers().length;
    const tmp = tempId(2);
    const fields = newFields('Flagged Then Retried', { company: 'Retry Co' });
    const op = await h.outbox.enqueue({
      kind: 'createCustomer',
      target: tmp,
      payload: fields,
      base: null,
    });
    // An earlier sync sent it (the service committed it) and flagged it as created but not
    // found; the rep presses Retry. Driven through the real outbox and service store.
    await h.outbox.markInFlight(op.opId, Date.now());
    const record = h.service.store.createCustomerDirect(USER, fields);
    await h.outbox.markNeedsAttention(op.opId, createdButNotFound());
    await h.outbox.retry(op.opId);
    expect(h.outbox.get(op.opId)?.sentAt).not.toBeNull();

    await h.drain();
    expect(h.serverCustomers().filter((c) => c.name === 'Flagged Then Retried')).toHaveLength(1);
    expect(h.serverCustomers()).toHaveLength(before + 1);
    expect(h.outbox.list()).toEqual([]);
    expect(h.resolvedIds().get(tmp)).toBe(record.id);
  });
});
