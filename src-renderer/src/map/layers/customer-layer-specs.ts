// The customers' sources and layers as MapLibre specs: the clustered source of every pin, its
// cluster circles and counts, single pins and names, and the unclustered source of recently
// changed pins on top. Pins are filled by the colour-by mode (style/colour-by.ts).
import type {
  ExpressionSpecification,
  GeoJSONSourceSpecification,
  LayerSpecification,
} from 'maplibre-gl';
import { colourByExpression, type ColourBy } from '../style/colour-by';
import type { LabelOptions } from '../style/map-style';
import type { CustomerFeatures } from './geojson';

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

/** The layers whose fill follows the colour-by mode. */
export const PIN_FILL_LAYERS = [CUSTOMER_LAYER.pins, CUSTOMER_LAYER.recentPins] as const;

/** The pins' paint, in both sources: hidden where the recent source now draws the pin. */
function pinPaint(mode: ColourBy) {
  return {
    'circle-color': colourByExpression(mode),
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
    'circle-opacity': shownUnlessReplaced,
    'circle-stroke-opacity': shownUnlessReplaced,
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

/** The names' paint, in both sources: hidden where the recent source now draws the pin. */
const namePaint = {
  'text-color': '#20242a',
  'text-halo-color': '#ffffff',
  'text-halo-width': 1.2,
  'text-opacity': shownUnlessReplaced,
};

/**
 * The recent source's layers (added once a patch first has something to draw). Their paint has
 * the very form of the clustered source's pins and names, `replaced` opacity included (never
 * set on a recent pin, so always 1): MapLibre keys its GL programs by which properties are
 * data-driven, so the same form reuses the programs those layers already linked, and the first
 * edit after a sync links none (edit-one-pin.test.ts counts them). With a constant opacity the
 * recent pins had a program of their own, linked in the frame of the first edit: a synchronous
 * wait of the UI thread on the GPU process, short when it is idle, long while software GL is
 * still drawing earlier frames.
 */
export function recentLayerSpecs(
  labels: LabelOptions,
  mode: ColourBy = 'color',
): LayerSpecification[] {
  const layers: LayerSpecification[] = [
    {
      id: CUSTOMER_LAYER.recentPins,
      type: 'circle',
      source: RECENT_SOURCE,
      paint: pinPaint(mode),
    },
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
export function customerLayerSpecs(
  labels: LabelOptions,
  mode: ColourBy = 'color',
): LayerSpecification[] {
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
      paint: pinPaint(mode),
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
        paint: namePaint,
      },
    );
  }
  return layers;
}
