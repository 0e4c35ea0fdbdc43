// The machine's load for the time left (core/sync/machine-load.ts): the run queue of the last
// seconds, not the 1-minute load average that trails a change by a minute; and a phase's own
// average. Readings are given by hand, on a clock the test moves.
import { describe, expect, it } from 'vitest';
import { LoadGauge } from '../../src-main/core/sync/machine-load';

/** A gauge on two cores whose readings the test takes, `running` threads at each. */
function gauge(lastMinute = 2) {
  const m = { now: 0, running: 2 as number | null, lastMinute, read: null as (() => void) | null };
  const g = new LoadGauge({
    running: () => m.running,
    lastMinute: () => m.lastMinute,
    cores: 2,
    now: () => m.now,
    every: (_ms, read) => void (m.read = read),
  });
  /** `ms` pass at `running` threads, read each 500 ms. */
  const pass = (ms: number, running: number) => {
    m.running = running;
    for (let t = 0; t < ms; t += 500) {
      m.now += 500;
      m.read?.();
    }
  };
  return { g, m, pass };
}

describe('LoadGauge', () => {
  it("reads the last seconds' run queue, not the last minute's average", () => {
    // A minute of 12 threads (a cold start) just past: the kernel's average still says 12.
    const { g, pass } = gauge(12);
    g.factor();
    pass(6_000, 2);
    expect(g.factor()).toBe(1);
    // Busy again: within seconds, not a minute.
    pass(5_000, 10);
    expect(g.factor()).toBe(5);
  });

  it('gives a phase the load over its own span, and says now over the last seconds', () => {
    const { g, pass } = gauge();
    g.factor();
    pass(10_000, 12);
    pass(6_000, 2);
    // 10 s at 12 threads on 2 cores did 10 / 6 s of unloaded work, 6 s at 2 threads 6 s: the
    // phase's 16 s over that work.
    expect(g.factor(16_000)).toBeCloseTo(16 / (10 / 6 + 6), 5);
    expect(g.factor()).toBe(1);
  });

  it("counts the minute's average for what its readings do not cover yet", () => {
    const { g, pass } = gauge(8);
    g.factor();
    pass(2_500, 2);
    // 3 s of 2 threads (the first reading stands for the half second before it), 2 s of 8.
    expect(g.factor()).toBeCloseTo(5 / (3 / 1 + 2 / 4), 5);
  });

  it("uses the minute's average where there is no run queue to read", () => {
    const { g, m } = gauge(6);
    m.running = null;
    expect(g.factor()).toBe(3);
    // Nothing read again: no timer.
    expect(m.read).toBeNull();
    m.lastMinute = 1;
    expect(g.factor()).toBe(1);
  });
});
