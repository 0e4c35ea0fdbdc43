// Sliding-window rate limiter shared by every request of one account: at most `limit` requests
// in any window of `windowMs`, FIFO within a priority, 'user' before 'background'.
//
// Why not p-queue's interval: a fixed window lets 2 x limit requests through within a few ms
// across a window boundary, which a sliding-window server answers with 429.
//
// The server counts a request when it arrives, which is somewhere between our grant and the
// response. So a slot counts as busy while its request is in flight and for `windowMs +
// marginMs` after its response: the only bound that stays safe whatever the latency or its
// jitter (anchoring at the grant would need a margin larger than any latency spike). The margin
// then only absorbs millisecond rounding and clock-rate drift. On loopback a window costs little
// more than `windowMs`; on a slow link the latency is paid once per window.
import { systemClock, type Clock, type RequestPriority } from '../ports';

export interface RateLimiterOptions {
  /** Requests allowed in any window (default 3). */
  limit?: number;
  /** Window length in ms (default 1000). */
  windowMs?: number;
  /** Extra spacing against rounding and clock drift (default 10 ms). */
  marginMs?: number;
  clock?: Clock;
}

export interface AcquireOptions {
  priority?: RequestPriority;
  signal?: AbortSignal;
  /** A retried request goes to the head of its priority's queue (it was already first once). */
  retry?: boolean;
}

/** A granted slot. Call release() when the response (or failure) arrives. */
export interface Permit {
  release(): void;
}

interface Slot {
  /** When the slot's request was answered; Infinity while in flight. */
  answeredAt: number;
}

interface Waiter {
  retry: boolean;
  resolve(permit: Permit): void;
  reject(reason: unknown): void;
  cleanup(): void;
}

export class RateLimiter {
  readonly limit: number;
  readonly windowMs: number;
  readonly marginMs: number;
  readonly #clock: Clock;
  #slots: Slot[] = [];
  readonly #queues: Record<RequestPriority, Waiter[]> = { user: [], background: [] };
  #pausedUntil = 0;
  #timer: { at: number; controller: AbortController } | null = null;

  constructor(options: RateLimiterOptions = {}) {
    this.limit = options.limit ?? 3;
    this.windowMs = options.windowMs ?? 1000;
    this.marginMs = options.marginMs ?? 10;
    this.#clock = options.clock ?? systemClock;
    if (!Number.isInteger(this.limit) || this.limit < 1) throw new RangeError('limit must be >= 1');
    if (!(this.windowMs >= 0) || !(this.marginMs >= 0)) throw new RangeError('bad window');
  }

  /** Requests waiting for a slot. */
  get queued(): number {
    return this.#queues.user.length + this.#queues.background.length;
  }

  /** Until when every request is held back after a 429 (epoch ms of the clock). */
  get pausedUntil(): number {
    return this.#pausedUntil;
  }

  /** Waits for a slot. Rejects with the signal's reason if aborted while waiting. */
  acquire(options: AcquireOptions = {}): Promise<Permit> {
    const { priority = 'user', signal, retry = false } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<Permit>((resolve, reject) => {
      const queue = this.#queues[priority];
      const onAbort = () => {
        const index = queue.indexOf(waiter);
        if (index >= 0) queue.splice(index, 1);
        reject(signal?.reason);
        this.#pump();
      };
      const waiter: Waiter = {
        retry,
        resolve,
        reject,
        cleanup: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (retry) {
        // After the retries already waiting at the head: they were pushed back earlier.
        const firstNew = queue.findIndex((w) => !w.retry);
        queue.splice(firstNew < 0 ? queue.length : firstNew, 0, waiter);
      } else {
        queue.push(waiter);
      }
      this.#pump();
    });
  }

  /** Runs `task` in a slot, releasing the slot when it settles. */
  async run<T>(task: () => Promise<T>, options: AcquireOptions = {}): Promise<T> {
    const permit = await this.acquire(options);
    try {
      return await task();
    } finally {
      permit.release();
    }
  }

  /** Holds every request back for `ms` (the server said 429: stop hammering it). */
  pauseFor(ms: number): void {
    const until = this.#clock.now() + Math.max(0, ms);
    if (until <= this.#pausedUntil) return;
    this.#pausedUntil = until;
    this.#pump();
  }

  #grant(waiter: Waiter): void {
    const slot: Slot = { answeredAt: Number.POSITIVE_INFINITY };
    this.#slots.push(slot);
    let released = false;
    waiter.cleanup();
    waiter.resolve({
      release: () => {
        if (released) return;
        released = true;
        slot.answeredAt = this.#clock.now();
        this.#pump();
      },
    });
  }

  #nextWaiter(): Waiter | undefined {
    return this.#queues.user.shift() ?? this.#queues.background.shift();
  }

  /** Grants every slot available now, then sets one timer for the next possible grant. */
  #pump(): void {
    const now = this.#clock.now();
    const span = this.windowMs + this.marginMs;
    this.#slots = this.#slots.filter((s) => s.answeredAt + span > now);
    while (this.queued > 0 && now >= this.#pausedUntil && this.#slots.length < this.limit) {
      this.#grant(this.#nextWaiter()!);
    }
    if (this.queued === 0) return this.#setTimer(null);
    let wakeAt = this.#pausedUntil;
    if (this.#slots.length >= this.limit) {
      const oldest = Math.min(...this.#slots.map((s) => s.answeredAt));
      // All slots in flight: a release() will pump, no timer needed.
      if (!Number.isFinite(oldest)) return this.#setTimer(null);
      wakeAt = Math.max(wakeAt, oldest + span);
    }
    this.#setTimer(wakeAt);
  }

  #setTimer(at: number | null): void {
    if (this.#timer && this.#timer.at === at) return;
    this.#timer?.controller.abort();
    this.#timer = null;
    if (at === null) return;
    const controller = new AbortController();
    this.#timer = { at, controller };
    this.#clock.sleep(Math.max(0, at - this.#clock.now()), controller.signal).then(
      () => {
        if (this.#timer?.controller === controller) this.#timer = null;
        this.#pump();
      },
      () => undefined, // replaced by a newer timer
    );
  }
}
