// Why a save failed, as far as the rep can act on it: the laptop's storage refused the write (a
// full disk: IndexedDB's QuotaExceededError; a damaged database: Chromium's UnknownError or
// NotReadableError), as opposed to a stream that broke on its way (a lost piece, a delta over
// another pull, a new road), which the page recovers without the rep. Dexie wraps the backend's
// error (an aborted transaction is an AbortError whose `inner` is the QuotaExceededError).

/** The storage refused a write: 'quota' (the disk or the origin's quota is full) or 'storage'. */
export type StorageFailure = 'quota' | 'storage';

const STORAGE_NAMES = new Set(['UnknownError', 'NotReadableError', 'OpenFailedError']);

/** The storage's part in `error` (or the errors it wraps), or null when the storage is not why. */
export function storageFailureOf(error: unknown): StorageFailure | null {
  let found: StorageFailure | null = null;
  for (let at = error, depth = 0; at && depth < 5; depth++) {
    if (typeof at !== 'object') break;
    const { name, message, inner, cause } = at as Record<string, unknown>;
    // Dexie's AbortError of a transaction the backend aborted names the cause in its message.
    if (name === 'QuotaExceededError' || String(message).startsWith('QuotaExceededError'))
      return 'quota';
    if (typeof name === 'string' && STORAGE_NAMES.has(name)) found = 'storage';
    at = inner ?? cause;
  }
  return found;
}
