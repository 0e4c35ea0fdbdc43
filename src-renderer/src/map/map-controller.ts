// MapController: one MapLibre map with the customers, territories and routes overlays. The
// Svelte component only forwards props here, so all behaviour is plain TypeScript.
import {
  Map as MapLibreMap,
  type GeoJSONSource,
  type LayerSpecification,
  type MapGeoJSONFeature,
  type MapMouseEvent,
  type StyleSpecification,
} from 'maplibre-gl';
import type { Geometry } from 'geojson';
import type { Route, Territory } from '../../../src-shared';
import type { CustomerView, FocusRequest } from '../types';
import {
  CLUSTER_MAX_ZOOM,
  CUSTOMER_LAYER,
  CUSTOMER_SOURCE,
  CustomerLayer,
  customerLayerSpecs,
  customerSourceSpec,
  PIN_FILL_LAYERS,
  recentLayerSpecs,
} from './layers/customer-layer';
import { colourByExpression, type ColourBy } from './style/colour-by';
import { MAP_DRAWN_MARK, type MapDrawnDetail } from './drawn-mark';
import type { Bounds } from './layers/geojson';
import { buildPins, URL_RELOAD_MIN } from './layers/pin-blob';
import {
  ALL_VISIBLE,
  setGroupVisible,
  type LayerGroup,
  type LayerVisibility,
} from './layers/layer-toggles';
import { hasFeatures, LazyOverlay, overlaySources } from './layers/lazy-overlay';
import { composeStyle, labelOptionsOf } from './style/map-style';
import { useBundledWorker } from './maplibre-worker';
import { tileLoadsInOrder } from './tile-load-order';
import { gateRedraws } from './redraw-gate';
import { CustomerPopup, type PopupAction } from './popup';
import { NearbyLayer, nearbyLayerSpecs, type NearbyHighlight } from './layers/nearby-layer';
import { ROUTE_LAYER, routeData, RouteLayer, routeLayerSpecs } from './layers/route-layer';
import { territoryData, TerritoryLayer, territoryLayerSpecs } from './layers/territory-layer';
import { DRAWING_CLASS } from './tools/area-select';
import { KeepInView } from './keep-in-view';
import { boundsOf } from './layers/geojson';
import { ProgramWarmup, WARM_SOURCE } from './program-warmup';
import type { LngLat } from '../../../src-shared';

export type MapControllerOptions = {
  container: HTMLElement;
  baseStyle: StyleSpecification;
  customers: readonly CustomerView[];
  territories: readonly Territory[];
  routes: readonly Route[];
  onSelect: (id: string | null) => void;
  onHover: (id: string | null) => void;
  /** Buttons of a pin's popup (e.g. "Customers nearby"). */
  popupActions?: readonly PopupAction[];
};

/** What a panel beside the map shows: one customer, or a set (a selection, a plan). */
export type OpenedOnMap =
  { kind: 'customer'; id: string } | { kind: 'customers'; ids: readonly string[] } | null;

const FIT_PADDING = 48;

const FOCUS_ZOOM = CLUSTER_MAX_ZOOM + 2;

/** The view of a map made with no pin (the world). */
const EMPTY_CENTER: [number, number] = [0, 20];
const EMPTY_ZOOM = 1.5;

/** The base style's layers not drawn at `zoom` (drawn first once the map fits its data). */
const hiddenAt = (layers: readonly LayerSpecification[], zoom: number) =>
  layers.filter((l) => (l.minzoom ?? 0) > zoom || (l.maxzoom ?? 24) <= zoom);

/** The layers of single pins: the clustered source's and the recently changed ones on top. */
const PIN_LAYERS = [CUSTOMER_LAYER.recentPins, CUSTOMER_LAYER.pins];

export class MapController {
  readonly map: MapLibreMap;
  readonly customers: CustomerLayer;
  readonly territories: TerritoryLayer;
  readonly routes: RouteLayer;
  readonly nearby: NearbyLayer;
  readonly layerIds: readonly string[];
  #options: MapControllerOptions;
  /** The recent source's layer specs (the overlay adds them later: they follow colour-by). */
  #recentSpecs: LayerSpecification[];
  /** Undoes gateRedraws (list input holds the map's drawing: redraw-gate.ts). */
  #ungate: () => void;
  readonly #popup: CustomerPopup;
  #selected: string | null = null;
  #hovered: string | null = null;
  #focusNonce: number | null = null;
  #visible: LayerVisibility = { ...ALL_VISIBLE };
  #undrawn: boolean;
  // A map created before the data arrived fits itself to the first customers it gets.
  #fitOnData: boolean;
  readonly #keep: KeepInView;
  /** What the panel beside the map shows, looked up again whenever the pins change. */
  #opened: OpenedOnMap = null;
  /** The overlays' GL programs linked while a map made before its data waits for it. */
  #warmup: ProgramWarmup | null = null;

