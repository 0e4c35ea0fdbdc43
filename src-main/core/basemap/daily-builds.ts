// The Protomaps daily planet builds: the map source "Download my area" uses when neither the rep
// nor the administrator has set one. How they are published (github.com/protomaps/basemaps,
// app/src/Builds.tsx): a JSON array at https://build-metadata.protomaps.dev/builds.json of
// { key: "YYYYMMDD.pmtiles", uploaded, size, version, md5sum?, b3sum? }, each build at
// https://build.protomaps.com/<key>. Their docs (protomaps/docs basemaps/downloads.md) keep
// every build of the past week, then fewer, and say URLs may change: the list is read again,
// never a build's address guessed. The list is untrusted bytes: capped, validated, and only a
// key of a dated file name makes an address, under the fixed https archive base.
import * as v from 'valibot';
import { readBodyCapped } from '../service/responses';
import { RegionDownloadError } from './region-source';

export const PROTOMAPS_BUILDS_LIST = 'https://build-metadata.protomaps.dev/builds.json';
export const PROTOMAPS_ARCHIVES = 'https://build.protomaps.com/';

/** Where the list is read and the archives it names are: Protomaps', or a test's imitation. */
export interface DailyBuilds {
  listUrl: string;
  archiveBase: string;
}

export const PROTOMAPS_DAILY_BUILDS: DailyBuilds = {
  listUrl: PROTOMAPS_BUILDS_LIST,
  archiveBase: PROTOMAPS_ARCHIVES,
};

/** Far above the real list (tens of KB: a week of builds, then one per version). */
export const MAX_BUILDS_LIST_BYTES = 1024 * 1024;
/** Entries looked at; more is not a list of builds. */
export const MAX_BUILDS = 10_000;
/**
 * The tiles' schema major version the app's style (@protomaps/basemaps 5) draws: 4 (the builds
 * page's VERSION_COMPATIBILITY, app/src/utils.ts).
 */
export const COMPATIBLE_MAJOR = 4;

const BuildSchema = v.object({
  key: v.pipe(v.string(), v.regex(/^(\d{4})(\d{2})(\d{2})\.pmtiles$/)),
  version: v.pipe(v.string(), v.maxLength(32)),
});

/** The newest build the app can draw: its archive URL and its key. */
export interface NewestBuild {
  url: string;
  key: string;
}

const failed = (reason: string) =>
  new RegionDownloadError(
    'network',
    `The public map (Protomaps daily build) could not be found: ${reason}. Try again when online, or save a map source.`,
  );

/** A real calendar date in the key (20261131 is not one). */
function datedKey(key: string): boolean {
  const [, y, m, d] = /^(\d{4})(\d{2})(\d{2})/.exec(key)!.map(Number) as number[];
  const date = new Date(Date.UTC(y!, m! - 1, d!));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m! - 1 && date.getUTCDate() === d;
}

/**
 * The newest well-formed, compatible build of a parsed list, or null when it names none. An entry
 * that is malformed (key not a dated .pmtiles name, wrong types, another schema) is skipped.
 */
export function newestBuild(list: unknown, archiveBase: string): NewestBuild | null {
  if (!Array.isArray(list)) return null;
  let best: string | null = null;
  for (const entry of list.slice(0, MAX_BUILDS)) {
    const parsed = v.safeParse(BuildSchema, entry);
    if (!parsed.success) continue;
    const { key, version } = parsed.output;
    if (Number(version.split('.')[0]) !== COMPATIBLE_MAJOR || !datedKey(key)) continue;
    if (best === null || key > best) best = key;
  }
  return best === null ? null : { key: best, url: new URL(best, archiveBase).href };
}

/** A list or archive base URL: https, or http on loopback (a test's imitation). */
function checkedBase(raw: string): URL {
  const url = new URL(raw);
  const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
    throw new Error(`the daily builds' address must be https: ${url.origin}`);
  return url;
}

/** Checks both addresses once, when main starts (a bad one is a programming error). */
export function checkDailyBuilds(builds: DailyBuilds): DailyBuilds {
  checkedBase(builds.listUrl);
  const base = checkedBase(builds.archiveBase);
  return {
    listUrl: builds.listUrl,
    archiveBase: base.href.endsWith('/') ? base.href : `${base.href}/`,
  };
}

/** Reads the builds list (no redirect followed, capped) and picks the newest build. */
export async function readNewestBuild(
  builds: DailyBuilds,
  fetch: typeof globalThis.fetch,
  timeoutMs = 15_000,
): Promise<NewestBuild> {
  let response: Response;
  try {
    response = await fetch(builds.listUrl, {
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
      headers: { Accept: 'application/json' },
    });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : null;
    if (cause && /redirect/i.test(cause.message)) throw failed('its list redirects elsewhere');
    throw failed(`no answer from ${new URL(builds.listUrl).host}`);
  }
  if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
    await response.body?.cancel().catch(() => undefined);
    throw failed('its list redirects elsewhere');
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw failed(`its list answered ${response.status}`);
  }
  let list: unknown;
  try {
    const bytes = await readBodyCapped(response, MAX_BUILDS_LIST_BYTES);
    list = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (error) {
    const tooLarge = error instanceof Error && /larger than/.test(error.message);
    throw failed(tooLarge ? 'its list is larger than a list of builds' : 'its list is not JSON');
  }
  const newest = newestBuild(list, builds.archiveBase);
  if (!newest) throw failed('its list names no build this app can draw');
  return newest;
}
