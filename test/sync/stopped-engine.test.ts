// A stopped engine (the account was closed: switch, sign-out, quit) never touches that
// account's outbox, files or service again, even when a probe was on its way at the stop.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Harness, newFields, tempId } from './harness';

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
    h = await Harness.start({ engine: { periodMs: 10 * 60_000 } });
    await h.outbox.enqueue({
      kind: 'createCustomer',
      target: tempId(2),
      payload: newFields('Queued Off Network'),
      base: null,
    });
    // Off the office network: the engine probes with GET /user.
    h.service.configure({ allow: ['10.0.0.0/8'] });
    const harness = h;
    const getUser = h.client.getUser.bind(h.client);
    let probe: Promise<unknown> | null = null;
    h.client.getUser = (...args) => {
      const answer = (async () => {
        if (harness.engine.state.kind === 'off-network' && !probe) {
          // The rep switches account while the probe is on its way; the office network is back.
          harness.service.configure({ allow: ['127.0.0.1/32', '::1/128'] });
          await harness.close();
          harness.service.resetStats();
        }
        return getUser(...args);
      })();
      probe ??= harness.engine.state.kind === 'off-network' ? answer : null;
      return answer;
    };
    h.engine.start();
    await until(() => probe !== null, 'a probe');
    await probe!.catch(() => undefined);
    const events = h.events.length;
    // Whatever the engine would do after the probe starts at once (no timer in between).
    await new Promise((r) => setTimeout(r, 200));
    expect(h.events.slice(events)).toEqual([]);
    // The probe itself only.
    expect(h.service.stats().requests).toBe(1);
    expect(await stateFiles(h.dir)).not.toContain('sync-ledger.json');
  });
});
