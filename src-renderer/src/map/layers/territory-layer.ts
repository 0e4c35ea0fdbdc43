// Territories: translucent fills with outlines, and their names at a label point inside.
import type { LayerSpecification } from 'maplibre-gl';
import type { Territory } from '../../../../src-shared';
import {
  boundsOf,
  pointsOf,
  territoryFeatures,
  territoryLabelPoints,
  type Bounds,
} from './geojson';
import type { LazyOverlay, OverlayData } from './lazy-overlay';
import type { LabelOptions } from '../style/map-style';

export const TERRITORY_SOURCE = 'fm-territories';
export const TERRITORY_LABEL_SOURCE = 'fm-territories-labelpoints';
export const TERRITORY_LAYER = {
  fill: 'fm-territories-fill',
  outline: 'fm-territories-outline',
  names: 'fm-territories-names',
} as const;

/** The territories' source data: polygons and their label points. */
export function territoryData(territories: readonly Territory[]): OverlayData {
  const polygons = territoryFeatures(territories);
  return { [TERRITORY_SOURCE]: polygons, [TERRITORY_LABEL_SOURCE]: territoryLabelPoints(polygons) };
}

export function territoryLayerSpecs(labels: LabelOptions): LayerSpecification[] {
  const layers: LayerSpecification[] = [
    {
      id: TERRITORY_LAYER.fill,
      type: 'fill',
      source: TERRITORY_SOURCE,
      paint: { 'fill-color': '#6a5acd', 'fill-opacity': 0.15 },
    },
    {
      id: TERRITORY_LAYER.outline,
      type: 'line',
      source: TERRITORY_SOURCE,
      paint: { 'line-color': '#5346b0', 'line-width': 2 },
    },
  ];
  if (labels) {
    layers.push({
      id: TERRITORY_LAYER.names,
      type: 'symbol',
      source: TERRITORY_LABEL_SOURCE,
      layout: { 'text-field': ['get', 'name'], 'text-font': labels.font, 'text-size': 13 },
      paint: { 'text-color': '#3d338a', 'text-halo-color': '#ffffff', 'text-halo-width': 1.5 },
    });
  }
  return layers;
}

export class TerritoryLayer {
  #territories: readonly Territory[];
  #overlay: LazyOverlay;

  constructor(territories: readonly Territory[], overlay: LazyOverlay) {
    this.#territories = territories;
    this.#overlay = overlay;
  }

  setTerritories(territories: readonly Territory[]): void {
    if (territories === this.#territories) return;
    this.#territories = territories;
    this.#overlay.set(territoryData(territories));
  }

  boundsOf(id: string): Bounds | null {
    const t = this.#territories.find((x) => x.id === id);
    return t ? boundsOf(pointsOf(t)) : null;
  }
}
