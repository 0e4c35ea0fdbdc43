// Customers: one clustered GeoJSON source of every pin, plus a small unclustered source of the
// pins changed since it was loaded. Numeric feature ids index one id table shared by both, so
// hover/selection go through feature-state without touching the data. An edit, a logged visit
// or a create patches the small source and hides the old pin (feature-state `replaced`): the
// clustered source is reloaded (setData, a re-cluster of every point) only for large changes.
import type {
  ExpressionSpecification,
  GeoJSONSource,
  GeoJSONSourceSpecification,
  LayerSpecification,
  Map as MapLibreMap,
} from 'maplibre-gl';
import type { LngLat } from '../../../../src-shared';
import type { CustomerView } from '../../types';
import { colorMatchExpression } from '../style/colors';
import { customerFeatures, type Bounds, type CustomerFeatures, type PinFeature } from './geojson';
import { diffPins, type PinPatch, type PinTable } from './customer-patch';
import type { LazyOverlay } from './lazy-overlay';
import {
  MAP_SOURCE_PATCH_MARK,
  MAP_SOURCE_RELOAD_MARK,
  type SourceMarkDetail,
} from '../drawn-mark';
import type { LabelOptions } from '../style/map-style';

export const CUSTOMER_SOURCE = 'fm-customers';
/** The pins changed since the clustered source was loaded (unclustered, drawn on top). */
export const RECENT_SOURCE = 'fm-customers-recent';
export const CUSTOMER_LAYER = {
  clusters: 'fm-customers-clusters',
  clusterCounts: 'fm-customers-cluster-counts',
  pins: 'fm-customers-pins',
  names: 'fm-customers-names',
  recentPins: 'fm-customers-recent-pins',
  recentNames: 'fm-customers-recent-names',
} as const;

/**
 * Most pins a patch changes before the clustered source is reloaded instead; a patch is also
 * refused when it would change more than 1 in 50 of the pins (small maps reload: it is cheap).
 */
export const PATCH_LIMIT = 1000;

/** Above this zoom every pin is drawn on its own. */
export const CLUSTER_MAX_ZOOM = 14;
export const CLUSTER_RADIUS = 50;

/** Stroke of a customer with queued local changes. */
export const PENDING_STROKE = '#ff6a00';

/** Source spec of the customers, clustered. */
export function customerSourceSpec(
  data: CustomerFeatures['collection'],
): GeoJSONSourceSpecification {
  return {
    type: 'geojson',
    data,
    cluster: true,
    clusterMaxZoom: CLUSTER_MAX_ZOOM,
    clusterRadius: CLUSTER_RADIUS,
  };
}

const selected: ExpressionSpecification = ['boolean', ['feature-state', 'selected'], false];
const hovered: ExpressionSpecification = ['boolean', ['feature-state', 'hover'], false];
/** 0 for a pin of the clustered source that the recent source now draws (or that is gone). */
const shownUnlessReplaced: ExpressionSpecification = [
  'case',
  ['boolean', ['feature-state', 'replaced'], false],
  0,
  1,
];
const pending: ExpressionSpecification = ['boolean', ['get', 'pending'], false];

function pinPaint() {
  return {
    'circle-color': colorMatchExpression('color'),
    'circle-radius': ['case', selected, 9, hovered, 8, 6] as ExpressionSpecification,
    'circle-stroke-color': [
      'case',
      selected,
      '#111111',
      pending,
      PENDING_STROKE,
      '#ffffff',
    ] as ExpressionSpecification,
    'circle-stroke-width': ['case', selected, 3, pending, 2.5, 1.5] as ExpressionSpecification,
  };
}

function nameLayout(font: string[]) {
  return {
    'text-field': ['get', 'name'] as ExpressionSpecification,
    'text-font': font,
    'text-size': 12,
    'text-offset': [0, 1.2] as [number, number],
    'text-anchor': 'top' as const,
    'text-optional': true,
  };
}

const namePaint = { 'text-color': '#20242a', 'text-halo-color': '#ffffff', 'text-halo-width': 1.2 };

/** The recent source's layers (added once a patch first has something to draw). */
export function recentLayerSpecs(labels: LabelOptions): LayerSpecification[] {
  const layers: LayerSpecification[] = [
    { id: CUSTOMER_LAYER.recentPins, type: 'circle', source: RECENT_SOURCE, paint: pinPaint() },
  ];
  if (labels) {
    layers.push({
      id: CUSTOMER_LAYER.recentNames,
      type: 'symbol',
      source: RECENT_SOURCE,
      minzoom: 15,
      layout: nameLayout(labels.font),
      paint: namePaint,
    });
  }
  return layers;
}

