// The basemap's main-process side: offline regions, the online style setting and its tile cache,
// and the one request handler the app:// protocol (Electron) and the browser runner both call for
// the app-origin paths regions/<id>.pmtiles and tiles?url=<remote url>.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as v from 'valibot';
import { nodeDurableFs, type DurableFs } from '../durable-fs';
import { textResponse, type BasemapResponse } from './files';
import { OfflineRegions } from './offline-regions';
import { RegionDownloads, type DownloadStatus } from './region-downloads';
import { checkSourceUrl, RegionDownloadError } from './region-source';
import { systemClock, type Clock } from '../ports';
import {
  checkStyleUrl,
  isLocalNetworkHost,
  mayFetchFor,
  proxyContentHeaders,
} from './remote-policy';
import { TileCache } from './tile-cache';
import { checkDailyBuilds, readNewestBuild, type DailyBuilds } from './daily-builds';
import { MAX_LEARNED_JSON_BYTES } from './style-urls';
import type { StyleWorkerInput } from './style-worker';
import {
  ParseFailed,
  parseInWorker,
  type ParseLimits,
  type WorkerEntry,
} from '../untrusted/parse-worker';

export const DEFAULT_TILE_CACHE_BYTES = 200 * 1024 * 1024;

const SettingsSchema = v.object({
  onlineStyleUrl: v.nullable(v.string()),
  tileCacheBytes: v.pipe(v.number(), v.integer(), v.minValue(0)),
  /** The PMTiles archive regions are downloaded from (region-source.ts checks it). */
  regionSourceUrl: v.optional(v.nullable(v.string()), null),
  /**
   * Origins on this computer or the LAN the rep typed and confirmed in main's dialog, among the
   * style's and the source's: only these local addresses are ever fetched.
   */
  confirmedOrigins: v.optional(v.array(v.string()), []),
});
export type BasemapSettings = v.InferOutput<typeof SettingsSchema>;

export interface BasemapServiceOptions {
  dataDir: string;
  fetch?: typeof globalThis.fetch;
  now?: () => number;
  /** For the region downloads' retries and time left. */
  clock?: Clock;
  /** The administrator's default map source, used while the rep has set none (unchecked). */
  adminRegionSource?: string | undefined;
  /**
   * The online style drawn while the rep has set none (admin-defaults.ts decides it: OpenFreeMap,
   * the admin's, or null for off). Trusted as given: a local one is fetched without a confirmation.
   */
  defaultOnlineStyle?: string | null;
  /**
   * The public planet builds downloads use while neither the rep nor the administrator set a
   * source (daily-builds.ts: Protomaps', or a test's imitation, trusted as given); null: none.
   */
  dailyBuilds?: DailyBuilds | null;
  fs?: DurableFs;
  /** The built plan worker (the Electron shell's); see plan-worker-host.ts. */
  planWorkerPath?: string;
  /** The built style worker (the Electron shell's); default: its source, run through tsx. */
  styleWorker?: WorkerEntry;
}

/** The style reader's worker when main runs from source; the app's build passes its own file. */
export const SOURCE_STYLE_WORKER: WorkerEntry = join(
  dirname(fileURLToPath(import.meta.url)),
  'style-worker.ts',
);

/** Far above what a 2 MiB style needs; a crafted one is ended at these, not main. */
export const STYLE_LIMITS: ParseLimits = { heapMb: 128, deadlineMs: 20_000 };

/**
 * The administrator's default map source: its checked URL, why it is refused, or off ("off": no
 * default at all, not even the public daily build).
 */
export type AdminRegionSource = { url: string } | { problem: string } | { off: true };

/** How long the newest daily build found is used before its list is read again. */
const NEWEST_BUILD_MS = 60 * 60 * 1000;

export { MAX_LEARNED_JSON_BYTES } from './style-urls';

