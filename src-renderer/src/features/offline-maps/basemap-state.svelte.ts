// The renderer's view of the basemap's main-side state (offline regions, online style URL, tile
// cache) and the one place that puts it on the map: on start, when the map is ready, and on
// every `basemap:changed` from main (the Offline maps panel or the File menu).
import type { Map as MapLibreMap } from 'maplibre-gl';
import {
  toFieldmapError,
  type BasemapSettingsView,
  type FieldmapApi,
  type OfflineRegion,
  type RegionDownloadStatus,
} from '../../../../src-shared';
import {
  applyRegions,
  defaultAssetBase,
  loadOnlineStyle,
  PALETTES,
  type BasemapTheme,
} from '../../map/style/basemap-style';
import { bundledGroundLayers, bundledLabelLayers } from '../../map/style/bundled-layers';
import { applyOnline } from './apply-online';
import { streetsMissing } from './streets-shown';
import { text } from './text';

export class BasemapState {
  #regions = $state.raw<OfflineRegion[]>([]);
  #settings = $state.raw<BasemapSettingsView | null>(null);
  #onlineProblem = $state<string | null>(null);
  /** No streets drawn where the rep looks at street zoom (streets-shown.ts), decided at idle. */
  #noStreets = $state(false);
  /** An online style is being fetched: no verdict on streets until it is drawn or failed. */
  #onlineLoading = false;
  /** Downloads under way or paused, and those that ended since (failed ones say why). */
  #downloads = $state.raw<RegionDownloadStatus[]>([]);
  #map: MapLibreMap | null = null;
  /** What the map shows now, so an unrelated change (the cache cap) redraws nothing. */
  #drawnRegions: string | null = null;
  #drawnOnline: string | null = null;
  #onlineRequest = 0;

  constructor(
    private readonly api: FieldmapApi,
    private theme: BasemapTheme = 'light',
    private readonly assetBase: string = defaultAssetBase(),
  ) {}

  /**
   * Draws the map in `theme` from now on: the bundled world and labels are repainted in place
   * (no new style, so the camera and the customers' layers stay) and the regions drawn again.
   */
  setTheme(theme: BasemapTheme): void {
    if (theme === this.theme) return;
    this.theme = theme;
    const map = this.#map;
    if (!map?.getStyle()) return;
    const palette = PALETTES[theme];
    for (const layer of [...bundledGroundLayers(palette), ...bundledLabelLayers(palette)]) {
      if (!map.getLayer(layer.id) || !('paint' in layer) || !layer.paint) continue;
      for (const [name, value] of Object.entries(layer.paint)) {
        map.setPaintProperty(
          layer.id,
          name as Parameters<MapLibreMap['setPaintProperty']>[1],
          value,
        );
      }
    }
    this.#drawnRegions = null;
    this.#draw();
  }

  get regions(): OfflineRegion[] {
    return this.#regions;
  }

  get settings(): BasemapSettingsView | null {
    return this.#settings;
  }

  /** Why the online style is not drawn (unreachable and never cached, not a style...). */
  get onlineProblem(): string | null {
    return this.#onlineProblem;
  }

  /** True while the map at street zoom shows no streets (nothing online, no region there). */
  get noStreets(): boolean {
    return this.#noStreets;
  }

