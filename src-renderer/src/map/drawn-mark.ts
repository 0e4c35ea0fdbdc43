// The map's "drawn" signal, readable from outside the renderer (benchmarks, e2e tests) with
// performance.getEntriesByName(MAP_DRAWN_MARK).

/** Performance mark set when the map is idle after drawing a new customer set. */
export const MAP_DRAWN_MARK = 'fieldmap:map-drawn';

/** The mark's detail: how many customers the map holds. */
export type MapDrawnDetail = { customers: number };
