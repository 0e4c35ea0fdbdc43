// A conflict decision made while a sync runs: the change it queues goes out by itself once that
// sync is over (it used to wait for the next periodic sync, minutes later). The sync is held at
// the service by a gate and time is the injected clock: no wall-clock waits.
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../support/clock';
import { Harness, USER } from '../support/main';

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe('a conflict decision made during a sync', () => {
  it('is sent right after the running sync, and the status never says synced while it waits', async () => {
    const clock = new FakeClock(Date.now());
    h = await Harness.start({ engine: { clock, periodMs: 10 * 60_000 } });
    await h.engine.syncNow();
    const [target] = h.serverCustomers();
    const id = target!.id;
    const base = h.base(id);
    h.service.store.updateCustomerDirect(USER, id, { city: 'Server City' });
    await h.outbox.enqueue({ kind: 'updateCustomer', target: id, payload: { city: 'Rep' }, base });
    await h.engine.syncNow();
    const [conflict] = await h.engine.conflicts();
    expect(h.base(id).city).toBe('Rep');

    // The next sync's pull is held at the service: the sync is running.
    const gate = h.service.hold('GET', /^\/api\/v1\/customers$/);
    h.engine.start();
    await gate.arrived;
    await h.engine.resolveConflict(conflict!.conflictId, 'server');
    expect(h.outbox.list()).toHaveLength(1);
    const statesFrom = h.events.length;
    // Resolves when the decision has reached the service, with how many events were sent by then.
    const sent = new Promise<number>((resolve) => {
      h!.outbox.onChange((ops) => {
        if (ops.length === 0) resolve(h!.events.length);
      });
    });
    gate.release();
    // Joins the running sync (it is still waiting for the released answer).
    await h.engine.syncNow();
    // Only the injected clock moves: one debounce at most, never the 5-minute period.
    await clock.advance(1_000);
    const eventsWhenSent = await sent;
    expect(h.base(id).city).toBe('Server City');
    // Between the decision and its arrival no status said "synced".
    const states = h.events
      .slice(statesFrom, eventsWhenSent)
      .flatMap((e) => (e.event === 'sync:state' ? [e.payload.kind] : []));
    expect(states).toContain('syncing');
    expect(states).not.toContain('synced');
  });
});
