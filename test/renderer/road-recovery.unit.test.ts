// The page's new roads after losses (src-renderer/src/app/road-recovery.svelte.ts): at once after
// the first, then after 30 s, 1, 2, 4 and 5 minutes while each new road brings another loss before
// a stream is saved (a full disk refuses every snapshot main resends); never a loop, never given
// up; a saved stream ends the run, and "Sync now" tries at once.
import { describe, expect, it } from 'vitest';
import {
  RECOVERY_WAITS_MS,
  RoadRecovery,
  type RecoveryTimers,
} from '../../src-renderer/src/app/road-recovery.svelte';

/** Timers that run only when the test moves their clock. */
class StepTimers implements RecoveryTimers {
  at = 0;
  #due: Array<{ at: number; run: () => void; handle: number }> = [];
  #next = 1;
  now = () => this.at;
  setTimeout = (run: () => void, ms: number): unknown => {
    const handle = this.#next++;
    this.#due.push({ at: this.at + ms, run, handle });
    return handle;
  };
  clearTimeout = (handle: unknown): void => {
    this.#due = this.#due.filter((d) => d.handle !== handle);
  };
  pending(): number {
    return this.#due.length;
  }
  advance(ms: number): void {
    this.at += ms;
    for (const due of this.#due.filter((d) => d.at <= this.at)) {
      this.#due = this.#due.filter((d) => d !== due);
      due.run();
    }
  }
}

function setup() {
  const timers = new StepTimers();
  const opened: number[] = [];
  const recovery = new RoadRecovery(() => opened.push(timers.at), timers);
  return { timers, opened, recovery };
}

describe('new roads after losses', () => {
  it('opens at once, then after waits that double up to five minutes, and keeps going', () => {
    const { timers, opened, recovery } = setup();
    recovery.lost();
    expect(opened).toEqual([0]);
    const waits: number[] = [];
    for (let i = 0; i < 7; i++) {
      // Each new road brings another loss (its snapshot was not saved either).
      recovery.lost();
      expect(recovery.nextAt).toBe(timers.at + (RECOVERY_WAITS_MS[Math.min(i, 4)] ?? 0));
      const before = opened.length;
      const from = timers.at;
      while (opened.length === before) timers.advance(1_000);
      waits.push(timers.at - from);
      expect(recovery.nextAt).toBeNull();
    }
    expect(waits).toEqual([30_000, 60_000, 120_000, 240_000, 300_000, 300_000, 300_000]);
  });

  it('asks once for losses that come while a try is due', () => {
    const { timers, opened, recovery } = setup();
    recovery.lost();
    recovery.lost();
    recovery.lost();
    recovery.lost();
    expect(timers.pending()).toBe(1);
    timers.advance(30_000);
    expect(opened).toEqual([0, 30_000]);
  });

  it('starts afresh once a stream is saved', () => {
    const { timers, opened, recovery } = setup();
    recovery.lost();
    recovery.lost();
    recovery.saved();
    expect(timers.pending()).toBe(0);
    expect(recovery.nextAt).toBeNull();
    timers.advance(1_000);
    recovery.lost();
    expect(opened).toEqual([0, 1_000]);
  });

  it('opens a waiting try at once when the rep asks, and nothing when none waits', () => {
    const { timers, opened, recovery } = setup();
    expect(recovery.now()).toBe(false);
    recovery.lost();
    recovery.lost();
    timers.advance(5_000);
    expect(recovery.now()).toBe(true);
    expect(opened).toEqual([0, 5_000]);
    expect(timers.pending()).toBe(0);
    // The run goes on: the next loss waits the next step.
    recovery.lost();
    expect(recovery.nextAt).toBe(5_000 + 60_000);
    recovery.stop();
    expect(timers.pending()).toBe(0);
  });
});
