// The basemap's settings and offline regions as they cross IPC.
import * as v from 'valibot';
import { MAX_AREA_CORNERS, TOO_MANY_CORNERS } from './area-ring';

const Lon = v.pipe(v.number(), v.minValue(-180), v.maxValue(180));
const Lat = v.pipe(v.number(), v.minValue(-85.06), v.maxValue(85.06));

/** An area to download: a bbox [west, south, east, north] or one polygon ring of [lon, lat]. */
export const RegionAreaSchema = v.variant('kind', [
  v.strictObject({ kind: v.literal('bbox'), bounds: v.tuple([Lon, Lat, Lon, Lat]) }),
  v.strictObject({
    kind: v.literal('polygon'),
    ring: v.pipe(
      v.custom<Array<[number, number]>>(
        (input) => Array.isArray(input),
        'Invalid type: Expected Array',
      ),
      v.minLength(3),
      // One more: a closed ring repeats its first corner.
      v.maxLength(MAX_AREA_CORNERS + 1, TOO_MANY_CORNERS),
      v.check((ring) => cornersOnMap(ring), 'Each corner must be a [lon, lat] pair on the map.'),
    ),
  }),
]);

/**
 * Every corner exactly a [lon, lat] pair within Lon and Lat's bounds: one loop, where a tuple
 * schema per corner made 10,000 corners cost main tens of milliseconds. An array too long is
 * maxLength's to report; it is not walked.
 */
function cornersOnMap(ring: readonly unknown[]): boolean {
  if (ring.length > MAX_AREA_CORNERS + 1) return true;
  for (let i = 0; i < ring.length; i++) {
    const corner = ring[i];
    if (!Array.isArray(corner) || corner.length !== 2) return false;
    const [lon, lat] = corner as unknown[];
    // NaN fails every comparison; a string or a boolean fails typeof.
    if (typeof lon !== 'number' || !(lon >= -180 && lon <= 180)) return false;
    if (typeof lat !== 'number' || !(lat >= -85.06 && lat <= 85.06)) return false;
  }
  return true;
}
export type RegionAreaInput = v.InferOutput<typeof RegionAreaSchema>;

/** Where a downloaded region came from, so "Update" can fetch the same area from a newer build. */
export const RegionDownloadSourceSchema = v.object({
  url: v.string(),
  dataDate: v.nullable(v.string()),
  area: RegionAreaSchema,
});

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
  /** Present when the region was downloaded in the app (absent for a file the user added). */
  download: v.optional(RegionDownloadSourceSchema),
});
export type OfflineRegion = v.InferOutput<typeof OfflineRegionSchema>;

/** Bounds of the tile cache's capacity: 10 MB .. 10 GB. */
export const TILE_CACHE_MIN_BYTES = 10 * 1024 * 1024;
export const TILE_CACHE_MAX_BYTES = 10 * 1024 * 1024 * 1024;

export const BasemapSettingsViewSchema = v.object({
  onlineStyleUrl: v.nullable(v.string()),
  /** The style drawn while onlineStyleUrl is null (OpenFreeMap or the admin's); null: off. */
  defaultOnlineStyleUrl: v.optional(v.nullable(v.string()), null),
  cacheCapBytes: v.number(),
  cacheUsedBytes: v.number(),
  cacheEntries: v.number(),
  /** True where main can show a native file dialog (Electron); else regions are added by path. */
  filePicker: v.boolean(),
  /** The PMTiles v3 archive (Protomaps schema) areas are downloaded from; null until set. */
  regionSourceUrl: v.nullable(v.string()),
  /**
   * The administrator's default map source (FIELDMAP_REGION_SOURCE), used while the rep has set
   * none: its URL, or why it is refused (then the URL itself is not shown: it may hold a secret),
   * or off.
   */
  adminRegionSource: v.nullable(
    v.union([
      v.strictObject({ url: v.string() }),
      v.strictObject({ problem: v.string() }),
      /** FIELDMAP_REGION_SOURCE=off: no default source at all. */
      v.strictObject({ off: v.literal(true) }),
    ]),
  ),
  /**
   * True when, with no source of the rep's, areas come from the newest public Protomaps daily
   * build (no administrator's default set), read only when the rep checks a size or downloads.
   */
  dailyBuilds: v.optional(v.boolean(), false),
});
export type BasemapSettingsView = v.InferOutput<typeof BasemapSettingsViewSchema>;

/** Max zoom of a download: 15 (street level) by default. */
export const DEFAULT_DOWNLOAD_MAX_ZOOM = 15;

/** What downloading an area would take, read from the source's directories before any tile. */
export const RegionEstimateSchema = v.object({
  tileCount: v.number(),
  /** The size of the region file that would be written. */
  totalBytes: v.number(),
  /** The bytes that would be fetched. */
  downloadBytes: v.number(),
  /** The date of the source's data (ISO), when it says. */
  dataDate: v.nullable(v.string()),
  requests: v.number(),
});
export type RegionEstimate = v.InferOutput<typeof RegionEstimateSchema>;

/** A region download: progress, pause state, or how it ended. */
export const RegionDownloadStatusSchema = v.object({
  id: v.string(),
  name: v.string(),
  state: v.picklist(['running', 'paused', 'failed', 'done']),
  doneBytes: v.number(),
  totalBytes: v.number(),
  doneRanges: v.number(),
  ranges: v.number(),
  secondsLeft: v.nullable(v.number()),
  error: v.nullable(v.string()),
  regionId: v.nullable(v.string()),
  requests: v.number(),
});
export type RegionDownloadStatus = v.InferOutput<typeof RegionDownloadStatusSchema>;
