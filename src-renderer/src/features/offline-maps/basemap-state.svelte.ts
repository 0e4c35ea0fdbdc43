// The renderer's view of the basemap's main-side state (offline regions, online style URL, tile
// cache) and the one place that puts it on the map: on start, when the map is ready, and on
// every `basemap:changed` from main (the Offline maps panel or the File menu).
import type { Map as MapLibreMap } from 'maplibre-gl';
import {
  toFieldmapError,
  type BasemapSettingsView,
  type FieldmapApi,
  type OfflineRegion,
} from '../../../../src-shared';
import {
  applyRegions,
  defaultAssetBase,
  loadOnlineStyle,
  type BasemapTheme,
} from '../../map/style/basemap-style';
import { applyOnline } from './apply-online';

export class BasemapState {
  #regions = $state.raw<OfflineRegion[]>([]);
  #settings = $state.raw<BasemapSettingsView | null>(null);
  #onlineProblem = $state<string | null>(null);
  #map: MapLibreMap | null = null;
  /** What the map shows now, so an unrelated change (the cache cap) redraws nothing. */
  #drawnRegions: string | null = null;
  #drawnOnline: string | null = null;
  #onlineRequest = 0;

  constructor(
    private readonly api: FieldmapApi,
    private readonly theme: BasemapTheme = 'light',
    private readonly assetBase: string = defaultAssetBase(),
  ) {}

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

  /** Loads the state and follows main's changes; returns the unsubscribe function. */
  start(): () => void {
    const off = this.api.on('basemap:changed', ({ regions, settings }) =>
      this.#update(regions, settings),
    );
    void this.refresh();
    return off;
  }

  async refresh(): Promise<void> {
    try {
      const [regions, settings] = await Promise.all([
        this.api.listRegions(),
        this.api.basemapSettings(),
      ]);
      this.#update(regions ?? [], settings ?? null);
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

  addRegion(path: string): ReturnType<FieldmapApi['addRegion']> {
    return this.api.addRegion({ path });
  }

  removeRegion(id: string): ReturnType<FieldmapApi['removeRegion']> {
    return this.api.removeRegion({ id });
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
  }

  #update(regions: OfflineRegion[], settings: BasemapSettingsView | null): void {
    this.#regions = regions;
    this.#settings = settings;
    this.#draw();
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
    const url = this.#settings?.onlineStyleUrl ?? null;
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
    if (url) {
      try {
        online = await loadOnlineStyle(url, this.assetBase);
      } catch (error) {
        // Offline before it was ever cached, or not a style: the bundled layer stays.
        this.#onlineProblem = `The online style could not be loaded (${error instanceof Error ? error.message : 'error'}); the offline map is shown.`;
        this.#drawnOnline = null;
      }
    }
    if (request !== this.#onlineRequest || map !== this.#map) return; // a newer change won
    applyOnline(map, online);
  }
}
