// A sleep given a signal that outlives it (a loop's, such as the engine's re-telling of the time
// left during a sync) takes its abort listener away when it ends: otherwise the signal would hold
// one per sleep for as long as the loop runs. The product's clock and the tests' fake alike.
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { systemClock } from '../../src-main/core/ports';
import { FakeClock } from '../support/clock';

describe('a sleep with a long-lived signal', () => {
  it('leaves no listener behind once it ended, and still ends early when aborted', async () => {
    const loop = new AbortController();
    for (let i = 0; i < 20; i++) await systemClock.sleep(0, loop.signal);
    expect(getEventListeners(loop.signal, 'abort')).toHaveLength(0);

    const clock = new FakeClock();
    for (let i = 0; i < 20; i++) {
      const sleep = clock.sleep(1_000, loop.signal);
      await clock.advance(1_000);
      await sleep;
    }
    expect(getEventListeners(loop.signal, 'abort')).toHaveLength(0);

    const real = systemClock.sleep(60_000, loop.signal);
    const fake = clock.sleep(60_000, loop.signal);
    loop.abort(new Error('stopped'));
    await expect(real).rejects.toThrow('stopped');
    await expect(fake).rejects.toThrow('stopped');
    expect(clock.timers).toBe(0);
  });
});
