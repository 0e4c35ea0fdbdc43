// How far a bulk action's changes got, as the Selection panel says it (selection/bulk-progress.ts):
// a change counts as sent only once main said the service has it, so the panel never says "All …
// reached the service" for changes the page has not even seen queued yet. The time left is main's
// (sync-eta.unit.test.ts); how it is written is the formatter's (format.unit.test.ts).
import { describe, expect, it } from 'vitest';
import type { Op } from '../../src-shared';
import { drainView, type Drain } from '../../src-renderer/src/features/selection/bulk-progress';

const pending = (opId: string) => ({ opId, state: 'pending' }) as Op;
const drainOf = (ids: string[], seen: string[] = []): Drain => ({
  tracked: new Set(ids),
  seen: new Set(seen),
});
const env = (reached: string[] = [], timeLeftMs: number | null = null) => ({
  online: true,
  reached: new Set(reached),
  timeLeftMs,
});

describe("a bulk action's changes on their way", () => {
  it('are waiting until main says the service has them, even before the page sees them queued', () => {
    // Just queued: main acknowledged the enqueue, the page's copy of the queue is not there yet.
    const fresh = drainView(drainOf(['a', 'b', 'c']), [], env());
    expect(fresh).toMatchObject({ total: 3, sent: 0, waiting: 3, finished: false });
    expect(fresh.text).toMatch(/^Sending 0 of 3 changes/);
    // Two answered; the queue the page holds already lost them (events folded on the way).
    const later = drainView(
      drainOf(['a', 'b', 'c'], ['a', 'b', 'c']),
      [pending('c')],
      env(['a', 'b']),
    );
    expect(later).toMatchObject({ total: 3, sent: 2, waiting: 1, finished: false });
    // A reached op that never showed in the page's queue counts as sent too.
    const folded = drainView(drainOf(['a', 'b', 'c']), [], env(['a', 'b', 'c']));
    expect(folded).toMatchObject({ sent: 3, waiting: 0, finished: true });
    expect(folded.text).toBe('All 3 changes reached the service.');
  });

  it("counts a change as sent as soon as main says so, ahead of the page's copy of the queue", () => {
    const view = drainView(
      drainOf(['a', 'b'], ['a', 'b']),
      [pending('a'), pending('b')],
      env(['a']),
    );
    expect(view).toMatchObject({ total: 2, sent: 1, waiting: 1, finished: false });
  });

  it('says how many need attention, in agreement with their number', () => {
    const attention = (opId: string) => ({ opId, state: 'needs-attention' }) as Op;
    const one = drainView(drainOf(['a', 'b'], ['a', 'b']), [attention('b')], env(['a']));
    expect(one.text).toBe(
      '1 of 2 changes reached the service. 1 change needs attention (see Changes).',
    );
    const two = drainView(
      drainOf(['a', 'b', 'c'], ['a', 'b', 'c']),
      [attention('b'), attention('c')],
      env(['a']),
    );
    expect(two.text).toMatch(/ 2 changes need attention \(see Changes\)\.$/);
  });

  it('leaves a change the rep discarded out of the count', () => {
    const view = drainView(drainOf(['a', 'b'], ['a', 'b']), [], env(['a']));
    expect(view).toMatchObject({ total: 1, sent: 1, waiting: 0, finished: true });
  });

  it("says main's time left, the status bar's, and none when main gives none", () => {
    // 300 queued; the page heard of the first 10 answers. Main's one estimate (core/sync/
    // progress.ts: the changes at their pace and the pull after them) is what the panel says too.
    const ids = Array.from({ length: 300 }, (_, i) => `op${i}`);
    const drain = drainOf(ids, ids);
    const waiting = ids.slice(10).map(pending);
    const view = drainView(drain, waiting, env(ids.slice(0, 10), 100_000));
    expect(view).toMatchObject({ sent: 10, waiting: 290 });
    expect(view.text).toBe('Sending 10 of 300 changes · about 1 min 40 s left.');
    // Main not syncing them yet, or past its estimate: no time rather than a guess of its own.
    expect(drainView(drain, waiting, env(ids.slice(0, 10))).text).toBe(
      'Sending 10 of 300 changes.',
    );
  });
});
