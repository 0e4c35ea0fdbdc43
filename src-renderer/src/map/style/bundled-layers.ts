// The bundled world layer: Natural Earth land and borders, US state borders and place labels,
// all GeoJSON files shipped under public/basemap, so it draws with no network at all.
import type { LayerSpecification, SourceSpecification } from 'maplibre-gl';
import { BUNDLED_ATTRIBUTION } from './attribution';
import { FONT_BOLD, FONT_REGULAR, type BasemapPalette } from './palette';

export const BASEMAP_SOURCE = {
  land: 'basemap-land',
  countryBorders: 'basemap-country-borders',
  stateBorders: 'basemap-state-borders',
  places: 'basemap-places',
} as const;

export const BASEMAP_LAYER = {
  water: 'basemap-water',
  land: 'basemap-land',
  coastline: 'basemap-coastline',
  countryBorders: 'basemap-country-borders',
  stateBorders: 'basemap-state-borders',
  stateLabels: 'basemap-label-state',
  countryLabels: 'basemap-label-country',
  cityLabels: 'basemap-label-city',
} as const;

/** Region and online layers go just below this one: labels stay on top of every base layer. */
export const FIRST_LABEL_LAYER = BASEMAP_LAYER.stateLabels;

export function bundledSources(assetBase: string): Record<string, SourceSpecification> {
  const file = (name: string) => `${assetBase}basemap/${name}.geojson`;
  return {
    [BASEMAP_SOURCE.land]: {
      type: 'geojson',
      data: file('land'),
      attribution: BUNDLED_ATTRIBUTION,
    },
    [BASEMAP_SOURCE.countryBorders]: { type: 'geojson', data: file('country-borders') },
    [BASEMAP_SOURCE.stateBorders]: { type: 'geojson', data: file('state-borders') },
    [BASEMAP_SOURCE.places]: { type: 'geojson', data: file('places') },
  };
}

/** Fills and lines: everything of the bundled layer that is not a label. */
export function bundledGroundLayers(p: BasemapPalette): LayerSpecification[] {
  return [
    { id: BASEMAP_LAYER.water, type: 'background', paint: { 'background-color': p.water } },
    {
      id: BASEMAP_LAYER.land,
      type: 'fill',
      source: BASEMAP_SOURCE.land,
      paint: { 'fill-color': p.land, 'fill-antialias': false },
    },
    {
      id: BASEMAP_LAYER.coastline,
      type: 'line',
      source: BASEMAP_SOURCE.land,
      paint: {
        'line-color': p.coastline,
        'line-width': ['interpolate', ['linear'], ['zoom'], 0, 0.4, 6, 0.8, 10, 1.2],
      },
    },
    {
      id: BASEMAP_LAYER.stateBorders,
      type: 'line',
      source: BASEMAP_SOURCE.stateBorders,
      minzoom: 2.5,
      paint: {
        'line-color': p.stateBorder,
        'line-width': ['interpolate', ['linear'], ['zoom'], 3, 0.5, 8, 1.2],
        'line-dasharray': [3, 2],
      },
    },
    {
      id: BASEMAP_LAYER.countryBorders,
      type: 'line',
      source: BASEMAP_SOURCE.countryBorders,
      layout: { 'line-join': 'round' },
      paint: {
        'line-color': p.countryBorder,
        'line-width': ['interpolate', ['linear'], ['zoom'], 0, 0.5, 5, 1.1, 10, 2],
      },
    },
  ];
}

/** Cities of rank 1 show from world zoom, rank 2 from continent zoom, rank 3 from country zoom. */
const CITY_RANK_MIN_ZOOM = [1.5, 3.5, 5];

/** Countries by size: large from world zoom, medium from continent zoom, small from country zoom. */
const COUNTRY_RANK_MIN_ZOOM = [0, 2.5, 4];

const textSize = (small: number, large: number): unknown[] => [
  'interpolate',
  ['linear'],
  ['zoom'],
  2,
  small,
  10,
  large,
];

/** Labels: US states from zoom 4, countries up to zoom 7, cities by rank. */
export function bundledLabelLayers(p: BasemapPalette): LayerSpecification[] {
  const paint = { 'text-halo-color': p.labelHalo, 'text-halo-width': 1.4, 'text-halo-blur': 0.5 };
  return [
    {
      id: BASEMAP_LAYER.stateLabels,
      type: 'symbol',
      source: BASEMAP_SOURCE.places,
      minzoom: 4,
      filter: ['==', ['get', 'kind'], 'state'],
      layout: {
        'text-field': ['get', 'name'],
        'text-font': [FONT_REGULAR],
        'text-size': textSize(10, 14) as never,
        'text-transform': 'uppercase',
        'text-letter-spacing': 0.08,
        'text-max-width': 8,
      },
      paint: { ...paint, 'text-color': p.countryLabel },
    },
    ...COUNTRY_RANK_MIN_ZOOM.map((minzoom, i): LayerSpecification => ({
      id: `${BASEMAP_LAYER.countryLabels}-${i + 1}`,
      type: 'symbol',
      source: BASEMAP_SOURCE.places,
      minzoom,
      maxzoom: 7,
      filter: ['all', ['==', ['get', 'kind'], 'country'], ['==', ['get', 'rank'], i + 1]],
      layout: {
        'text-field': ['get', 'name'],
        'text-font': [FONT_BOLD],
        'text-size': textSize(10, 16) as never,
        'text-max-width': 7,
      },
      paint: { ...paint, 'text-color': p.countryLabel },
    })),
    ...CITY_RANK_MIN_ZOOM.map((minzoom, i): LayerSpecification => ({
      id: `${BASEMAP_LAYER.cityLabels}-${i + 1}`,
      type: 'symbol',
      source: BASEMAP_SOURCE.places,
      minzoom,
      filter: ['all', ['==', ['get', 'kind'], 'city'], ['==', ['get', 'rank'], i + 1]],
      layout: {
        'text-field': ['get', 'name'],
        'text-font': [FONT_REGULAR],
        'text-size': textSize(10, 16) as never,
      },
      paint: { ...paint, 'text-color': p.placeLabel },
    })),
  ];
}
