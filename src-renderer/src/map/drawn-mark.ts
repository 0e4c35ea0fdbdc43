// The map's "drawn" signal, readable from outside the renderer (benchmarks, e2e tests) with
// performance.getEntriesByName(MAP_DRAWN_MARK).

/** Performance mark set when the map is idle after drawing a new customer set. */
export const MAP_DRAWN_MARK = 'fieldmap:map-drawn';

/** The mark's detail: how many customers the map holds. */
export type MapDrawnDetail = { customers: number };

/**
 * Performance mark set each time the customers' clustered source is reloaded (setData of every
 * pin, then a re-cluster of all of them in MapLibre's worker). Tests count these.
 */
export const MAP_SOURCE_RELOAD_MARK = 'fieldmap:map-source-reload';

/** Performance mark set each time a few changed pins are patched in without that reload. */
export const MAP_SOURCE_PATCH_MARK = 'fieldmap:map-source-patch';

/** Detail of both: how many features the reload or the patch carried. */
export type SourceMarkDetail = { features: number };