  /** Whether an online style is set (the rep's or the default): being online would draw streets. */
  get onlineStyleSet(): boolean {
    return Boolean(this.#settings?.onlineStyleUrl ?? this.#settings?.defaultOnlineStyleUrl);
  }

  get downloads(): RegionDownloadStatus[] {
    return this.#downloads;
  }

  /** Loads the state and follows main's changes; returns the unsubscribe function. */
  start(): () => void {
    const off = this.api.on('basemap:changed', ({ regions, settings }) =>
      this.#update(regions, settings),
    );
    const offProgress = this.api.on('regions:progress', (status) => this.#progress(status));
    // An online style that failed (offline, never cached) is asked again once the network is back.
    const online = () => {
      if (this.#onlineProblem !== null) this.#draw();
    };
    window.addEventListener('online', online);
    void this.refresh();
    return () => {
      off();
      offProgress();
      window.removeEventListener('online', online);
    };
  }

  #progress(status: RegionDownloadStatus): void {
    const others = this.#downloads.filter((d) => d.id !== status.id);
    // A finished download is in the region list now (basemap:changed).
    this.#downloads = status.state === 'done' ? others : [...others, status];
  }

  /** Forgets a download that ended (done or failed). */
  dismissDownload(id: string): void {
    this.#downloads = this.#downloads.filter((d) => d.id !== id);
  }

  async refresh(): Promise<void> {
    try {
      const [regions, settings] = await Promise.all([
        this.api.listRegions(),
        this.api.basemapSettings(),
      ]);
      this.#update(regions ?? [], settings ?? null);
      const downloads = (await this.api.listRegionDownloads()) ?? [];
      for (const status of downloads) this.#progress(status);
    } catch (error) {
      console.warn('[basemap] could not load the offline maps:', toFieldmapError(error).message);
    }
  }

  // The Offline maps panel's requests; main checks each again, broadcasts 'basemap:changed'
  // (which redraws the map) and says why it refuses one (a FieldmapError).

  /** Main's file dialog; null when the rep cancelled. */
  pickRegionFile(): ReturnType<FieldmapApi['pickRegionFile']> {
    return this.api.pickRegionFile();
  }

  removeRegion(id: string): ReturnType<FieldmapApi['removeRegion']> {
    return this.api.removeRegion({ id });
  }

  estimateRegion(
    request: Parameters<FieldmapApi['estimateRegion']>[0],
  ): ReturnType<FieldmapApi['estimateRegion']> {
    return this.api.estimateRegion(request);
  }

  async downloadRegion(request: Parameters<FieldmapApi['downloadRegion']>[0]): Promise<void> {
    this.#progress(await this.api.downloadRegion(request));
  }

  async pauseDownload(id: string): Promise<void> {
    this.#progress(await this.api.pauseRegionDownload({ id }));
  }

  async resumeDownload(id: string): Promise<void> {
    this.#progress(await this.api.resumeRegionDownload({ id }));
  }

  async cancelDownload(id: string): Promise<void> {
    await this.api.cancelRegionDownload({ id });
    this.dismissDownload(id);
  }

  /** The map's current view as [west, south, east, north], or null before the map exists. */
  currentView(): [number, number, number, number] | null {
    const bounds = this.#map?.getBounds();
    if (!bounds) return null;
    const clamp = (v: number, max: number) => Math.max(-max, Math.min(max, v));
    return [
      clamp(bounds.getWest(), 180),
      clamp(bounds.getSouth(), 85),
      clamp(bounds.getEast(), 180),
      clamp(bounds.getNorth(), 85),
    ];
  }

  saveSettings(
    settings: Parameters<FieldmapApi['setBasemapSettings']>[0],
  ): ReturnType<FieldmapApi['setBasemapSettings']> {
    return this.api.setBasemapSettings(settings);
  }

  /** The map to draw on (MapView's onReady). */
  attach(map: MapLibreMap): void {
    this.#map = map;
    this.#drawnRegions = null;
    this.#drawnOnline = null;
    // 'load' comes after the style is parsed; attach is called before, right after creation.
    if (!this.#draw()) map.once('load', () => this.#draw());
    map.on('idle', () => {
      // Not before the settings say which online style to draw, nor while it loads.
      if (map !== this.#map || this.#settings === null || this.#onlineLoading) return;
      this.#noStreets = streetsMissing(map);
    });
  }

  #update(regions: OfflineRegion[], settings: BasemapSettingsView | null): void {
    this.#regions = regions;
    this.#settings = settings;
    this.#draw();
    // An idle follows, at which the streets are looked for again (a region added, say).
    if (this.#map?.getStyle()) this.#map.triggerRepaint();
  }

  /** False while the map's style is still loading (nothing can be added yet). */
  #draw(): boolean {
    const map = this.#map;
    if (!map) return true;
    // getStyle() is undefined until the style is parsed (MapView hands the map over at once).
    if (!map.getStyle()) return false;
    const regionsKey = this.#regions.map((r) => r.id).join(',');
    if (regionsKey !== this.#drawnRegions) {
      const sources = this.#regions.map((r) => ({ id: r.id, url: `regions/${r.id}.pmtiles` }));
      applyRegions(map, sources, this.theme, this.assetBase);
      this.#drawnRegions = regionsKey;
    }
    const url = this.#settings?.onlineStyleUrl ?? this.#settings?.defaultOnlineStyleUrl ?? null;
    if (url !== this.#drawnOnline) {
      this.#drawnOnline = url;
      void this.#drawOnline(map, url);
    }
    return true;
  }

  async #drawOnline(map: MapLibreMap, url: string | null): Promise<void> {
    const request = ++this.#onlineRequest;
    this.#onlineProblem = null;
    let online = null;
    this.#onlineLoading = url !== null;
    if (url) {
      try {
        online = await loadOnlineStyle(url, this.assetBase);
      } catch (error) {
        // Offline before it was ever cached, or not a style: the bundled layer stays.
        this.#onlineProblem = text.online.failed(error instanceof Error ? error.message : null);
        this.#drawnOnline = null;
      }
    }
    if (request !== this.#onlineRequest || map !== this.#map) return; // a newer change won
    this.#onlineLoading = false;
    applyOnline(map, online);
    // The map goes idle again after drawing it (or at once, when nothing changed): decided then.
    map.triggerRepaint();
  }
}