function adminSource(raw: string | undefined): AdminRegionSource | null {
  if (raw === undefined || raw.trim() === '') return null;
  if (raw.trim().toLowerCase() === 'off') return { off: true };
  try {
    const url = checkSourceUrl(raw);
    // Only an address the rep typed and confirmed may be on this computer or the LAN.
    if (isLocalNetworkHost(new URL(url).hostname))
      return {
        problem:
          'The map source is on this computer or the local network; Fieldmap uses such an address only when you type it here and confirm it.',
      };
    return { url };
  } catch (error) {
    if (error instanceof RegionDownloadError) return { problem: error.message };
    throw error;
  }
}

export { checkStyleUrl } from './remote-policy';

export class BasemapService {
  readonly regions: OfflineRegions;
  readonly tiles: TileCache;
  readonly downloads: RegionDownloads;
  readonly #downloadListeners: Set<(status: DownloadStatus) => void>;
  readonly #settingsFile: string;
  readonly #fs: DurableFs;
  readonly #admin: AdminRegionSource | null;
  #defaultStyle: string | null = null;
  #dailyBuilds: DailyBuilds | null = null;
  #newestBuild: { url: string; at: number } | null = null;
  #readingBuilds: Promise<string> | null = null;
  #fetch: typeof globalThis.fetch = globalThis.fetch;
  #settings: BasemapSettings;
  /** Origins main fetches for the renderer: the style's own, then those its sources name. */
  #origins = new Set<string>();
  /** The downloads' view of the confirmed origins (kept equal to the settings'). */
  #confirmed: { origins: string[] } = { origins: [] };
  #styleWorker: WorkerEntry = SOURCE_STYLE_WORKER;
  #clock: Clock = systemClock;
  /** Counts the resets of #origins: a style read before one teaches nothing after it. */
  #generation = 0;

  private constructor(
    parts: { regions: OfflineRegions; tiles: TileCache; downloads: RegionDownloads; fs: DurableFs },
    downloadListeners: Set<(status: DownloadStatus) => void>,
    settingsFile: string,
    settings: BasemapSettings,
    admin: AdminRegionSource | null,
  ) {
    this.regions = parts.regions;
    this.tiles = parts.tiles;
    this.downloads = parts.downloads;
    this.#fs = parts.fs;
    this.#downloadListeners = downloadListeners;
    this.#settingsFile = settingsFile;
    this.#settings = settings;
    this.#admin = admin;
    this.#resetOrigins();
  }

