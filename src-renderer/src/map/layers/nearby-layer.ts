// Nearby on the map while its panel is open: the search circle (a translucent disc with its
// edge), its centre as a dot, and a ring around each result pin, drawn above the customers. The source joins the map
// with the first search (LazyOverlay); closing the panel empties it.
import type { FilterSpecification, LayerSpecification } from 'maplibre-gl';
import type { Feature, FeatureCollection } from 'geojson';
import type { LngLat } from '../../../../src-shared';
import { circleRing } from '../../../../src-shared/nearby';
import type { LazyOverlay, OverlayData } from './lazy-overlay';
import type { Bounds } from './geojson';

export const NEARBY_SOURCE = 'fm-nearby';
export const NEARBY_LAYER = {
  area: 'fm-nearby-area',
  edge: 'fm-nearby-edge',
  center: 'fm-nearby-center',
  pins: 'fm-nearby-pins',
} as const;

/** What the map highlights: the circle searched and the customers found in it. */
export interface NearbyHighlight {
  center: LngLat;
  radiusMeters: number;
  points: readonly LngLat[];
}

const COLOR = '#0b6bcb';

export function nearbyLayerSpecs(): LayerSpecification[] {
  const polygon: FilterSpecification = ['==', ['geometry-type'], 'Polygon'];
  return [
    {
      id: NEARBY_LAYER.area,
      type: 'fill',
      source: NEARBY_SOURCE,
      filter: polygon,
      paint: { 'fill-color': COLOR, 'fill-opacity': 0.08 },
    },
    {
      id: NEARBY_LAYER.edge,
      type: 'line',
      source: NEARBY_SOURCE,
      filter: polygon,
      paint: { 'line-color': COLOR, 'line-width': 2, 'line-dasharray': [3, 2] },
    },
    {
      id: NEARBY_LAYER.center,
      type: 'circle',
      source: NEARBY_SOURCE,
      filter: ['==', ['get', 'role'], 'center'],
      paint: {
        'circle-radius': 5,
        'circle-color': COLOR,
        'circle-stroke-color': '#ffffff',
        'circle-stroke-width': 2,
      },
    },
    {
      id: NEARBY_LAYER.pins,
      type: 'circle',
      source: NEARBY_SOURCE,
      filter: ['==', ['get', 'role'], 'hit'],
      paint: {
        // Small rings while the pins are crowded (zoomed out), a pin's size once they spread.
        'circle-radius': ['interpolate', ['linear'], ['zoom'], 6, 3, 12, 9],
        'circle-color': 'rgba(0,0,0,0)',
        'circle-stroke-color': COLOR,
        'circle-stroke-width': ['interpolate', ['linear'], ['zoom'], 6, 1, 12, 2.5],
      },
    },
  ];
}

export function nearbyData(highlight: NearbyHighlight | null): OverlayData {
  const features: Feature[] = [];
  if (highlight) {
    features.push({
      type: 'Feature',
      properties: { role: 'circle' },
      geometry: {
        type: 'Polygon',
        coordinates: [circleRing(highlight.center, highlight.radiusMeters)],
      },
    });
    const point = (role: string, at: LngLat): Feature => ({
      type: 'Feature',
      properties: { role },
      geometry: { type: 'Point', coordinates: at },
    });
    features.push(point('center', highlight.center));
    for (const p of highlight.points) features.push(point('hit', p));
  }
  const collection: FeatureCollection = { type: 'FeatureCollection', features };
  return { [NEARBY_SOURCE]: collection };
}

export class NearbyLayer {
  #overlay: LazyOverlay;
  #key: string | null = null;

  constructor(overlay: LazyOverlay) {
    this.#overlay = overlay;
  }

  /**
   * Draws (or clears) the highlight. Returns the circle's bounds when the circle is new (another
   * centre or radius), so the map can show all of it; null otherwise.
   */
  set(highlight: NearbyHighlight | null): Bounds | null {
    this.#overlay.set(nearbyData(highlight));
    const key = highlight ? `${highlight.center.join(',')}@${highlight.radiusMeters}` : null;
    if (key === this.#key || !highlight) {
      this.#key = key;
      return null;
    }
    this.#key = key;
    const ring = circleRing(highlight.center, highlight.radiusMeters);
    const lngs = ring.map((p) => p[0]);
    const lats = ring.map((p) => p[1]);
    return [Math.min(...lngs), Math.min(...lats), Math.max(...lngs), Math.max(...lats)];
  }
}
