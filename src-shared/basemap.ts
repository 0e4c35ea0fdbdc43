// The basemap's settings and offline regions as they cross IPC, and the one rule for the online
// style URL (checked in the UI for a quick message and again in main, which decides).
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

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The online style URL to store, or why it is refused: https, or http on this computer only
 * (a local tile server), and no credentials in the URL.
 */
export function checkOnlineStyleUrl(
  raw: string,
): { ok: true; url: string } | { ok: false; reason: string } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { ok: false, reason: 'The online style URL is not a valid URL.' };
  }
  const loopbackHttp = url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !loopbackHttp) {
    return {
      ok: false,
      reason: `The online style URL must start with https:// (${url.protocol}// is not secure).`,
    };
  }
  if (url.username !== '' || url.password !== '')
    return { ok: false, reason: 'The online style URL must not contain a user name or password.' };
  return { ok: true, url: url.href };
}