  constructor(options: MapControllerOptions) {
    useBundledWorker();
    tileLoadsInOrder();
    this.#options = options;
    const labels = labelOptionsOf(options.baseStyle);
    // Many pins are built in slices after the map exists (CustomerLayer), never in the style.
    const large = options.customers.length >= URL_RELOAD_MIN;
    const built = buildPins(large ? [] : options.customers);
    const data = built.data;
    const territorySpecs = territoryLayerSpecs(labels);
    const routeSpecs = routeLayerSpecs(labels);
    const customerSpecs = customerLayerSpecs(labels);
    const recentSpecs = recentLayerSpecs(labels);
    this.#recentSpecs = recentSpecs;
    this.layerIds = [...territorySpecs, ...routeSpecs, ...customerSpecs, ...recentSpecs].map(
      (l) => l.id,
    );
    // Everything there is to draw goes into the initial style (not added after 'load'), so
    // nothing is parsed twice; territories and routes join later if they are empty now.
    const territories = territoryData(options.territories);
    const routes = routeData(options.routes);
    const withTerritories = hasFeatures(territories);
    const withRoutes = hasFeatures(routes);
    // A map made before its data (a first sync) would draw its overlays, and the base layers of
    // the data's zoom, for the first time in one frame once the data comes: their programs are
    // linked in its first frames instead (program-warmup.ts).
    const warmup =
      data.bounds === null && !large
        ? new ProgramWarmup(
            [
              ...customerSpecs,
              ...territorySpecs,
              ...routeSpecs,
              ...hiddenAt(options.baseStyle.layers, EMPTY_ZOOM),
            ],
            EMPTY_CENTER,
          )
        : null;
    const style = composeStyle(options.baseStyle, {
      sources: {
        ...(withTerritories ? overlaySources(territories) : {}),
        ...(withRoutes ? overlaySources(routes) : {}),
        [CUSTOMER_SOURCE]: customerSourceSpec(data.collection),
        ...(warmup ? { [WARM_SOURCE]: warmup.source } : {}),
      },
      layers: [
        ...(withTerritories ? territorySpecs : []),
        ...(withRoutes ? routeSpecs : []),
        ...customerSpecs,
        ...(warmup?.layers ?? []),
      ],
    });
    this.map = new MapLibreMap({
      container: options.container,
      style,
      ...(data.bounds
        ? { bounds: data.bounds, fitBoundsOptions: { padding: FIT_PADDING, maxZoom: FOCUS_ZOOM } }
        : { center: EMPTY_CENTER, zoom: EMPTY_ZOOM }),
      // The credits of every drawn source (OpenStreetMap for regions: ODbL), always expanded.
      attributionControl: { compact: false },
      // Labels (cluster counts above all) appear with their circles instead of fading in for
      // 300 ms after them; the fade also held back 'idle' by that much.
      fadeDuration: 0,
    });
    this.#ungate = gateRedraws(this.map);
    this.#popup = new CustomerPopup(this.map, options.popupActions ?? [], (id) => {
      // Closed by the rep (its x button): that is a deselect.
      if (this.#selected === id) this.#options.onSelect(null);
    });
    // Changed pins are drawn above every other layer, from a source that exists once needed.
    const recentOverlay = new LazyOverlay(this.map, recentSpecs, {
      inStyle: false,
      beforeId: () => undefined,
      visible: () => this.#visible.customers,
    });
    this.customers = new CustomerLayer(this.map, built, recentOverlay, this.#onPins);
    const routeOverlay = new LazyOverlay(this.map, routeSpecs, {
      inStyle: withRoutes,
      beforeId: () => CUSTOMER_LAYER.clusters,
      visible: () => this.#visible.routes,
    });
    const territoryOverlay = new LazyOverlay(this.map, territorySpecs, {
      inStyle: withTerritories,
      beforeId: () => (routeOverlay.added ? ROUTE_LAYER.lines : CUSTOMER_LAYER.clusters),
      visible: () => this.#visible.territories,
    });
    this.territories = new TerritoryLayer(options.territories, territoryOverlay);
    this.routes = new RouteLayer(options.routes, routeOverlay);
    this.nearby = new NearbyLayer(
      new LazyOverlay(this.map, nearbyLayerSpecs(), {
        inStyle: false,
        beforeId: () => undefined,
        visible: () => true,
      }),
    );
    this.#undrawn = this.customers.count > 0;
    this.#fitOnData = this.customers.count === 0;
    this.#warmup = warmup;
    warmup?.attach(this.map);
    this.#keep = new KeepInView(this.map);
    this.map.on('idle', this.#onIdle);
    this.map.on('click', this.#onClick);
    for (const pins of PIN_LAYERS) {
      this.map.on('mousemove', pins, this.#onPinMove);
      this.map.on('mouseleave', pins, this.#onPinLeave);
    }
    this.map.on('mouseenter', CUSTOMER_LAYER.clusters, this.#pointer);
    this.map.on('mouseleave', CUSTOMER_LAYER.clusters, this.#noPointer);
    if (large) this.customers.setCustomers(options.customers);
  }

  setCustomers(customers: readonly CustomerView[]): void {
    this.customers.setCustomers(customers);
    // The selected customer's record may have changed (the popup shows more than its pin).
    if (this.#popup.id !== null) this.#showPopup(this.#popup.id, true);
  }

  /** The pins changed (a reload, maybe built in slices, or a patch); `before` pins there were. */
  #onPins = (before: number): void => {
    if (this.customers.count > 0 || before > 0) this.#undrawn = true;
    if (this.customers.count > 0) this.#warmup?.stop();
    if (this.#fitOnData && this.customers.count > 0) {
      this.#fitOnData = false;
      const bounds = this.customers.bounds;
      if (bounds)
        this.map.fitBounds(bounds, { padding: FIT_PADDING, maxZoom: FOCUS_ZOOM, animate: false });
    }
    // The selected customer may have moved, changed or become unmapped.
    if (this.#popup.id !== null) this.#showPopup(this.#popup.id, true);
    // What was opened before its pin was drawn (a create on its way to the cache) comes into
    // view once it is; the same place again (a create's new id, an edit) does not move the map.
    if (this.#opened !== null) this.#keepOpened();
  };

  /** The list's filtered set (null: no filter): pins and clusters show exactly it. */
  setShown(shown: readonly CustomerView[] | null): void {
    this.customers.setShown(shown);
  }

  /** What the pins' fill says: a paint change of the pin layers, no source is touched. */
  setColourBy(mode: ColourBy): void {
    const color = colourByExpression(mode);
    for (const spec of this.#recentSpecs) {
      if (spec.type === 'circle') spec.paint = { ...spec.paint, 'circle-color': color };
    }
    for (const id of PIN_FILL_LAYERS) {
      if (this.map.getLayer(id)) this.map.setPaintProperty(id, 'circle-color', color);
    }
  }

  setTerritories(territories: readonly Territory[]): void {
    this.territories.setTerritories(territories);
  }

  setRoutes(routes: readonly Route[]): void {
    this.routes.setRoutes(routes);
  }

  /** Selection from outside (list, panel): feature-state plus the popup. */
  setSelected(id: string | null): void {
    this.#selected = id;
    this.customers.setSelected(id);
    if (id === null) this.#popup.close();
    else this.#showPopup(id);
  }

  setHovered(id: string | null): void {
    this.#hovered = id;
    this.customers.setHovered(id);
  }

  setVisible(group: LayerGroup, visible: boolean): void {
    this.#visible[group] = visible;
    setGroupVisible(this.map, this.layerIds, group, visible);
    if (group === 'customers' && !visible) this.#popup.close();
  }

  /** Nearby's circle and result pins (null: none); a new circle is brought into view. */
  setNearby(highlight: NearbyHighlight | null): void {
    this.#fit(this.nearby.set(highlight));
  }

  /** Fits the view to every mapped customer; false when there is none. */
  fitToData(): boolean {
    return this.#fit(this.customers.bounds);
  }

  /** Moves to what a focus request names; each nonce is handled once. */
  focus(request: FocusRequest | null): void {
    if (request === null || request.nonce === this.#focusNonce) return;
    this.#focusNonce = request.nonce;
    this.#fitOnData = false;
    if (request.kind === 'customer') {
      const position = this.customers.positionOf(request.id);
      if (position) {
        this.map.flyTo({ center: position, zoom: Math.max(this.map.getZoom(), FOCUS_ZOOM) });
      }
      if (this.#selected !== request.id) this.#options.onSelect(request.id);
      return;
    }
    const layer = request.kind === 'territory' ? this.territories : this.routes;
    this.#fit(layer.boundsOf(request.id));
  }

  /** What a panel beside the map shows: kept in view as the panel narrows the map. */
  setOpened(opened: OpenedOnMap): void {
    this.#opened = opened;
    this.#keepOpened();
  }

  #keepOpened(): void {
    const opened = this.#opened;
    if (opened === null) return this.#keep.set(null);
    if (opened.kind === 'customer') {
      const at = this.customers.positionOf(opened.id);
      return at ? this.#keep.set({ kind: 'point', at }) : this.#keep.unplaced();
    }
    const points: LngLat[] = [];
    for (const id of opened.ids) {
      const at = this.customers.positionOf(id);
      if (at) points.push(at);
    }
    const bounds = boundsOf(points);
    if (bounds) this.#keep.set({ kind: 'area', bounds });
    else this.#keep.unplaced();
  }

  destroy(): void {
    this.#warmup?.stop();
    this.#keep.destroy();
    this.#ungate();
    this.#popup.close();
    this.customers.dispose();
    this.map.remove();
  }

  /** Customers drawn in the viewport: unclustered pins plus the point counts of drawn clusters. */
  renderedCustomerCount(): number {
    const drawn = this.map.queryRenderedFeatures({
      layers: [...PIN_LAYERS, CUSTOMER_LAYER.clusters].filter((id) => this.map.getLayer(id)),
    });
    const pins = new Set<unknown>();
    const clusters = new Map<unknown, number>();
    for (const f of drawn) {
      if (f.layer.id !== CUSTOMER_LAYER.clusters) {
        if (typeof f.id === 'number' && this.customers.customerIdAt(f.layer.id, f.id) !== undefined)
          pins.add(f.id);
      } else clusters.set(f.properties['cluster_id'], f.properties['point_count'] as number);
    }
    let total = pins.size;
    for (const n of clusters.values()) total += n;
    return total;
  }

  #onIdle = (): void => {
    if (!this.#undrawn) return;
    this.#undrawn = false;
    const detail: MapDrawnDetail = { customers: this.customers.count };
    performance.mark(MAP_DRAWN_MARK, { detail });
  };

  #fit(bounds: Bounds | null): boolean {
    if (!bounds) return false;
    this.map.fitBounds(bounds, { padding: FIT_PADDING, maxZoom: FOCUS_ZOOM });
    return true;
  }

  #onClick = (e: MapMouseEvent): void => {
    // A lasso, box or area being drawn owns the click.
    if (this.map.getCanvasContainer().classList.contains(DRAWING_CLASS)) return;
    const layers = [...PIN_LAYERS, CUSTOMER_LAYER.clusters].filter(
      (id) => this.map.getLayer(id) && this.map.getLayoutProperty(id, 'visibility') !== 'none',
    );
    const hit = this.map
      .queryRenderedFeatures(e.point, { layers })
      .find((f) => f.layer.id === CUSTOMER_LAYER.clusters || this.#pinId(f) !== undefined);
    if (!hit) {
      if (this.#selected !== null) this.#options.onSelect(null);
      return;
    }
    if (hit.layer.id === CUSTOMER_LAYER.clusters) {
      void this.#zoomIntoCluster(hit.properties['cluster_id'] as number, hit.geometry);
      return;
    }
    const id = this.#pinId(hit);
    if (id === undefined) return;
    this.#showPopup(id);
    if (this.#selected !== id) this.#options.onSelect(id);
  };

  async #zoomIntoCluster(clusterId: number, geometry: Geometry): Promise<void> {
    const source = this.map.getSource<GeoJSONSource>(CUSTOMER_SOURCE);
    if (!source || geometry.type !== 'Point') return;
    const zoom = await source.getClusterExpansionZoom(clusterId);
    this.map.easeTo({ center: geometry.coordinates as [number, number], zoom });
  }

  /** The customer of a drawn pin (undefined for a hidden one). */
  #pinId(f: MapGeoJSONFeature): string | undefined {
    return typeof f.id === 'number' ? this.customers.customerIdAt(f.layer.id, f.id) : undefined;
  }

  #onPinMove = (e: MapMouseEvent & { features?: MapGeoJSONFeature[] }): void => {
    this.#pointer();
    const first = e.features?.find((f) => this.#pinId(f) !== undefined);
    // Only a hidden pin under the pointer: the recent source's layer reports the shown one.
    if (!first) return;
    const id = this.#pinId(first) ?? null;
    if (id !== this.#hovered) this.#options.onHover(id);
  };

  #onPinLeave = (): void => {
    this.#noPointer();
    if (this.#hovered !== null) this.#options.onHover(null);
  };

  #pointer = (): void => {
    this.map.getCanvas().style.cursor = 'pointer';
  };

  #noPointer = (): void => {
    this.map.getCanvas().style.cursor = '';
  };

  #showPopup(id: string, refresh = false): void {
    if (id === this.#popup.id && !refresh) return;
    const position = this.customers.positionOf(id);
    const customer = position ? this.customers.customer(id) : undefined;
    if (!position || !customer) this.#popup.close();
    else this.#popup.show(customer, position);
  }
}
