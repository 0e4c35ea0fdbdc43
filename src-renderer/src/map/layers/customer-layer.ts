// Customers: one clustered GeoJSON source of every pin, plus a small unclustered source of the
// pins changed since it was loaded. Numeric feature ids index one id table shared by both, so
// hover/selection go through feature-state without touching the data. An edit, a logged visit
// or a create patches the small source and hides the old pin (feature-state `replaced`): the
// clustered source is reloaded (setData, a re-cluster of every point) only for large changes.
// The list's filter reaches both sources: the clustered one through PinFilter (pin-filter.ts:
// diffs for a small set; for a large one, which pins of the whole set MapLibre's worker keeps
// are shown), the recent one by leaving out the pins the filter does not show. A reload of
// URL_RELOAD_MIN pins or more is built in slices and handed to MapLibre's worker as a blob: URL
// of every pin (pin-blob.ts, pins-request.ts): no long task on the UI thread.
import type { GeoJSONSource, Map as MapLibreMap } from 'maplibre-gl';
import type { LngLat } from '../../../../src-shared';
import type { CustomerView } from '../../types';
import type { Bounds, CustomerFeatures, PinFeature } from './geojson';
import {
  buildPins,
  buildPinsSliced,
  pinsBlobUrl,
  URL_RELOAD_MIN,
  type BuiltPins,
} from './pin-blob';
import { diffPins, type PinPatch, type PinTable } from './customer-patch';
import type { LazyOverlay } from './lazy-overlay';
import {
  MAP_SOURCE_PATCH_MARK,
  MAP_SOURCE_RELOAD_MARK,
  type SourceMarkDetail,
} from '../drawn-mark';
import {
  CUSTOMER_LAYER,
  CUSTOMER_SOURCE,
  PATCH_LIMIT,
  RECENT_SOURCE,
} from './customer-layer-specs';
import { PinFilter } from './pin-filter';

export {
  CLUSTER_MAX_ZOOM,
  CLUSTER_RADIUS,
  CUSTOMER_LAYER,
  CUSTOMER_SOURCE,
  customerLayerSpecs,
  customerSourceSpec,
  PATCH_LIMIT,
  PENDING_STROKE,
  PIN_FILL_LAYERS,
  RECENT_SOURCE,
  recentLayerSpecs,
} from './customer-layer-specs';

/** 1 for each feature id of the list's customers with a position (null: no filter, every pin). */
function shownBits(
  list: readonly CustomerView[] | null,
  featureIds: ReadonlyMap<string, number>,
  size: number,
): Uint8Array | null {
  if (list === null) return null;
  const bits = new Uint8Array(size);
  for (const c of list) {
    if (c.position === null) continue;
    const fid = featureIds.get(c.id);
    if (fid !== undefined) bits[fid] = 1;
  }
  return bits;
}

/** Keeps the customers' source data, its id table, the patch on top, and the hover/selection state. */
export class CustomerLayer implements PinTable {
  #map: MapLibreMap;
  #recentOverlay: LazyOverlay;
  #data: CustomerFeatures;
  // ids[featureId] = customer id: the clustered source's ids, then those of pins added since.
  #ids: string[];
  // customer id -> feature id (built with the pins, extended by a patch's new pins).
  #featureIds: Map<string, number>;
  // The patch over the clustered source: pins drawn by the recent source, and pins gone.
  #recent = new Map<number, PinFeature>();
  #removed = new Set<number>();
  #last: readonly CustomerView[];
  /** Where `customer` found its last record in `#last` (checked before it is trusted). */
  #found: { id: string; index: number } | null = null;
  #selected: string | null = null;
  #hovered: string | null = null;
  /** The list's filtered set as handed over (null: no filter, every pin). */
  #shownList: readonly CustomerView[] | null = null;
  /** 1 for each feature id the filter shows (null: every one). */
  #shown: Uint8Array | null = null;
  #filter: PinFilter;
  /** What the pins were built or patched from (diffPins skips the records still the same). */
  #drawn: PinTable['drawn'];
  /** Counts reloads: a reload being built in slices stops when a newer one starts. */
  #generation = 0;
  /** A reload is being built: changes wait for it (the next one starts with the latest list). */
  #building = false;
  /** Called after each reload or patch with the pin count before it. */
  #onPins: (before: number) => void;