/** The customers' layers: cluster circles sized by count, pins by color, labels when glyphs exist. */
export function customerLayerSpecs(labels: LabelOptions): LayerSpecification[] {
  const layers: LayerSpecification[] = [
    {
      id: CUSTOMER_LAYER.clusters,
      type: 'circle',
      source: CUSTOMER_SOURCE,
      filter: ['has', 'point_count'],
      paint: {
        'circle-color': '#3b6ea8',
        'circle-opacity': 0.85,
        'circle-stroke-color': '#ffffff',
        'circle-stroke-width': 2,
        'circle-radius': ['step', ['get', 'point_count'], 14, 100, 18, 1000, 24, 10000, 30],
      },
    },
    {
      id: CUSTOMER_LAYER.pins,
      type: 'circle',
      source: CUSTOMER_SOURCE,
      filter: ['!', ['has', 'point_count']],
      paint: {
        ...pinPaint(),
        'circle-opacity': shownUnlessReplaced,
        'circle-stroke-opacity': shownUnlessReplaced,
      },
    },
  ];
  if (labels) {
    layers.push(
      {
        id: CUSTOMER_LAYER.clusterCounts,
        type: 'symbol',
        source: CUSTOMER_SOURCE,
        filter: ['has', 'point_count'],
        layout: {
          'text-field': ['get', 'point_count_abbreviated'],
          'text-font': labels.font,
          'text-size': 12,
          'text-allow-overlap': true,
        },
        paint: { 'text-color': '#ffffff' },
      },
      {
        id: CUSTOMER_LAYER.names,
        type: 'symbol',
        source: CUSTOMER_SOURCE,
        filter: ['!', ['has', 'point_count']],
        minzoom: 15,
        layout: nameLayout(labels.font),
        paint: { ...namePaint, 'text-opacity': shownUnlessReplaced },
      },
    );
  }
  return layers;
}

/** Keeps the customers' source data, its id table, the patch on top, and the hover/selection state. */
export class CustomerLayer implements PinTable {
  #map: MapLibreMap;
  #recentOverlay: LazyOverlay;
  #data: CustomerFeatures;
  // ids[featureId] = customer id: the clustered source's ids, then those of pins added since.
  #ids: string[];
  // customer id -> feature id, built on first lookup: mounting 100k pins never waits for it.
  #featureIds: Map<string, number> | null = null;
  // The patch over the clustered source: pins drawn by the recent source, and pins gone.
  #recent = new Map<number, PinFeature>();
  #removed = new Set<number>();
  #last: readonly CustomerView[];
  #selected: string | null = null;
  #hovered: string | null = null;

  constructor(
    map: MapLibreMap,
    customers: readonly CustomerView[],
    recentOverlay: LazyOverlay,
    data = customerFeatures(customers),
  ) {
    this.#map = map;
    this.#recentOverlay = recentOverlay;
    this.#last = customers;
    this.#data = data;
    this.#ids = data.ids;
  }

  /** New customers: a patch when few pins differ, else the clustered source's data is replaced. */
  setCustomers(customers: readonly CustomerView[]): void {
    if (customers === this.#last) return;
    this.#last = customers;
    const source = this.#map.getSource<GeoJSONSource>(CUSTOMER_SOURCE);
    const limit = Math.min(PATCH_LIMIT - this.#recent.size, Math.floor(this.#data.ids.length / 50));
    const patch = source && limit > 0 ? diffPins(customers, this, limit) : null;
    if (patch) this.#patch(patch);
    else this.#reload(customers, source);
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

  #reload(customers: readonly CustomerView[], source: GeoJSONSource | undefined): void {
    this.#data = customerFeatures(customers);
    this.#ids = this.#data.ids;
    this.#featureIds = null;
    const hadPatch = this.#recent.size > 0 || this.#removed.size > 0;
    this.#recent.clear();
    this.#removed.clear();
    if (!source) return;
    // Numeric ids are indices of the new table: old states would land on other customers.
    this.#map.removeFeatureState({ source: CUSTOMER_SOURCE });
    if (hadPatch) this.#setRecent();
    void source.setData(this.#data.collection);
    const detail: SourceMarkDetail = { features: this.#ids.length };
    performance.mark(MAP_SOURCE_RELOAD_MARK, { detail });
    this.#applyState(this.#selected, 'selected', true);
    this.#applyState(this.#hovered, 'hover', true);
  }

  #patch(patch: PinPatch): void {
    if (patch.added.length > 0) {
      if (this.#ids === this.#data.ids) this.#ids = [...this.#ids];
      for (const id of patch.added) {
        this.#featureIds?.set(id, this.#ids.length);
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
  }

  #setRecent(): void {
    this.#recentOverlay.set({
      [RECENT_SOURCE]: { type: 'FeatureCollection', features: [...this.#recent.values()] },
    });
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
    if (!this.#featureIds) {
      const ids = this.#ids;
      this.#featureIds = new Map();
      for (let i = 0; i < ids.length; i++) this.#featureIds.set(ids[i] as string, i);
    }
    return this.#featureIds.get(customerId);
  }

  /** Position of a mapped customer; undefined when unmapped or unknown. */
  positionOf(customerId: string): LngLat | undefined {
    const fid = this.featureIdOf(customerId);
    const coordinates = fid === undefined ? undefined : this.current(fid)?.geometry.coordinates;
    return coordinates ? [coordinates[0] as number, coordinates[1] as number] : undefined;
  }

  /** The record of a mapped customer (a scan: only used on click or selection). */
  customer(customerId: string): CustomerView | undefined {
    if (this.positionOf(customerId) === undefined) return undefined;
    return this.#last.find((c) => c.id === customerId);
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

  #setState(source: string, id: number, state: Record<string, boolean>): void {
    if (this.#map.getSource(source)) this.#map.setFeatureState({ source, id }, state);
  }
}
