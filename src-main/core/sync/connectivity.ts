// The connectivity half of the sync state machine: which state an error leads to, and when
// to probe again while the service is unreachable.
import type { ServiceErrorKind } from '../../../src-shared/errors';
import type { SyncState } from '../../../src-shared/sync-state';
import { ERROR_MESSAGES } from '../../../src-shared/errors';

export interface BackoffSettings {
  /** First delay after a failure. */
  initialMs: number;
  /** Longest delay between probes. */
  maxMs: number;
  factor: number;
}

export const DEFAULT_PROBE_BACKOFF: BackoffSettings = {
  initialMs: 2_000,
  maxMs: 5 * 60_000,
  factor: 2,
};

/** Exponential delays: initial, initial*factor, ... capped at max. */
export class Backoff {
  readonly #settings: BackoffSettings;
  #failures = 0;

  constructor(settings: BackoffSettings) {
    this.#settings = settings;
  }

  /** The delay before the next attempt; each call counts one more failure. */
  next(): number {
    const { initialMs, maxMs, factor } = this.#settings;
    const delay = Math.min(maxMs, initialMs * factor ** this.#failures);
    this.#failures += 1;
    return delay;
  }

  reset(): void {
    this.#failures = 0;
  }

  get failures(): number {
    return this.#failures;
  }
}

/** Unreachable states probe the service until it answers. */
export function isUnreachable(state: SyncState): boolean {
  return state.kind === 'offline' || state.kind === 'off-network';
}

/**
 * The state a failed sync ends in. `nextProbeAt` is when the engine probes again (offline and
 * off-network only); transient kinds (5xx, 429, ambiguous) are reported as an error to retry.
 */
export function stateAfterError(
  kind: ServiceErrorKind | 'Internal',
  detail: string,
  nextProbeAt: number | null,
): SyncState {
  switch (kind) {
    case 'Offline':
      return { kind: 'offline', nextProbeAt };
    case 'NotAllowListed':
      return { kind: 'off-network', nextProbeAt };
    case 'Unauthorized':
      return { kind: 'auth-required' };
    case 'Internal':
      return { kind: 'error', message: detail || ERROR_MESSAGES.Internal };
    default:
      return { kind: 'error', message: ERROR_MESSAGES[kind] };
  }
}

/** Kinds after which the engine probes with backoff rather than syncing on its period. */
export function needsProbe(kind: ServiceErrorKind | 'Internal'): boolean {
  return kind === 'Offline' || kind === 'NotAllowListed';
}
