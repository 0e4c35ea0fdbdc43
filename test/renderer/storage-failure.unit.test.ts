// Which failed saves the rep must hear of (src-renderer/src/cache/storage-failure.ts): the
// storage refusing the write, as Dexie reports it from an aborted transaction, and not a stream
// that broke on its way, which the page recovers by itself.
import { Dexie } from 'dexie';
import { describe, expect, it } from 'vitest';
import { storageFailureOf } from '../../src-renderer/src/cache/storage-failure';

describe('a failed save, by cause', () => {
  it('names a full disk and a damaged database, wrapped as Dexie wraps them', () => {
    const quota = new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    expect(storageFailureOf(quota)).toBe('quota');
    // The transaction aborted by the backend: Dexie's AbortError with the quota error inside.
    expect(storageFailureOf(new Dexie.AbortError(quota))).toBe('quota');
    const disk = new DOMException('Internal error committing transaction.', 'UnknownError');
    expect(storageFailureOf(new Dexie.AbortError(disk))).toBe('storage');
  });

  it('leaves a stream that broke on its way to the page’s own recovery', () => {
    expect(storageFailureOf(new Error('data piece 3 of s-1 out of order'))).toBeNull();
    expect(storageFailureOf(new Error('the road to main was opened again'))).toBeNull();
    expect(storageFailureOf(new Dexie.AbortError())).toBeNull();
    expect(storageFailureOf(null)).toBeNull();
  });
});
