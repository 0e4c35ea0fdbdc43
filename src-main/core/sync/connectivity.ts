// The connectivity half of the sync state machine: which state an error leads to, and when
// to probe again while the service is unreachable.
import type { ConnectionCause, ServiceErrorKind } from '../../../src-shared/errors';
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

/**
 * The state a failed sync ends in. `nextTryAt` is when the engine tries again by itself: a
 * probe while offline or off-network, a retry after a transient error (5xx, 429, ambiguous).
 */
export function stateAfterError(
  kind: ServiceErrorKind | 'Internal',
  detail: string,
  nextTryAt: number | null,
  connection?: ConnectionCause,
): SyncState {
  switch (kind) {
    case 'Offline':
      return { kind: 'offline', nextProbeAt: nextTryAt, ...(connection ? { connection } : {}) };
    case 'NotAllowListed':
      return { kind: 'off-network', nextProbeAt: nextTryAt };
    case 'Unauthorized':
      return { kind: 'auth-required' };
    case 'Internal':
      return { kind: 'error', message: detail || ERROR_MESSAGES.Internal, nextTryAt };
    // A sync stops on a failed read (an unsure write waits on its op): no write-side wording.
    case 'Ambiguous':
      return {
        kind: 'error',
        message: `The connection to the service dropped before it answered${detail ? ` (${detail})` : ''}. Nothing was lost; Fieldmap tries again.`,
        nextTryAt,
      };
    case 'BadResponse':
      return {
        kind: 'error',
        message: `The service sent an answer Fieldmap cannot read${detail ? `: ${detail}` : ''}. Nothing was changed on this laptop.`,
        nextTryAt,
      };
    // Only a read reaches here refused (a refused write waits on its op).
    case 'Rejected':
      return {
        kind: 'error',
        message: `The service refused a request for the account's data${detail ? ` (${detail})` : ''}. Nothing was changed on this laptop.`,
        nextTryAt,
      };
    case 'RateLimited':
      return {
        kind: 'error',
        message: 'The service asked Fieldmap to slow down. It tries again shortly.',
        nextTryAt,
      };
    default:
      return { kind: 'error', message: ERROR_MESSAGES[kind], nextTryAt };
  }
}

/** Kinds after which the engine probes with backoff rather than syncing on its period. */
export function needsProbe(kind: ServiceErrorKind | 'Internal'): boolean {
  return kind === 'Offline' || kind === 'NotAllowListed';
}
