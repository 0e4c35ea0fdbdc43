// The basemap's settings and offline regions as they cross IPC.
import * as v from 'valibot';

/** A PMTiles archive the user added, copied into the app's data dir. */
export const OfflineRegionSchema = v.object({
  id: v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,64}$/)),
  name: v.string(),
  sizeBytes: v.number(),
  /** [west, south, east, north] from the archive header. */
  bounds: v.tuple([v.number(), v.number(), v.number(), v.number()]),
  minZoom: v.number(),
  maxZoom: v.number(),
  addedAt: v.number(),
});
export type OfflineRegion = v.InferOutput<typeof OfflineRegionSchema>;

/** Bounds of the tile cache's capacity: 10 MB .. 10 GB. */
export const TILE_CACHE_MIN_BYTES = 10 * 1024 * 1024;
export const TILE_CACHE_MAX_BYTES = 10 * 1024 * 1024 * 1024;

export const BasemapSettingsViewSchema = v.object({
  onlineStyleUrl: v.nullable(v.string()),
  cacheCapBytes: v.number(),
  cacheUsedBytes: v.number(),
  cacheEntries: v.number(),
  /** True where main can show a native file dialog (Electron); else regions are added by path. */
  filePicker: v.boolean(),
});
export type BasemapSettingsView = v.InferOutput<typeof BasemapSettingsViewSchema>;
