// When to try a request again: Retry-After as the service sends it, else exponential backoff
// with full jitter (so many clients pushed back at once do not return in lock-step).

/** Longest pause we accept from a Retry-After header (a broken header must not stall sync). */
export const MAX_RETRY_AFTER_MS = 120_000;

/**
 * Milliseconds to wait from a Retry-After header: delta-seconds or an HTTP date. Undefined when
 * the header is absent or unreadable.
 */
export function parseRetryAfter(header: string | null, nowMs: number): number | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(0, date - nowMs), MAX_RETRY_AFTER_MS);
}

export interface BackoffPolicy {
  baseMs: number;
  capMs: number;
  random: () => number;
}

/** Full jitter: uniform in [0, min(cap, base * 2^attempt)). attempt starts at 0. */
export function backoffDelay(attempt: number, policy: BackoffPolicy): number {
  const ceiling = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(attempt, 30));
  return Math.floor(policy.random() * ceiling);
}
