// A rep's queued change goes out by itself shortly after it is queued (no "Sync now" needed),
// also when it is queued while a sync is already running; while offline it waits for the probe.
import { afterEach, describe, expect, it } from 'vitest';
import { Harness, USER } from './harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`never reached: ${what}`);
}

describe('SyncEngine after a queued change', () => {
  it('pushes a change queued while idle, without an explicit sync', async () => {
    h = await Harness.start({ engine: { periodMs: 10 * 60_000 } });
    h.engine.start();
    await until(
      () => h!.engine.state.kind === 'synced' && h!.of('data:snapshot').length === 1,
      'first sync',
    );
    const [target] = h.serverCustomers();
    await h.outbox.enqueue({
      kind: 'updateCustomer',
      target: target!.id,
      payload: { notes: 'pushed by itself' },
      base: h.base(target!.id),
    });
    h.engine.nudge('change');
    await until(
      () => h!.service.store.customer(USER, target!.id)?.notes === 'pushed by itself',
      'pushed',
    );
    await until(() => h!.outbox.list().length === 0, 'outbox empty');
  });

  it('runs once more when a change is queued during a running sync', async () => {
    h = await Harness.start({ engine: { periodMs: 10 * 60_000 } });
    h.engine.start();
    const [target] = h.serverCustomers();
    // The start-up sync is running now: the change lands behind it.
    await h.outbox.enqueue({
      kind: 'updateCustomer',
      target: target!.id,
      payload: { city: 'Queued During Sync' },
      base: h.base(target!.id),
    });
    h.engine.nudge('change');
    await until(
      () => h!.service.store.customer(USER, target!.id)?.city === 'Queued During Sync',
      'pushed',
    );
  });

  it('does not hammer an unreachable service: a change waits for the probe', async () => {
    h = await Harness.start({
      engine: {
        periodMs: 10 * 60_000,
        probeBackoff: { initialMs: 60_000, maxMs: 60_000, factor: 1 },
      },
    });
    await h.service.stop();
    h.engine.start();
    await until(() => h!.engine.state.kind === 'offline', 'offline');
    const before = h.engine.state;
    h.engine.nudge('change');
    await new Promise((r) => setTimeout(r, 700));
    expect(h.engine.state).toEqual(before);
  });
});
