// What the engine tells the status bar after a failure it retries by itself: when it tries again
// (the status shows "next try in …"), on the injected clock, and that it does try then.
import { afterEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../support/clock';
import { Harness } from '../support/main';

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe('the sync state after a transient failure', () => {
  it('says when the engine tries again, and tries then', async () => {
    const clock = new FakeClock(Date.now());
    h = await Harness.start({
      engine: { clock, retryBackoff: { initialMs: 20_000, maxMs: 60_000, factor: 2 } },
      clientBackoff: { baseMs: 1, capMs: 2 },
    });
    h.engine.start();
    await h.engine.syncNow();
    h.service.configure({ faults: { errorRate: 1 } });
    const failedAt = clock.now();
    const state = await h.engine.syncNow();
    expect(state).toMatchObject({ kind: 'error', nextTryAt: failedAt + 20_000 });

    h.service.configure({ faults: { errorRate: 0 } });
    const before = h.service.stats().requests;
    await clock.advance(19_000);
    expect(h.service.stats().requests).toBe(before);
    await clock.advance(1_000);
    expect(h.engine.state.kind).toBe('syncing');
    expect((await h.engine.syncNow()).kind).toBe('synced');
  });
});

describe('the message of a failed sync', () => {
  it('a pull cut off has no write-side wording; a BadResponse names what was wrong', async () => {
    const clock = new FakeClock(Date.now());
    h = await Harness.start({ engine: { clock }, clientBackoff: { baseMs: 1, capMs: 2 } });
    h.service.configure({ faults: { resetAfterRate: 1 } });
    const cut = await h.engine.syncNow();
    expect(cut.kind).toBe('error');
    const cutMessage = cut.kind === 'error' ? cut.message : '';
    expect(cutMessage).not.toMatch(/whether the change arrived/);
    expect(cutMessage).toMatch(/Nothing was lost/);

    h.service.configure({
      faults: { resetAfterRate: 0, redirectStatus: 302, redirectTo: 'http://127.0.0.1:9/' },
    });
    const bad = await h.engine.syncNow();
    expect(bad.kind).toBe('error');
    expect(bad.kind === 'error' ? bad.message : '').toMatch(/redirect \(302\)/);
  });
});