  static async open(options: BasemapServiceOptions): Promise<BasemapService> {
    const settingsFile = join(options.dataDir, 'basemap-settings.json');
    const fs = options.fs ?? nodeDurableFs;
    const parsed = v.safeParse(SettingsSchema, await fs.readJson(settingsFile));
    const settings: BasemapSettings = parsed.success
      ? parsed.output
      : {
          onlineStyleUrl: null,
          tileCacheBytes: DEFAULT_TILE_CACHE_BYTES,
          regionSourceUrl: null,
          confirmedOrigins: [],
        };
    const confirmed = { origins: settings.confirmedOrigins };
    const regions = await OfflineRegions.open({
      dataDir: options.dataDir,
      fs,
      ...(options.now ? { now: options.now } : {}),
    });
    const tiles = await TileCache.open({
      dir: join(options.dataDir, 'tile-cache'),
      capacityBytes: settings.tileCacheBytes,
      fs,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.now ? { now: options.now } : {}),
    });
    const listeners = new Set<(status: DownloadStatus) => void>();
    const dailyBuilds = options.dailyBuilds ? checkDailyBuilds(options.dailyBuilds) : null;
    // The daily builds' archives are trusted as given, as the default style is (a test's
    // imitation is on loopback); any other local address only once the rep confirmed it.
    const buildsOrigin = dailyBuilds ? new URL(dailyBuilds.archiveBase).origin : null;
    const downloads = await RegionDownloads.open({
      dataDir: options.dataDir,
      regions,
      fs,
      clock: options.clock ?? systemClock,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      onChange: (status) => listeners.forEach((listener) => listener(status)),
      confirmedLocal: (origin) => confirmed.origins.includes(origin) || origin === buildsOrigin,
      ...(options.planWorkerPath ? { planWorker: { path: options.planWorkerPath } } : {}),
    });
    const admin = adminSource(options.adminRegionSource);
    const service = new BasemapService(
      { regions, tiles, downloads, fs },
      listeners,
      settingsFile,
      settings,
      admin,
    );
    service.#confirmed = confirmed;
    service.#dailyBuilds = dailyBuilds;
    if (options.fetch) service.#fetch = options.fetch;
    if (options.defaultOnlineStyle) {
      service.#defaultStyle = checkStyleUrl(options.defaultOnlineStyle);
      service.#resetOrigins();
    }
    if (options.styleWorker) service.#styleWorker = options.styleWorker;
    if (options.clock) service.#clock = options.clock;
    return service;
  }

  /** Subscribes to every download's progress and end; returns the unsubscribe function. */
  onDownloadChange(listener: (status: DownloadStatus) => void): () => void {
    this.#downloadListeners.add(listener);
    return () => this.#downloadListeners.delete(listener);
  }

  settings(): BasemapSettings {
    return { ...this.#settings, confirmedOrigins: [...this.#settings.confirmedOrigins] };
  }

  /** Whether the rep confirmed this origin (on this computer or the LAN) for the style or source. */
  isConfirmed(origin: string): boolean {
    return this.#settings.confirmedOrigins.includes(origin);
  }

  /** The administrator's default map source, or null when none is set. */
  adminRegionSource(): AdminRegionSource | null {
    return this.#admin ? { ...this.#admin } : null;
  }

  /** The online style the map draws: the rep's own, else the default (null: none). */
  onlineStyle(): string | null {
    return this.#settings.onlineStyleUrl ?? this.#defaultStyle;
  }

  /** The style drawn while the rep has set none, or null when it is turned off. */
  defaultOnlineStyle(): string | null {
    return this.#defaultStyle;
  }

  /** The source downloads use: the rep's own, else the administrator's default when valid. */
  regionSource(): string | null {
    const admin = this.#admin;
    return this.#settings.regionSourceUrl ?? (admin && 'url' in admin ? admin.url : null);
  }

  /** The public daily builds, used when neither the rep nor the administrator set a source. */
  dailyBuilds(): DailyBuilds | null {
    return this.#admin === null ? this.#dailyBuilds : null;
  }

  /**
   * The URL of the newest daily build, its list read at most once an hour (a check of size and
   * the download after it use one build); a RegionDownloadError when it cannot be found.
   */
  async newestDailyBuild(): Promise<string> {
    const builds = this.dailyBuilds();
    if (!builds) throw new RegionDownloadError('bad-url', 'No public map source is in use.');
    const known = this.#newestBuild;
    if (known && this.#clock.now() - known.at < NEWEST_BUILD_MS) return known.url;
    this.#readingBuilds ??= readNewestBuild(builds, this.#fetch)
      .then(({ url }) => {
        this.#newestBuild = { url, at: this.#clock.now() };
        return url;
      })
      .finally(() => (this.#readingBuilds = null));
    return this.#readingBuilds;
  }

  async setSettings(changes: Partial<BasemapSettings>): Promise<BasemapSettings> {
    const next = { ...this.#settings, ...changes };
    if (next.onlineStyleUrl !== null) next.onlineStyleUrl = checkStyleUrl(next.onlineStyleUrl);
    if (next.regionSourceUrl) next.regionSourceUrl = checkSourceUrl(next.regionSourceUrl);
    // A confirmation lasts as long as the address it was given for.
    const inUse = [next.onlineStyleUrl, next.regionSourceUrl].map((u) => u && new URL(u).origin);
    next.confirmedOrigins = [...new Set(next.confirmedOrigins)].filter((o) => inUse.includes(o));
    this.#settings = v.parse(SettingsSchema, next);
    this.#confirmed.origins = this.#settings.confirmedOrigins;
    await this.#fs.writeJson(this.#settingsFile, this.#settings);
    if (changes.tileCacheBytes !== undefined)
      await this.tiles.setCapacity(this.#settings.tileCacheBytes);
    this.#resetOrigins();
    return this.settings();
  }

  /** The answer for an app-origin URL, or null when the path is not the basemap's (serve files). */
  async handleRequest(url: URL, range: string | null): Promise<BasemapResponse | null> {
    const region = /^\/regions\/([a-z0-9-]{1,64})\.pmtiles$/.exec(url.pathname);
    if (region) return this.regions.serveRange(region[1]!, range);
    if (url.pathname === '/tiles') return this.#serveRemote(url.searchParams.get('url'));
    return null;
  }

  async #serveRemote(remote: string | null): Promise<BasemapResponse> {
    let target: URL;
    try {
      target = new URL(remote ?? '');
    } catch {
      return textResponse(400, 'bad url');
    }
    // Only what the style may name (remote-policy.ts), and of that only the hosts it did name.
    const allowed = this.onlineStyle() !== null && mayFetchFor(target, this.#localStyle());
    if (!allowed || (!this.#origins.has(target.origin) && !this.tiles.has(target.href))) {
      return textResponse(403, 'not a resource of the configured online style');
    }
    const result = await this.tiles.fetchThroughCache(target.href);
    // Not cached and unreachable: a 404, which MapLibre draws as an empty tile (a 5xx would be
    // reported as a map error for every tile of the area while offline).
    if (result.kind === 'miss') return textResponse(404, 'not cached');
    if (target.href === this.onlineStyle() || /json/.test(result.contentType)) {
      const refusal = await this.#learnOrigins(target, result.data);
      // Not handed on: MapLibre would parse on the page what main would not.
      if (refusal)
        return textResponse(422, `Fieldmap refused the map style ${target.href}: ${refusal}.`);
    }
    return {
      status: 200,
      headers: {
        ...proxyContentHeaders(result.contentType),
        'Cache-Control': 'no-cache',
        'X-Fieldmap-Cache': result.kind,
      },
      body: result.data,
    };
  }

  /** The style's origin when it is on this computer or the LAN and the rep confirmed it. */
  #localStyle(): string | null {
    const style = this.onlineStyle();
    const origin = style ? new URL(style).origin : null;
    const trusted = style !== null && style === this.#defaultStyle;
    return origin && (trusted || this.isConfirmed(origin)) ? origin : null;
  }

  #resetOrigins(): void {
    this.#generation++;
    this.#origins.clear();
    const style = this.onlineStyle();
    if (style) this.#origins.add(new URL(style).origin);
  }

  /**
   * A style or TileJSON main served: the hosts its sources and tiles name become fetchable. Read in
   * a worker (style-worker.ts); the reason it was refused, or null.
   */
  async #learnOrigins(base: URL, data: Uint8Array): Promise<string | null> {
    // A larger document is served but teaches nothing: its parse would hold main's event loop.
    if (data.length > MAX_LEARNED_JSON_BYTES) return null;
    const local = this.#localStyle();
    const generation = this.#generation;
    let urls: string[];
    try {
      // A copy of its own moves to the worker (a Buffer's slice would share, and give away, the
      // bytes still served from here).
      const input: StyleWorkerInput = { data: new Uint8Array(data) };
      urls = await parseInWorker<string[]>(
        this.#styleWorker,
        input,
        [input.data.buffer as ArrayBuffer],
        STYLE_LIMITS,
        this.#clock,
      );
    } catch (error) {
      if (!(error instanceof ParseFailed)) throw error;
      const { failure } = error;
      if (failure.kind === 'refused') return failure.message;
      if (failure.kind === 'out-of-memory') return 'reading it needed more memory than allowed';
      if (failure.kind === 'timed-out') return 'reading it took too long';
      return 'it could not be read';
    }
    if (generation !== this.#generation) return null;
    for (const u of urls) {
      try {
        const target = new URL(u.replace(/[{}]/g, ''), base);
        if (mayFetchFor(target, local)) this.#origins.add(target.origin);
      } catch {
        // not a URL: nothing to allow
      }
    }
    return null;
  }
}
