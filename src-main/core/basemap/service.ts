// The basemap's main-process side: offline regions, the online style setting and its tile cache,
// and the one request handler the app:// protocol (Electron) and the browser runner both call for
// the app-origin paths regions/<id>.pmtiles and tiles?url=<remote url>.
import { join } from 'node:path';
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
  fs?: DurableFs;
  /** The built plan worker (the Electron shell's); see plan-worker-host.ts. */
  planWorkerPath?: string;
}

/** The administrator's default map source: its checked URL, or why it is refused. */
export type AdminRegionSource = { url: string } | { problem: string };

/** Largest style or TileJSON whose hosts are learned (real styles are tens of KiB). */
export const MAX_LEARNED_JSON_BYTES = 2 * 1024 * 1024;
/** Most URLs one style or TileJSON may name to be learned from. */
const MAX_LEARNED_URLS = 1_000;

function adminSource(raw: string | undefined): AdminRegionSource | null {
  if (raw === undefined || raw.trim() === '') return null;
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
  #settings: BasemapSettings;
  /** Origins main fetches for the renderer: the style's own, then those its sources name. */
  #origins = new Set<string>();
  /** The downloads' view of the confirmed origins (kept equal to the settings'). */
  #confirmed: { origins: string[] } = { origins: [] };

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
    const downloads = await RegionDownloads.open({
      dataDir: options.dataDir,
      regions,
      fs,
      clock: options.clock ?? systemClock,
      ...(options.fetch ? { fetch: options.fetch } : {}),
      onChange: (status) => listeners.forEach((listener) => listener(status)),
      confirmedLocal: (origin) => confirmed.origins.includes(origin),
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

  /** The source downloads use: the rep's own, else the administrator's default when valid. */
  regionSource(): string | null {
    const admin = this.#admin;
    return this.#settings.regionSourceUrl ?? (admin && 'url' in admin ? admin.url : null);
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
    const allowed =
      this.#settings.onlineStyleUrl !== null && mayFetchFor(target, this.#localStyle());
    if (!allowed || (!this.#origins.has(target.origin) && !this.tiles.has(target.href))) {
      return textResponse(403, 'not a resource of the configured online style');
    }
    const result = await this.tiles.fetchThroughCache(target.href);
    // Not cached and unreachable: a 404, which MapLibre draws as an empty tile (a 5xx would be
    // reported as a map error for every tile of the area while offline).
    if (result.kind === 'miss') return textResponse(404, 'not cached');
    if (target.href === this.#settings.onlineStyleUrl || /json/.test(result.contentType))
      this.#learnOrigins(target, result.data);
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
    const style = this.#settings.onlineStyleUrl;
    const origin = style ? new URL(style).origin : null;
    return origin && this.isConfirmed(origin) ? origin : null;
  }

  #resetOrigins(): void {
    this.#origins.clear();
    if (this.#settings.onlineStyleUrl)
      this.#origins.add(new URL(this.#settings.onlineStyleUrl).origin);
  }

  /** A style or TileJSON main served: the hosts its sources and tiles name become fetchable. */
  #learnOrigins(base: URL, data: Uint8Array): void {
    // A larger document is served but teaches nothing: its parse would hold main's event loop.
    if (data.length > MAX_LEARNED_JSON_BYTES) return;
    const local = this.#localStyle();
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder().decode(data));
    } catch {
      return;
    }
    const urls: unknown[] = [];
    const collect = (o: unknown) => {
      if (!o || typeof o !== 'object') return;
      const record = o as { url?: unknown; tiles?: unknown; sprite?: unknown };
      urls.push(record.url);
      if (Array.isArray(record.tiles)) urls.push(...record.tiles.slice(0, MAX_LEARNED_URLS));
    };
    collect(json);
    const sources = (json as { sources?: unknown }).sources;
    if (sources && typeof sources === 'object') Object.values(sources).forEach(collect);
    for (const u of urls.slice(0, MAX_LEARNED_URLS)) {
      if (typeof u !== 'string') continue;
      try {
        const target = new URL(u.replace(/[{}]/g, ''), base);
        if (mayFetchFor(target, local)) this.#origins.add(target.origin);
      } catch {
        // not a URL: nothing to allow
      }
    }
  }
}
