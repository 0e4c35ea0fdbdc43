// Per-account request limit over a sliding 1-second window. Rejected requests take no slot.

const WINDOW_MS = 1000;

export type Admission = { ok: true } | { ok: false; retryAfterMs: number };

export class SlidingWindowLimiter {
  private readonly accepted = new Map<string, number[]>();

  /** `rate` requests per window per key; 0 disables the limit. */
  constructor(
    public rate: number,
    private readonly now: () => number = Date.now,
  ) {}

  admit(key: string): Admission {
    if (this.rate <= 0) return { ok: true };
    const now = this.now();
    const times = (this.accepted.get(key) ?? []).filter((t) => t > now - WINDOW_MS);
    this.accepted.set(key, times);
    if (times.length < this.rate) {
      times.push(now);
      return { ok: true };
    }
    // The slot frees when the oldest request of the full window leaves it.
    const oldest = times[times.length - this.rate] as number;
    return { ok: false, retryAfterMs: oldest + WINDOW_MS - now };
  }
}
