// Routes: lines through their points in the order given, with numbered stops (numbers
// need glyphs; without them the stops are small circles).
import type { LayerSpecification } from 'maplibre-gl';
import type { Route } from '../../../../src-shared';
import { boundsOf, pointsOf, routeFeatures, type Bounds } from './geojson';
import type { LazyOverlay, OverlayData } from './lazy-overlay';
import type { LabelOptions } from '../style/map-style';

export const ROUTE_SOURCE = 'fm-routes';
export const ROUTE_STOP_SOURCE = 'fm-routes-stops';
export const ROUTE_LAYER = {
  lines: 'fm-routes-lines',
  stops: 'fm-routes-stops',
  stopNumbers: 'fm-routes-stop-numbers',
} as const;

/** The routes' source data: lines and numbered stops. */
export function routeData(routes: readonly Route[]): OverlayData {
  const { lines, stops } = routeFeatures(routes);
  return { [ROUTE_SOURCE]: lines, [ROUTE_STOP_SOURCE]: stops };
}

export function routeLayerSpecs(labels: LabelOptions): LayerSpecification[] {
  const layers: LayerSpecification[] = [
    {
      id: ROUTE_LAYER.lines,
      type: 'line',
      source: ROUTE_SOURCE,
      layout: { 'line-join': 'round', 'line-cap': 'round' },
      paint: { 'line-color': '#e0431b', 'line-width': 3, 'line-opacity': 0.85 },
    },
    {
      id: ROUTE_LAYER.stops,
      type: 'circle',
      source: ROUTE_STOP_SOURCE,
      paint: {
        'circle-color': '#ffffff',
        'circle-radius': labels ? 8 : 4,
        'circle-stroke-color': '#e0431b',
        'circle-stroke-width': 2,
      },
    },
  ];
  if (labels) {
    layers.push({
      id: ROUTE_LAYER.stopNumbers,
      type: 'symbol',
      source: ROUTE_STOP_SOURCE,
      layout: {
        'text-field': ['to-string', ['get', 'stop']],
        'text-font': labels.font,
        'text-size': 11,
        'text-allow-overlap': true,
      },
      paint: { 'text-color': '#a02a0c' },
    });
  }
  return layers;
}

export class RouteLayer {
  #routes: readonly Route[];
  #overlay: LazyOverlay;

  constructor(routes: readonly Route[], overlay: LazyOverlay) {
    this.#routes = routes;
    this.#overlay = overlay;
  }

  setRoutes(routes: readonly Route[]): void {
    if (routes === this.#routes) return;
    this.#routes = routes;
    this.#overlay.set(routeData(routes));
  }

  boundsOf(id: string): Bounds | null {
    const r = this.#routes.find((x) => x.id === id);
    return r ? boundsOf(pointsOf(r)) : null;
  }
}
