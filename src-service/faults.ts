// Seeded fault injection: every admitted request draws the same four numbers in the same
// order (a fifth when 502-after-commit is on), so a run replays exactly from its seed.
import { mulberry32 } from './prng';
import { DEFAULT_FAULTS, type Faults } from './types';

export type FaultDecision =
  | { kind: 'none'; delayMs: number }
  | { kind: 'error'; status: 500 | 502; delayMs: number }
  | { kind: 'reset-before'; delayMs: number }
  | { kind: 'reset-after'; delayMs: number }
  | { kind: 'error-after-commit'; status: 502; delayMs: number };

const REDIRECT_STATUSES = [0, 301, 302, 303, 307, 308];

export class FaultInjector {
  private config: Faults = { ...DEFAULT_FAULTS };
  private random: () => number = mulberry32(DEFAULT_FAULTS.seed);

  constructor(faults: Partial<Faults> = {}) {
    this.configure(faults);
  }

  /** Merges the given settings and restarts the random sequence from the seed. */
  configure(faults: Partial<Faults>): void {
    this.config = { ...this.config, ...faults };
    const rates = [
      'errorRate',
      'resetBeforeRate',
      'resetAfterRate',
      'errorAfterCommitRate',
    ] as const;
    for (const key of rates) {
      const rate = this.config[key];
      if (!(rate >= 0 && rate <= 1)) throw new Error(`faults: ${key} must be within 0..1`);
    }
    if (!(this.config.latencyMs >= 0 && this.config.jitterMs >= 0)) {
      throw new Error('faults: latencyMs and jitterMs must not be negative');
    }
    const { redirectStatus, redirectTo } = this.config;
    if (!REDIRECT_STATUSES.includes(redirectStatus)) {
      throw new Error(`faults: redirectStatus must be one of ${REDIRECT_STATUSES.join(', ')}`);
    }
    if (redirectStatus !== 0 && !URL.canParse(redirectTo)) {
      throw new Error('faults: redirectTo must be a URL when redirectStatus is set');
    }
    this.random = mulberry32(this.config.seed);
  }

  /** The redirect every request gets (before the random draws, which it does not consume). */
  redirectFor(path: string): { status: number; location: string } | undefined {
    const { redirectStatus, redirectTo } = this.config;
    if (redirectStatus === 0) return undefined;
    return { status: redirectStatus, location: new URL(path, redirectTo).href };
  }

  decide(): FaultDecision {
    const { latencyMs, jitterMs, errorRate, resetBeforeRate, resetAfterRate } = this.config;
    const errorAfterCommitRate = this.config.errorAfterCommitRate;
    const jitter = this.random();
    const error = this.random();
    const before = this.random();
    const after = this.random();
    // Drawn only when on, so runs seeded before this fault existed replay as they did.
    const afterCommit = errorAfterCommitRate > 0 ? this.random() : 1;
    const delayMs = latencyMs + Math.round(jitter * jitterMs);
    if (error < errorRate)
      return { kind: 'error', status: error < errorRate / 2 ? 500 : 502, delayMs };
    if (before < resetBeforeRate) return { kind: 'reset-before', delayMs };
    if (after < resetAfterRate) return { kind: 'reset-after', delayMs };
    if (afterCommit < errorAfterCommitRate) {
      return { kind: 'error-after-commit', status: 502, delayMs };
    }
    return { kind: 'none', delayMs };
  }
}
