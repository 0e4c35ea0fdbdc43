// When the page opens a new road after a loss (data-inbox.svelte.ts): at once after the first
// loss, then, while every road since brings another loss before a stream is saved (a full disk
// refuses each snapshot main resends), after a wait that doubles up to five minutes. A loop of
// resends would keep the disk and the two processes busy for nothing; giving up after one try
// left a cache that could not save the account with no way back but a restart. A saved stream
// ends the run; "Sync now" tries at once.

/** The waits before the second, third, … new road of a run of losses (the last one repeats). */
export const RECOVERY_WAITS_MS = [30_000, 60_000, 120_000, 240_000, 300_000] as const;

/** The timers the recovery waits on (tests give their own). */
export interface RecoveryTimers {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: RecoveryTimers = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class RoadRecovery {
  /** Roads opened since a stream was last saved. */
  #tries = 0;
  #timer: unknown = null;
  /** When the next road opens by itself (the status bar's "next try in …"), or null. */
  #nextAt = $state<number | null>(null);

  constructor(
    private readonly open: () => void,
    private readonly timers: RecoveryTimers = realTimers,
  ) {}

  get nextAt(): number | null {
    return this.#nextAt;
  }

  /** The road lost a message or a stream: a new one, now or after the run's wait. */
  lost(): void {
    if (this.#timer !== null) return; // a try is already due
    if (this.#tries === 0) return this.#try();
    const wait = RECOVERY_WAITS_MS[Math.min(this.#tries, RECOVERY_WAITS_MS.length) - 1]!;
    this.#nextAt = this.timers.now() + wait;
    this.#timer = this.timers.setTimeout(() => this.#try(), wait);
  }

  /** The rep asked ("Sync now"): a try that was waiting opens now. False: none was waiting. */
  now(): boolean {
    if (this.#timer === null) return false;
    this.#try();
    return true;
  }

  /** A stream was saved: the run of losses is over. */
  saved(): void {
    this.stop();
    this.#tries = 0;
  }

  stop(): void {
    if (this.#timer !== null) this.timers.clearTimeout(this.#timer);
    this.#timer = null;
    this.#nextAt = null;
  }

  #try(): void {
    this.stop();
    this.#tries++;
    this.open();
  }
}
