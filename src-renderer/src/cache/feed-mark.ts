// The feed's "read every customer" signal, readable from outside the renderer (benchmarks, e2e
// tests) with performance.getEntriesByName. A module of its own, free of runes and Dexie, so
// Node code can import the name without the feed.

/** The mark of a read of every customer (performance.getEntriesByName). */
export const FEED_READ_ALL_MARK = 'fieldmap:feed-read-all';
