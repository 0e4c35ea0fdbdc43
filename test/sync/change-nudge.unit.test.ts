// A rep's queued change goes out by itself shortly after it is queued (no "Sync now" needed),
// also when it is queued while a sync is already running; while offline it waits for the probe.
// The engine runs on a FakeClock: its debounce, retry and probe timers fire only when the test
// moves time, and a running sync is held at a service gate (RunningService.hold), so nothing
// depends on how fast this machine is.
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock, settle } from '../support/clock';
import { Harness, USER } from '../support/main';
import { until } from '../support/until';

/** Longer than the engine's change debounce (500 ms), far shorter than its 10 min period. */
const DEBOUNCE_PASSED_MS = 1_000;

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

/** Waits for real I/O (HTTP on loopback, files) to reach a state; the bound only ends a hang. */
describe('SyncEngine after a queued change', () => {
  /** A started engine on a FakeClock, past its first sync, with one update of a customer queued. */
  async function syncedWithQueued(payload: { notes: string } | { city: string }) {
    const clock = new FakeClock();
    h = await Harness.start({ engine: { periodMs: 10 * 60_000, clock } });
    h.engine.start();
    await until(
      () => h!.engine.state.kind === 'synced' && h!.of('data:snapshot').length === 1,
      'first sync',
    );
    const [target] = h.serverCustomers();
    await h.outbox.enqueue({
      kind: 'updateCustomer',
      target: target!.id,
      payload,
      base: h.base(target!.id),
    });
    return { harness: h, clock, target: target! };
  }

  it('pushes a change queued while idle, after the debounce, without an explicit sync', async () => {
    const { harness, clock, target } = await syncedWithQueued({ notes: 'pushed by itself' });
    harness.engine.nudge('change');
    await settle();
    // Several quick edits share one sync: none starts before the debounce.
    expect(harness.engine.state.kind).toBe('synced');
    expect(harness.outbox.list()).toHaveLength(1);
    await clock.advance(DEBOUNCE_PASSED_MS);
    await until(
      () => harness.service.store.customer(USER, target.id)?.notes === 'pushed by itself',
      'pushed',
    );
    await until(() => harness.outbox.list().length === 0, 'outbox empty');
  });

  /**
   * The start-up sync held in its pull (its push has read the empty outbox), and a change of
   * `city` queued meanwhile; the held pull's release goes on with the sync.
   */
  async function changeDuringHeldSync(city: string) {
    const clock = new FakeClock();
    h = await Harness.start({ engine: { periodMs: 10 * 60_000, clock } });
    const pull = h.service.hold('GET', /^\/api\/v1\/customers$/);
    h.engine.start();
    await pull.arrived;
    const [target] = h.serverCustomers();
    await h.outbox.enqueue({
      kind: 'updateCustomer',
      target: target!.id,
      payload: { city },
      base: h.base(target!.id),
    });
    return { harness: h, pull, target: target! };
  }

  it('runs once more when a change is queued during a running sync', async () => {
    const { harness, pull, target } = await changeDuringHeldSync('Queued During Sync');
    harness.engine.nudge('change');
    pull.release();
    // It goes in a second sync right after the held one: no timer, the clock never moves.
    await until(
      () => harness.service.store.customer(USER, target.id)?.city === 'Queued During Sync',
      'pushed',
    );
    await until(() => harness.engine.state.kind === 'synced', 'synced');
    expect(harness.outbox.list()).toEqual([]);
  });

  it('a "sync now" asked during a running sync, after a change, pushes that change too', async () => {
    // The spreadsheet import queues its rows and asks for a sync; a sync already past its push
    // must not be the one that answers, or the rows wait for the next period, under "Synced".
    const { harness, pull, target } = await changeDuringHeldSync('Asked During Sync');
    const asked = harness.engine.syncNow();
    pull.release();
    await asked;
    // Never "synced" while the change is still queued.
    expect({ state: harness.engine.state.kind, queued: harness.outbox.list().length }).not.toEqual({
      state: 'synced',
      queued: 1,
    });
    await until(
      () => harness.service.store.customer(USER, target.id)?.city === 'Asked During Sync',
      'pushed without the period passing',
    );
    await until(() => harness.engine.state.kind === 'synced', 'synced');
    expect(harness.outbox.list()).toEqual([]);
  });

  it('pulls once when the network comes back twice: main\'s nudge and the page\'s "Sync now"', async () => {
    const { harness, target } = await syncedWithQueued({ city: 'Sent Once' });
    const pull = harness.service.hold('GET', /^\/api\/v1\/customers$/);
    harness.service.resetStats();
    // Back online: main hears it and syncs; the page hears it too and asks for a sync.
    harness.engine.nudge('online');
    await pull.arrived;
    const asked = harness.engine.syncNow();
    pull.release();
    await asked;
    await until(() => harness.engine.state.kind === 'synced', 'synced');
    await settle();
    expect(harness.service.store.customer(USER, target.id)?.city).toBe('Sent Once');
    // One push (GET by id and PUT) and one pull (four GETs): no second pull.
    expect(harness.service.stats().requests).toBeLessThanOrEqual(6);
    expect(harness.of('sync:state').at(-1)?.kind).toBe('synced');
  });

  it('does not hammer an unreachable service: a change waits for the probe', async () => {
    const clock = new FakeClock();
    h = await Harness.start({
      engine: {
        clock,
        periodMs: 10 * 60_000,
        probeBackoff: { initialMs: 60_000, maxMs: 60_000, factor: 1 },
      },
    });
    const calls: string[] = [];
    const client = h.client;
    const listCustomers = client.listCustomers.bind(client);
    client.listCustomers = (...args) => {
      calls.push('listCustomers');
      return listCustomers(...args);
    };
    await h.service.stop();
    h.engine.start();
    await until(() => h!.engine.state.kind === 'offline', 'offline');
    const before = h.engine.state;
    const syncs = calls.length;
    h.engine.nudge('change');
    // Past the change debounce, well before the probe is due.
    await clock.advance(DEBOUNCE_PASSED_MS);
    await settle();
    expect(calls.length).toBe(syncs);
    expect(h.engine.state).toEqual(before);
  });
});
