// Per-account request limit over a sliding 1-second window. Rejected requests take no slot.

const WINDOW_MS = 1000;

export type Admission = { ok: true } | { ok: false; retryAfterMs: number };

/** Failed sign-ins one IP may make per window before it is refused without a password check. */
export const MAX_FAILED_SIGN_INS = 20;
export const FAILED_SIGN_IN_WINDOW_MS = 60_000;

/**
 * Failed sign-ins per client IP over a sliding window. Checks still running count as failures
 * until they succeed, so a burst of parallel guesses cannot slip past the limit.
 */
export class FailedSignInThrottle {
  private readonly failures = new Map<string, number[]>();
  private readonly pending = new Map<string, number>();

  constructor(
    private readonly now: () => number = Date.now,
    readonly max = MAX_FAILED_SIGN_INS,
    readonly windowMs = FAILED_SIGN_IN_WINDOW_MS,
  ) {}

  /** Starts a password check for `ip`, or says how long it must wait (nothing hashed then). */
  begin(ip: string): Admission {
    const now = this.now();
    const times = (this.failures.get(ip) ?? []).filter((t) => t > now - this.windowMs);
    if (times.length === 0) this.failures.delete(ip);
    else this.failures.set(ip, times);
    const pending = this.pending.get(ip) ?? 0;
    if (times.length + pending >= this.max) {
      const oldest = times[Math.max(0, times.length - this.max)];
      return {
        ok: false,
        retryAfterMs: oldest === undefined ? 1000 : oldest + this.windowMs - now,
      };
    }
    this.pending.set(ip, pending + 1);
    return { ok: true };
  }

  /** Ends a check begun with begin(): a failure is remembered for the window. */
  end(ip: string, succeeded: boolean): void {
    const pending = (this.pending.get(ip) ?? 1) - 1;
    if (pending > 0) this.pending.set(ip, pending);
    else this.pending.delete(ip);
    if (!succeeded) this.failures.set(ip, [...(this.failures.get(ip) ?? []), this.now()]);
  }
}

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
