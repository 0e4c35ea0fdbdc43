// A controllable clock: the one fake of this suite. The limiter's rules are about exact instants
// (a 4th grant at 1025 ms, not 1024) that real timers cannot pin down without timed assertions;
// the same limiter is also tested with real time against the reference service.
import type { Clock } from '../../src-main/core/ports';

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
      const timer: Timer = { at: this.#now + Math.max(0, ms), seq: this.#seq++, resolve };
      this.#timers.push(timer);
      signal?.addEventListener(
        'abort',
        () => {
          this.#timers = this.#timers.filter((t) => t !== timer);
          reject(signal.reason);
        },
        { once: true },
      );
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

/** Lets every queued promise callback run. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await new Promise((resolve) => setImmediate(resolve));
}
