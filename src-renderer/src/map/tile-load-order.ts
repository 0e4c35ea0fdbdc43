// The latest load of a GeoJSON tile wins. MapLibre 6.17 sends a tile's reload to its worker
// without cancelling a load of the same tile still in flight, and applies each answer as it
// comes. The worker can answer them out of order: a tile whose parse waits on the page (glyphs
// for a cluster's count label) finishes after a reload of the same tile that needs nothing
// (no cluster left in it after a filter). The older answer then lands last, and the map keeps
// drawing the previous data, its clusters named by ids the worker's new index no longer has,
// until the tile is loaded again. Seen once in CI under load: the map-equals-list suite found
// "No cluster with the specified id" for a whole minute after a filter change.
// So a new load of a tile aborts the one before it (MapLibre's own abort path: the worker drops
// the task, and the page drops its answer), and only the newest answer is applied.
import { GeoJSONSource } from 'maplibre-gl';

type LoadingTile = { abortController?: AbortController };
type TileLoader = {
  loadTile(tile: LoadingTile): Promise<void>;
  __fieldmapLatestTileLoadWins?: true;
};

/** Makes every GeoJSON source apply only the newest load of each tile (idempotent). */
export function latestTileLoadWins(): void {
  const proto = GeoJSONSource.prototype as unknown as TileLoader;
  if (proto.__fieldmapLatestTileLoadWins) return;
  const load = proto.loadTile;
  proto.loadTile = function (this: TileLoader, tile: LoadingTile) {
    tile.abortController?.abort();
    return load.call(this, tile);
  };
  proto.__fieldmapLatestTileLoadWins = true;
}