  constructor(
    map: MapLibreMap,
    built: BuiltPins,
    recentOverlay: LazyOverlay,
    onPins: (before: number) => void = () => {},
  ) {
    this.#map = map;
    this.#recentOverlay = recentOverlay;
    this.#onPins = onPins;
    this.#last = built.customers;
    this.#data = built.data;
    this.#ids = built.data.ids;
    this.#featureIds = built.featureIds;
    this.#drawn = { customers: built.customers, fids: built.fids };
    const data = built.data;
    this.#filter = new PinFilter({
      source: () => this.#map.getSource<GeoJSONSource>(CUSTOMER_SOURCE),
      wanted: (fid) => this.#wanted(fid),
    });
    this.#filter.load(data.collection, null, false);
  }

  /**
   * The list's filtered set (null: no filter): the pins and clusters show exactly its customers
   * with a position. Its unmapped customers are ignored.
   */
  setShown(shown: readonly CustomerView[] | null): void {
    if (shown === this.#shownList) return;
    this.#shownList = shown;
    this.#computeShown();
    this.#filter.update();
    if (this.#recent.size > 0) this.#setRecent();
  }

  /** True while a filter narrows the pins. */
  get filtered(): boolean {
    return this.#shown !== null;
  }

  #computeShown(): void {
    this.#shown = shownBits(this.#shownList, this.#featureIds, this.#ids.length);
  }

  /**
   * Whether the clustered source holds a feature id: every pin of its data, or the shown ones.
   * A pin the recent source replaced stays in it, hidden by feature-state, filter or not, so an
   * edit never re-clusters every pin (a cluster still counts its old copy until the next reload,
   * as without a filter); a pin the filter no longer shows leaves both sources.
   */
  #wanted(fid: number): boolean {
    return this.#shown === null || this.#shown[fid] === 1;
  }

  /** New customers: a patch when few pins differ, else the clustered source's data is replaced. */
  setCustomers(customers: readonly CustomerView[]): void {
    if (customers === this.#last) return;
    this.#last = customers;
    // A reload being built takes the latest list once it is done (a steady stream of changes
    // must not restart it forever); a small list replaces it at once.
    if (this.#building && customers.length >= URL_RELOAD_MIN) return;
    const source = this.#map.getSource<GeoJSONSource>(CUSTOMER_SOURCE);
    const limit = Math.min(PATCH_LIMIT - this.#recent.size, Math.floor(this.#data.ids.length / 50));
    const patch = source && limit > 0 ? diffPins(customers, this, limit) : null;
    if (patch) this.#patch(patch, customers);
    else this.#reload(customers);
  }

  get drawn(): PinTable['drawn'] {
    return this.#drawn;
  }

  /** ids[featureId] = customer id, for every pin drawn now or gone since the last reload. */
  get ids(): readonly string[] {
    return this.#ids;
  }

  /** The pin drawn now for a feature id (the patch over the clustered source); null if gone. */
  current(fid: number): PinFeature | null {
    return (
      this.#recent.get(fid) ??
      (this.#removed.has(fid) ? null : (this.#data.collection.features[fid] ?? null))
    );
  }

  /** Replaces every pin: at once when few, else built in slices and loaded from a URL. */
  #reload(customers: readonly CustomerView[]): void {
    const generation = ++this.#generation;
    this.#building = customers.length >= URL_RELOAD_MIN;
    if (!this.#building) return this.#commit(buildPins(customers), null, null);
    void this.#reloadInSlices(customers, generation);
  }

  async #reloadInSlices(customers: readonly CustomerView[], generation: number): Promise<void> {
    const cancelled = () => generation !== this.#generation;
    const built = await buildPinsSliced(customers, cancelled);
    if (!built) return;
    const shownList = this.#shownList;
    const shown = shownBits(shownList, built.featureIds, built.data.ids.length);
    // Every pin: MapLibre's worker keeps the whole set, and takes which are shown with it.
    const url = await pinsBlobUrl(built.data.collection.features, cancelled);
    if (!url) return;
    // The source exists once the style has loaded.
    while (!this.#map.getSource(CUSTOMER_SOURCE) && !cancelled()) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (cancelled()) return URL.revokeObjectURL(url);
    this.#building = false;
    this.#commit(built, url, { list: shownList, bits: shown });
    // Changes that came while it was built: a patch now (or the next reload).
    const latest = this.#last;
    if (latest !== customers) {
      this.#last = customers;
      this.setCustomers(latest);
    }
  }

  /**
   * A new data version: its table, the filter's held set, the source's data (`url` when every
   * pin was written to one, the `shown` filter's bits computed with it; else the features).
   */
  #commit(
    built: BuiltPins,
    url: string | null,
    shown: { list: readonly CustomerView[] | null; bits: Uint8Array | null } | null,
  ): void {
    const before = this.count;
    this.#data = built.data;
    this.#ids = built.data.ids;
    this.#featureIds = built.featureIds;
    this.#drawn = { customers: built.customers, fids: built.fids };
    const hadPatch = this.#recent.size > 0 || this.#removed.size > 0;
    this.#recent.clear();
    this.#removed.clear();
    if (shown) this.#shown = shown.bits;
    else this.#computeShown();
    const source = this.#map.getSource<GeoJSONSource>(CUSTOMER_SOURCE);
    if (source) {
      // Numeric ids are indices of the new table: old states would land on other customers.
      this.#map.removeFeatureState({ source: CUSTOMER_SOURCE });
      if (hadPatch) this.#setRecent();
    }
    // Loads the source with the shown pins (the filter sends every request to its worker).
    this.#filter.load(this.#data.collection, url, source !== undefined);
    if (source) {
      const detail: SourceMarkDetail = { features: this.#ids.length };
      performance.mark(MAP_SOURCE_RELOAD_MARK, { detail });
      this.#applyState(this.#selected, 'selected', true);
      this.#applyState(this.#hovered, 'hover', true);
    }
    // The filter changed while the pins were built: bring the source to it.
    if (shown && shown.list !== this.#shownList) {
      this.#computeShown();
      this.#filter.update();
    }
    this.#onPins(before);
  }

  #patch(patch: PinPatch, customers: readonly CustomerView[]): void {
    const before = this.count;
    this.#drawn = { customers, fids: patch.fids };
    if (patch.added.length > 0) {
      if (this.#ids === this.#data.ids) this.#ids = [...this.#ids];
      for (const id of patch.added) {
        this.#featureIds.set(id, this.#ids.length);
        this.#ids.push(id);
      }
    }
    const inSource = this.#data.ids.length;
    for (const pin of patch.upserts) {
      const fid = pin.id as number;
      this.#recent.set(fid, pin);
      this.#removed.delete(fid);
      if (fid < inSource) this.#setState(CUSTOMER_SOURCE, fid, { replaced: true });
    }
    for (const fid of patch.removes) {
      this.#recent.delete(fid);
      this.#removed.add(fid);
      if (fid < inSource) this.#setState(CUSTOMER_SOURCE, fid, { replaced: true });
    }
    if (patch.upserts.length + patch.removes.length === 0) return;
    this.#setRecent();
    const detail: SourceMarkDetail = { features: patch.upserts.length + patch.removes.length };
    performance.mark(MAP_SOURCE_PATCH_MARK, { detail });
    this.#applyState(this.#selected, 'selected', true);
    this.#applyState(this.#hovered, 'hover', true);
    this.#onPins(before);
  }

  #setRecent(): void {
    const shown = this.#shown;
    const pins = [...this.#recent.values()];
    const features = shown === null ? pins : pins.filter((p) => shown[p.id as number] === 1);
    this.#recentOverlay.set({ [RECENT_SOURCE]: { type: 'FeatureCollection', features } });
  }

  get bounds(): Bounds | null {
    return this.#data.bounds;
  }

  /** Customers with a pin. */
  get count(): number {
    return this.#ids.length - this.#removed.size;
  }

  /** Customer id of a numeric feature id (undefined for a pin that is gone). */
  customerIdOf(featureId: number): string | undefined {
    return this.#removed.has(featureId) ? undefined : this.#ids[featureId];
  }

  /**
   * Customer id of a pin as a layer drew it; undefined for a pin of the clustered source that
   * is hidden because the recent source draws it now (or because it is gone).
   */
  customerIdAt(layerId: string, featureId: number): string | undefined {
    const hidden =
      layerId === CUSTOMER_LAYER.pins &&
      (this.#recent.has(featureId) || this.#removed.has(featureId));
    return hidden ? undefined : this.customerIdOf(featureId);
  }

  featureIdOf(customerId: string): number | undefined {
    return this.#featureIds.get(customerId);
  }

  /** Position of a mapped customer; undefined when unmapped or unknown. */
  positionOf(customerId: string): LngLat | undefined {
    const fid = this.featureIdOf(customerId);
    const coordinates = fid === undefined ? undefined : this.current(fid)?.geometry.coordinates;
    return coordinates ? [coordinates[0] as number, coordinates[1] as number] : undefined;
  }

  /**
   * The record of a mapped customer. A scan, but for the record found last: the open popup asks
   * for its customer again on every change of the customers (each edit, each pull's delta), and a
   * new data version mostly keeps each record where it was (a scan of 100k is not free).
   */
  customer(customerId: string): CustomerView | undefined {
    if (this.positionOf(customerId) === undefined) return undefined;
    const list = this.#last;
    const hint = this.#found;
    if (hint?.id === customerId && list[hint.index]?.id === customerId) return list[hint.index];
    const index = list.findIndex((c) => c.id === customerId);
    this.#found = index < 0 ? null : { id: customerId, index };
    return list[index];
  }

  setSelected(id: string | null): void {
    if (id === this.#selected) return;
    this.#applyState(this.#selected, 'selected', false);
    this.#selected = id;
    this.#applyState(id, 'selected', true);
  }

  setHovered(id: string | null): void {
    if (id === this.#hovered) return;
    this.#applyState(this.#hovered, 'hover', false);
    this.#hovered = id;
    this.#applyState(id, 'hover', true);
  }

  #applyState(id: string | null, key: 'selected' | 'hover', value: boolean): void {
    if (id === null) return;
    const fid = this.featureIdOf(id);
    if (fid === undefined) return;
    this.#setState(CUSTOMER_SOURCE, fid, { [key]: value });
    if (this.#recent.has(fid)) this.#setState(RECENT_SOURCE, fid, { [key]: value });
  }

  dispose(): void {
    this.#generation++; // a reload being built stops at its next slice
    this.#filter.dispose();
  }

  #setState(source: string, id: number, state: Record<string, boolean>): void {
    if (this.#map.getSource(source)) this.#map.setFeatureState({ source, id }, state);
  }
}
