// Defaults an IT administrator sets once for every laptop, in the environment the app starts
// with (a system variable pushed by Group Policy, Intune or an MDM profile): today the map
// source region downloads use while the rep has set none of their own, and the update feed.
import type { AdminRegionSource } from '../core/basemap/service';
import { isLocalNetworkHost } from '../core/basemap/remote-policy';

/**
 * The administrator's default map source: an https URL of a PMTiles v3 archive, or "off" (no
 * default: not even the public Protomaps daily build used while it is unset).
 */
export const REGION_SOURCE_ENV = 'FIELDMAP_REGION_SOURCE';

/** The environment's admin default map source, unchecked (BasemapService checks it). */
export function adminRegionSourceOf(
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  return env[REGION_SOURCE_ENV];
}

/** The admin default as the Offline maps panel shows it: its URL, or why it is not used. */
export function adminSourceView(admin: AdminRegionSource | null): AdminRegionSource | null {
  if (admin === null || !('problem' in admin)) return admin;
  return {
    problem: `The default map source your administrator set (${REGION_SOURCE_ENV}) is refused: ${admin.problem} Save a map source here, or ask your administrator to correct it.`,
  };
}

/**
 * The online style the map draws while the rep has set none: unset, OpenFreeMap's public keyless
 * style (its terms allow any use; attribution comes in the style's sources and MapLibre shows it);
 * "off", nothing online; an https URL, that style. A local address is refused (as "off"): only an
 * address the rep typed and confirmed may be on this computer or the LAN.
 */
export const ONLINE_STYLE_ENV = 'FIELDMAP_ONLINE_STYLE';
export const OPENFREEMAP_STYLE = 'https://tiles.openfreemap.org/styles/liberty';

/** The default online style the environment asks for, or null when it is off or refused. */
export function defaultOnlineStyleOf(
  env: Readonly<Record<string, string | undefined>>,
): string | null {
  const raw = env[ONLINE_STYLE_ENV]?.trim();
  if (!raw) return OPENFREEMAP_STYLE;
  if (raw.toLowerCase() === 'off') return null;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'https:' || url.username || url.password) return null;
    if (isLocalNetworkHost(url.hostname)) return null;
    return url.href;
  } catch {
    return null;
  }
}

/** The administrator's update feed: the https URL of the folder holding latest.yml. */
export const UPDATE_FEED_ENV = 'FIELDMAP_UPDATE_URL';

export type UpdateFeed = { url: string } | { problem: 'no-feed' | 'not-https' | 'invalid-url' };

/**
 * The update feed the environment sets, checked: https only (an update is code the laptop will
 * run; plain http even on loopback is refused) and no user name or password in the URL.
 */
export function adminUpdateFeedOf(env: Readonly<Record<string, string | undefined>>): UpdateFeed {
  const raw = env[UPDATE_FEED_ENV]?.trim();
  if (!raw) return { problem: 'no-feed' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { problem: 'invalid-url' };
  }
  if (url.protocol !== 'https:') return { problem: 'not-https' };
  if (url.username || url.password || !url.hostname) return { problem: 'invalid-url' };
  return { url: url.href };
}
