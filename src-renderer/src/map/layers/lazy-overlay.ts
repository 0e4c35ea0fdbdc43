// An overlay group (territories, routes) whose GeoJSON sources and layers join the map only
// once it has something to draw: empty sources still cost a tile load per visible tile on
// the one worker that is busy clustering the customers.
import type {
  GeoJSONSource,
  LayerSpecification,
  Map as MapLibreMap,
  SourceSpecification,
} from 'maplibre-gl';
import type { FeatureCollection } from 'geojson';

/** Source id -> data of one overlay group. */
export type OverlayData = Record<string, FeatureCollection>;

export function hasFeatures(data: OverlayData): boolean {
  return Object.values(data).some((fc) => fc.features.length > 0);
}

/** The sources' specs of an overlay's data. */
export function overlaySources(data: OverlayData): Record<string, SourceSpecification> {
  return Object.fromEntries(
    Object.entries(data).map(([id, fc]) => [id, { type: 'geojson', data: fc }]),
  );
}

export class LazyOverlay {
  #map: MapLibreMap;
  #layers: readonly LayerSpecification[];
  #beforeId: () => string | undefined;
  #visible: () => boolean;
  #added: boolean;
  // addSource/addLayer need the style; isStyleLoaded() also waits for tiles, so track 'load'.
  #styleReady = false;
  #latest: OverlayData | null = null;

  /**
   * Create before the map's 'load'. `inStyle`: the sources and layers are already in the
   * initial style. `beforeId` names the layer to insert under; `visible` is the group's toggle.
   */
  constructor(
    map: MapLibreMap,
    layers: readonly LayerSpecification[],
    options: { inStyle: boolean; beforeId: () => string | undefined; visible: () => boolean },
  ) {
    this.#map = map;
    this.#layers = layers;
    this.#added = options.inStyle;
    this.#beforeId = options.beforeId;
    this.#visible = options.visible;
    map.once('load', () => {
      this.#styleReady = true;
      this.#add();
    });
  }

  get added(): boolean {
    return this.#added;
  }

  /** New data: setData once the sources exist, else adds them with the first non-empty data. */
  set(data: OverlayData): void {
    if (this.#added) {
      for (const [id, fc] of Object.entries(data))
        void this.#map.getSource<GeoJSONSource>(id)?.setData(fc);
      return;
    }
    this.#latest = hasFeatures(data) ? data : null;
    this.#add();
  }

  #add(): void {
    const data = this.#latest;
    if (!data || this.#added || !this.#styleReady) return;
    this.#added = true;
    for (const [id, spec] of Object.entries(overlaySources(data))) this.#map.addSource(id, spec);
    const visibility = this.#visible() ? 'visible' : 'none';
    const before = this.#beforeId();
    for (const layer of this.#layers) {
      const withVisibility = {
        ...layer,
        layout: { ...layer.layout, visibility },
      } as LayerSpecification;
      this.#map.addLayer(withVisibility, before);
    }
  }
}
