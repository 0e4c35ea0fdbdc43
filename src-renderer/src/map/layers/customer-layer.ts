// Customers: one clustered GeoJSON source. Numeric feature ids index the id table of the
// last data set, so hover/selection go through feature-state without touching the data.
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
import { customerFeatures, type Bounds, type CustomerFeatures } from './geojson';
import type { LabelOptions } from '../style/map-style';

export const CUSTOMER_SOURCE = 'fm-customers';
export const CUSTOMER_LAYER = {
  clusters: 'fm-customers-clusters',
  clusterCounts: 'fm-customers-cluster-counts',
  pins: 'fm-customers-pins',
  names: 'fm-customers-names',
} as const;

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
        'circle-color': colorMatchExpression('color'),
        'circle-radius': ['case', selected, 9, hovered, 8, 6],
        'circle-stroke-color': [
          'case',
          selected,
          '#111111',
          ['boolean', ['get', 'pending'], false],
          PENDING_STROKE,
          '#ffffff',
        ],
        'circle-stroke-width': [
          'case',
          selected,
          3,
          ['boolean', ['get', 'pending'], false],
          2.5,
          1.5,
        ],
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
        layout: {
          'text-field': ['get', 'name'],
          'text-font': labels.font,
          'text-size': 12,
          'text-offset': [0, 1.2],
          'text-anchor': 'top',
          'text-optional': true,
        },
        paint: { 'text-color': '#20242a', 'text-halo-color': '#ffffff', 'text-halo-width': 1.2 },
      },
    );
  }
  return layers;
}

/** Keeps the customers' source data, its id table, and the hover/selection feature-state. */
export class CustomerLayer {
  #map: MapLibreMap;
  #data: CustomerFeatures;
  // customer id -> feature id, built on first lookup: mounting 100k pins never waits for it.
  #featureIds: Map<string, number> | null = null;
  #last: readonly CustomerView[];
  #selected: string | null = null;
  #hovered: string | null = null;

  constructor(
    map: MapLibreMap,
    customers: readonly CustomerView[],
    data = customerFeatures(customers),
  ) {
    this.#map = map;
    this.#last = customers;
    this.#data = data;
  }

  /** Replaces the data in place (setData, no new source); feature-state follows the new ids. */
  setCustomers(customers: readonly CustomerView[]): void {
    if (customers === this.#last) return;
    this.#last = customers;
    this.#data = customerFeatures(customers);
    this.#featureIds = null;
    const source = this.#map.getSource<GeoJSONSource>(CUSTOMER_SOURCE);
    if (!source) return;
    // Numeric ids are indices of the new table: old states would land on other customers.
    this.#map.removeFeatureState({ source: CUSTOMER_SOURCE });
    void source.setData(this.#data.collection);
    this.#applyState(this.#selected, 'selected', true);
    this.#applyState(this.#hovered, 'hover', true);
  }

  get bounds(): Bounds | null {
    return this.#data.bounds;
  }

  get count(): number {
    return this.#data.ids.length;
  }

  /** Customer id of a numeric feature id. */
  customerIdOf(featureId: number): string | undefined {
    return this.#data.ids[featureId];
  }

  featureIdOf(customerId: string): number | undefined {
    if (!this.#featureIds) {
      const ids = this.#data.ids;
      this.#featureIds = new Map();
      for (let i = 0; i < ids.length; i++) this.#featureIds.set(ids[i] as string, i);
    }
    return this.#featureIds.get(customerId);
  }

  /** Position of a mapped customer; undefined when unmapped or unknown. */
  positionOf(customerId: string): LngLat | undefined {
    const fid = this.featureIdOf(customerId);
    const coordinates =
      fid === undefined ? undefined : this.#data.collection.features[fid]?.geometry.coordinates;
    return coordinates ? [coordinates[0] as number, coordinates[1] as number] : undefined;
  }

  /** The record of a mapped customer (a scan: only used on click or selection). */
  customer(customerId: string): CustomerView | undefined {
    if (this.featureIdOf(customerId) === undefined) return undefined;
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
    if (fid === undefined || !this.#map.getSource(CUSTOMER_SOURCE)) return;
    this.#map.setFeatureState({ source: CUSTOMER_SOURCE, id: fid }, { [key]: value });
  }
}
