// A week plan on the map: each day a line from the start through its stops to the end, in the
// day's own colour, with its stops numbered in visiting order (numbers need glyphs; without
// them the stops are small circles). Drawn above everything else while the plan is open.
import type { GeoJSONSource, LayerSpecification, Map as MapLibreMap } from 'maplibre-gl';
import type { FeatureCollection } from 'geojson';
import type { LngLat } from '../../../../src-shared';
import { labelOptionsOf } from '../style/map-style';

export const WEEK_PLAN_SOURCE = { lines: 'fm-week-plan-lines', stops: 'fm-week-plan-stops' };
const LAYER = {
  lines: 'fm-week-plan-lines',
  stops: 'fm-week-plan-stops',
  numbers: 'fm-week-plan-numbers',
} as const;

/** Distinct colours for the days (colour-blind-friendly first), repeated after eight days. */
export const DAY_COLORS = [
  '#0072b2',
  '#d55e00',
  '#009e73',
  '#cc79a7',
  '#e69f00',
  '#56b4e9',
  '#7b3294',
  '#6b4e16',
];

export const dayColor = (day: number): string => DAY_COLORS[day % DAY_COLORS.length]!;

export interface DrawnDay {
  day: number;
  start: LngLat;
  end: LngLat;
  stops: LngLat[];
}

export function weekPlanData(days: readonly DrawnDay[]): Record<string, FeatureCollection> {
  const drawn = days.filter((d) => d.stops.length > 0);
  return {
    [WEEK_PLAN_SOURCE.lines]: {
      type: 'FeatureCollection',
      features: drawn.map((d) => ({
        type: 'Feature',
        properties: { day: d.day, color: dayColor(d.day) },
        geometry: { type: 'LineString', coordinates: [d.start, ...d.stops, d.end] },
      })),
    },
    [WEEK_PLAN_SOURCE.stops]: {
      type: 'FeatureCollection',
      features: drawn.flatMap((d) =>
        d.stops.map((position, i) => ({
          type: 'Feature' as const,
          properties: { day: d.day, color: dayColor(d.day), stop: i + 1 },
          geometry: { type: 'Point' as const, coordinates: position },
        })),
      ),
    },
  };
}

function layerSpecs(font: string[] | null): LayerSpecification[] {
  const color = ['get', 'color'] as unknown as string;
  const layers: LayerSpecification[] = [
    {
      id: LAYER.lines,
      type: 'line',
      source: WEEK_PLAN_SOURCE.lines,
      layout: { 'line-join': 'round', 'line-cap': 'round' },
      paint: { 'line-color': color, 'line-width': 4, 'line-opacity': 0.85 },
    },
    {
      id: LAYER.stops,
      type: 'circle',
      source: WEEK_PLAN_SOURCE.stops,
      paint: {
        'circle-color': '#ffffff',
        'circle-radius': font ? 9 : 5,
        'circle-stroke-color': color,
        'circle-stroke-width': 3,
      },
    },
  ];
  if (font) {
    layers.push({
      id: LAYER.numbers,
      type: 'symbol',
      source: WEEK_PLAN_SOURCE.stops,
      layout: {
        'text-field': ['to-string', ['get', 'stop']],
        'text-font': font,
        'text-size': 11,
        'text-allow-overlap': true,
      },
      paint: { 'text-color': color },
    });
  }
  return layers;
}

/** The plan's sources and layers on one map; `remove` takes them off again. */
export class WeekPlanLayer {
  #map: MapLibreMap;
  #added = false;

  constructor(map: MapLibreMap) {
    this.#map = map;
  }

  set(days: readonly DrawnDay[]): void {
    const data = weekPlanData(days);
    if (this.#added) {
      for (const [id, fc] of Object.entries(data))
        void this.#map.getSource<GeoJSONSource>(id)?.setData(fc);
      return;
    }
    this.#added = true;
    for (const [id, fc] of Object.entries(data))
      this.#map.addSource(id, { type: 'geojson', data: fc });
    const font = labelOptionsOf(this.#map.getStyle())?.font ?? null;
    for (const layer of layerSpecs(font)) this.#map.addLayer(layer);
  }

  remove(): void {
    if (!this.#added) return;
    this.#added = false;
    for (const id of Object.values(LAYER)) if (this.#map.getLayer(id)) this.#map.removeLayer(id);
    for (const id of Object.values(WEEK_PLAN_SOURCE))
      if (this.#map.getSource(id)) this.#map.removeSource(id);
  }
}
