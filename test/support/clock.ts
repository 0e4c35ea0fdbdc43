// Time in tests. FakeClock: the one fake clock; the limiter's rules are about exact instants (a
// 4th grant at 1025 ms, not 1024) that real timers cannot pin down without timed assertions, and
// the same limiter is also tested with real time against the reference service. immediateTicker
// counts the event loop's turns, not time.
import { systemClock, type Clock } from '../../src-main/core/ports';

interface Timer {
  at: number;
  seq: number;
  resolve: () => void;
}

export class FakeClock implements Clock {
  #now: number;
  #seq = 0;
  #timers: Timer[] = [];

  constructor(start = 1_000_000) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      // As systemClock's: the listener goes once the sleep is over.
      const abort = () => {
        this.#timers = this.#timers.filter((t) => t !== timer);
        reject(signal!.reason);
      };
      const timer: Timer = {
        at: this.#now + Math.max(0, ms),
        seq: this.#seq++,
        resolve: () => {
          signal?.removeEventListener('abort', abort);
          resolve();
        },
      };
      this.#timers.push(timer);
      signal?.addEventListener('abort', abort, { once: true });
    });
  }

  /** Pending timers (for asserting that nothing keeps polling). */
  get timers(): number {
    return this.#timers.length;
  }

  /** Moves time forward by `ms`, firing due timers in order and letting promises settle. */
  async advance(ms: number): Promise<void> {
    const target = this.#now + ms;
    await settle();
    for (;;) {
      const due = this.#timers
        .filter((t) => t.at <= target)
        .sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.#timers = this.#timers.filter((t) => t !== due);
      this.#now = due.at;
      due.resolve();
      await settle();
    }
    this.#now = target;
    await settle();
  }
}

/**
 * Real time that a test moves forward at once: timers run on real time, `now` is real time plus
 * every skip. Waiting out one of the app's own deadlines (a lost create's absence grace) is then
 * a skip of the engine's clock, not a sleep of the test.
 */
export class SkippingClock implements Clock {
  #skipped = 0;

  now(): number {
    return Date.now() + this.#skipped;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return systemClock.sleep(ms, signal);
  }

  skip(ms: number): void {
    this.#skipped += ms;
  }
}

/** Lets every queued promise callback run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await new Promise((resolve) => setImmediate(resolve));
}

// Counts turns of Node's event loop (a setImmediate that schedules itself) while some work
// runs: work that lets the loop go between its slices lets the ticker run, work done in one go
// does not. Counts turns, not time, so it holds on a slow machine too.
export function immediateTicker(): { readonly count: number; stop(): void } {
  let count = 0;
  let ticking = true;
  const tick = () => {
    count++;
    if (ticking) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    get count() {
      return count;
    },
    stop() {
      ticking = false;
    },
  };
}
