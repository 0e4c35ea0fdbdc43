// A week plan on the map: each day a line from the start through its stops to the end, in the
// day's own colour, with its stops numbered in visiting order (numbers need glyphs; without
// them the stops are small circles). Drawn above everything else while the plan is open.
import type {
  FilterSpecification,
  GeoJSONSource,
  LayerSpecification,
  Map as MapLibreMap,
} from 'maplibre-gl';
import type { FeatureCollection } from 'geojson';
import type { LngLat } from '../../../../src-shared';
import { labelOptionsOf } from '../style/map-style';

export const WEEK_PLAN_SOURCE = { lines: 'fm-week-plan-lines', stops: 'fm-week-plan-stops' };
/** The layers' ids by kind; each kind has a layer per day colour (`${id}-${slot}`). */
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

/**
 * The plan's layers, one of each kind per day colour: MapLibre keys its GL programs by which
 * paint properties are data-driven, and a program's first draw links it, a synchronous wait of
 * the UI thread on the GPU process (long under software GL). A colour read from each feature
 * made programs no other layer uses, linked in the frames that showed a plan: its longest tasks.
 * In these forms the plan draws with programs the map linked at its first frames: its lines in
 * the form of the basemap's coastline and borders (all constant), its stops in the form of the
 * customers' cluster circles (only the radius data-driven), its numbers in the form of the
 * cluster counts and place labels (all constant). week-plan.suite.ts checks none is linked.
 */
function layerSpecs(font: string[] | null): LayerSpecification[] {
  const radius = font ? 9 : 5;
  const of = (color: string) => ['==', ['get', 'color'], color] as FilterSpecification;
  const lines = DAY_COLORS.map((color, i): LayerSpecification => ({
    id: `${LAYER.lines}-${i}`,
    type: 'line',
    source: WEEK_PLAN_SOURCE.lines,
    filter: of(color),
    layout: { 'line-join': 'round', 'line-cap': 'round' },
    paint: { 'line-color': color, 'line-width': 4, 'line-opacity': 0.85 },
  }));
  const stops = DAY_COLORS.map((color, i): LayerSpecification => ({
    id: `${LAYER.stops}-${i}`,
    type: 'circle',
    source: WEEK_PLAN_SOURCE.stops,
    filter: of(color),
    paint: {
      'circle-color': '#ffffff',
      // A data expression (no stop has a radius of its own): the clusters' program's form.
      'circle-radius': ['coalesce', ['get', 'radius'], radius],
      'circle-stroke-color': color,
      'circle-stroke-width': 3,
    },
  }));
  const numbers = font
    ? DAY_COLORS.map((color, i): LayerSpecification => ({
        id: `${LAYER.numbers}-${i}`,
        type: 'symbol',
        source: WEEK_PLAN_SOURCE.stops,
        filter: of(color),
        layout: {
          'text-field': ['to-string', ['get', 'stop']],
          'text-font': font,
          'text-size': 11,
          'text-allow-overlap': true,
        },
        paint: { 'text-color': color },
      }))
    : [];
  return [...lines, ...stops, ...numbers];
}

/** The plan's sources and layers on one map; `remove` takes them off again. */
export class WeekPlanLayer {
  #map: MapLibreMap;
  #layers: string[] = [];
  #added = false;

  constructor(map: MapLibreMap) {
    this.#map = map;
  }

  set(days: readonly DrawnDay[]): void {
    const data = weekPlanData(days);
    if (!this.#added) {
      this.#added = true;
      const empty: FeatureCollection = { type: 'FeatureCollection', features: [] };
      for (const id of Object.values(WEEK_PLAN_SOURCE))
        this.#map.addSource(id, { type: 'geojson', data: empty });
      const font = labelOptionsOf(this.#map.getStyle())?.font ?? null;
      for (const layer of layerSpecs(font)) {
        this.#map.addLayer(layer);
        this.#layers.push(layer.id);
      }
    }
    for (const id of Object.values(WEEK_PLAN_SOURCE))
      this.#map.getSource<GeoJSONSource>(id)?.setData(data[id]!);
  }

  remove(): void {
    if (!this.#added) return;
    this.#added = false;
    for (const id of this.#layers) if (this.#map.getLayer(id)) this.#map.removeLayer(id);
    this.#layers = [];
    for (const id of Object.values(WEEK_PLAN_SOURCE))
      if (this.#map.getSource(id)) this.#map.removeSource(id);
  }
}
