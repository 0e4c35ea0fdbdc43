// The loads of one GeoJSON tile run one after the other, so the newest is applied last.
// MapLibre 6.17 sends a tile's reload to its worker while a load of the same tile is still in
// flight, and applies each answer as it comes. The worker can answer them out of order: a tile
// whose parse waits on the page (glyphs for a cluster's count label) finishes after a reload of
// the same tile that needs nothing (no cluster left in it after a filter). The older answer then
// lands last, and the map keeps drawing the previous data, its clusters named by ids the
// worker's new index no longer has, until the tile is loaded again. Seen once in CI under load:
// the map-equals-list suite found "No cluster with the specified id" for a whole minute after a
// filter change.
// Aborting the load in flight instead is wrong: a reload's answer leaves out the tile's raw data
// when the worker still holds the tile from the load before, so the page must apply that load's
// answer first (with abort, the map-large suite counted 470 of 10,500 pins drawn).
import { GeoJSONSource } from 'maplibre-gl';

type LoadingTile = { aborted?: boolean; fieldmapLoading?: Promise<void> };
type TileLoader = {
  loadTile(tile: LoadingTile): Promise<void>;
  fieldmapTileLoadsInOrder?: true;
};

/** Makes every GeoJSON source load each tile one load at a time (idempotent). */
export function tileLoadsInOrder(): void {
  const proto = GeoJSONSource.prototype as unknown as TileLoader;
  if (proto.fieldmapTileLoadsInOrder) return;
  const load = proto.loadTile;
  proto.loadTile = function (this: TileLoader, tile: LoadingTile) {
    // `fieldmapLoading` is the load before, settled either way (it never rejects).
    const before = tile.fieldmapLoading;
    const run = before
      ? before.then(() => (tile.aborted ? undefined : load.call(this, tile)))
      : load.call(this, tile);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    tile.fieldmapLoading = settled;
    void settled.then(() => {
      if (tile.fieldmapLoading === settled) delete tile.fieldmapLoading;
    });
    return run;
  };
  proto.fieldmapTileLoadsInOrder = true;
}
