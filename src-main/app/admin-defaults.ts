// Defaults an IT administrator sets once for every laptop, in the environment the app starts
// with (a system variable pushed by Group Policy, Intune or an MDM profile): today the map
// source region downloads use while the rep has set none of their own, and the update feed.
import type { AdminRegionSource } from '../core/basemap/service';

/** The administrator's default map source: an https URL of a PMTiles v3 archive. */
export const REGION_SOURCE_ENV = 'FIELDMAP_REGION_SOURCE';

/** The environment's admin default map source, unchecked (BasemapService checks it). */
export function adminRegionSourceOf(
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  return env[REGION_SOURCE_ENV];
}

/** The admin default as the Offline maps panel shows it: its URL, or why it is not used. */
export function adminSourceView(admin: AdminRegionSource | null): AdminRegionSource | null {
  if (admin === null || 'url' in admin) return admin;
  return {
    problem: `The default map source your administrator set (${REGION_SOURCE_ENV}) is refused: ${admin.problem} Save a map source here, or ask your administrator to correct it.`,
  };
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
