// A slow server: the create's answer times out on the client, but the service still commits it
// afterwards. A list fetched right after the timeout does not show it yet; only a list started
// after the absence grace may prove it absent. Exactly one server record per create.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServiceApi } from '../../src-main/core/ports';
import { createdButNotFound } from '../../src-main/core/sync/errors';
import { Harness, newFields, tempId, USER } from './harness';

/** The service holds the slow request this long before committing it. */
const SLOW_COMMIT_MS = 1_000;
/** The client gives up on an answer long before that. */
const CLIENT_TIMEOUT_MS = 250;
/** Longer than the slowest commit: a list started after it sees every committed create. */
const GRACE_MS = 1_600;

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

async function until(check: () => boolean, limitMs: number): Promise<void> {
  const end = Date.now() + limitMs;
  while (!check() && Date.now() < end) await sleep(20);
}

describe('a create the service commits after the client gave up', () => {
  it('is never resent: the temp id resolves to the one record, by itself', async () => {
    h = await Harness.start({
      clientTimeoutMs: CLIENT_TIMEOUT_MS,
      engine: { push: { absenceGraceMs: GRACE_MS } },
    });
    await h.engine.syncNow();
    const before = h.serverCustomers().length;
    const tmp = tempId(1);
    const fields = newFields('Slow Commit', { city: 'Lyon', latitude: 45.76, longitude: 4.84 });
    await h.outbox.enqueue({ kind: 'createCustomer', target: tmp, payload: fields, base: null });

    // Only the first POST is slow: latency is on while it reaches the service, off once the
    // client has given up (the service decided the delay on arrival and still commits later).
    const harness = h;
    let posts = 0;
    const api = new Proxy(h.client, {
      get(target, key, receiver) {
        if (key === 'createCustomer') {
          return async (...args: Parameters<ServiceApi['createCustomer']>) => {
            posts++;
            if (posts > 1) return target.createCustomer(...args);
            harness.service.configure({ faults: { latencyMs: SLOW_COMMIT_MS } });
            try {
              return await target.createCustomer(...args);
            } finally {
              harness.service.configure({ faults: { latencyMs: 0 } });
              // The rep edits the new customer meanwhile: the edit waits for the temp id.
              await harness.outbox.enqueue({
                kind: 'updateCustomer',
                target: tmp,
                payload: { notes: 'edited while unsure' },
                base: null,
              });
            }
          };
        }
        const value = Reflect.get(target, key, receiver) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    await h.close();
    await h.open({ api });
    const slowDone = Date.now() + SLOW_COMMIT_MS + 300;

    // The engine runs on its own: start, then whatever retry it schedules.
    h.engine.start();
    const outbox = h.outbox;
    await until(() => outbox.list().length === 0, 10_000);
    // Whatever the engine did, the slow request has committed by now.
    await sleep(Math.max(0, slowDone - Date.now()));

    const created = h.serverCustomers().filter((c) => c.name === 'Slow Commit');
    expect(created).toHaveLength(1);
    expect(posts).toBe(1);
    expect(h.serverCustomers()).toHaveLength(before + 1);
    expect(h.outbox.list()).toEqual([]);
    expect(h.resolvedIds().get(tmp)).toBe(created[0]!.id);
    expect(created[0]!.notes).toBe('edited while unsure');
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
