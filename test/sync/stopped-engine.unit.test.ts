// A stopped engine (the account was closed: switch, sign-out, quit) never touches that
// account's outbox, files or service again, even when a probe was on its way at the stop.
// The engine runs on a FakeClock and the probe is held at a service gate: no timing windows.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock, settle } from '../support/clock';
import { Harness, newFields, tempId } from '../support/main';
import { until } from '../support/until';

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

async function stateFiles(dir: string): Promise<string[]> {
  return readdir(path.join(dir, 'state')).catch(() => []);
}

describe('SyncEngine after stop', () => {
  it('does not sync when asked after it was stopped', async () => {
    h = await Harness.start();
    await h.outbox.enqueue({
      kind: 'createCustomer',
      target: tempId(1),
      payload: newFields('Queued Before Close'),
      base: null,
    });
    await h.close();
    h.service.resetStats();
    const events = h.events.length;
    await h.engine.syncNow();
    expect(h.service.stats().requests).toBe(0);
    expect(h.events.length).toBe(events);
    expect(await stateFiles(h.dir)).not.toContain('sync-ledger.json');
  });

  it('does not sync after a probe that was on its way when the engine stopped', async () => {
    const clock = new FakeClock();
    h = await Harness.start({ engine: { periodMs: 10 * 60_000, clock } });
    await h.outbox.enqueue({
      kind: 'createCustomer',
      target: tempId(2),
      payload: newFields('Queued Off Network'),
      base: null,
    });
    // Off the office network: the engine waits, then probes with GET /user.
    h.service.configure({ allow: ['10.0.0.0/8'] });
    h.engine.start();
    await until(() => h!.engine.state.kind === 'off-network', 'off-network');
    // The office network is back; the probe will be held on its way at the service.
    h.service.configure({ allow: ['127.0.0.1/32', '::1/128'] });
    const gate = h.service.hold('GET', /^\/api\/v1\/user$/);
    const probes: Promise<unknown>[] = [];
    const client = h.client;
    const getUser = client.getUser.bind(client);
    client.getUser = (...args) => {
      const answer = getUser(...args);
      probes.push(answer);
      return answer;
    };
    await clock.advance(60_000);
    await gate.arrived;
    expect(probes).toHaveLength(1);
    // The rep switches account while the probe is on its way.
    await h.close();
    h.service.resetStats();
    const events = h.events.length;
    gate.release();
    await probes[0]!.catch(() => undefined);
    // Whatever the engine would do after the probe starts at once (no timer in between), and
    // stop() waits for a sync that started; any timer left would fire within this hour.
    await settle();
    await h.engine.stop();
    await clock.advance(60 * 60_000);
    await h.engine.stop();
    expect(h.events.slice(events)).toEqual([]);
    expect(probes).toHaveLength(1);
    // The probe reached the service before the reset; nothing after it did.
    expect(h.service.stats().requests).toBe(0);
    expect(await stateFiles(h.dir)).not.toContain('sync-ledger.json');
  });
});
