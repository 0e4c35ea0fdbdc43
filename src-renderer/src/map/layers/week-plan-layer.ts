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
        // Shown once the stops' circles are drawn (WeekPlanLayer.set).
        visibility: 'none',
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

/** Calls `run` in a task of its own once a frame has drawn `source`'s data; returns a cancel. */
function afterDrawn(map: MapLibreMap, source: string, run: () => void): () => void {
  let task: ReturnType<typeof setTimeout> | undefined;
  const onRender = () => {
    if (!map.getSource(source) || !map.isSourceLoaded(source)) return;
    map.off('render', onRender);
    task = setTimeout(run, 0);
  };
  map.on('render', onRender);
  map.triggerRepaint();
  return () => {
    map.off('render', onRender);
    clearTimeout(task);
  };
}

/** Maps whose plan layers have all drawn once: their programs stay linked, plans go at once. */
const linked = new WeakSet<MapLibreMap>();

/**
 * The plan's sources and layers on one map; `remove` takes them off again. The first plan drawn
 * comes a layer kind per frame (lines, then stops, then their numbers): each kind's first draw
 * links a GL program, a synchronous wait of the UI thread on the GPU process (long under
 * software GL), and the three in one frame were the longest task of showing a plan.
 */
export class WeekPlanLayer {
  #map: MapLibreMap;
  #added = false;
  #cancelStage: (() => void) | null = null;

  constructor(map: MapLibreMap) {
    this.#map = map;
  }

  /** `atOnce`: every layer's data now, unstaged (a day sheet's map is read once it is idle). */
  set(days: readonly DrawnDay[], options: { atOnce?: boolean } = {}): void {
    this.#cancelStage?.();
    this.#cancelStage = null;
    const data = weekPlanData(days);
    if (!this.#added) {
      this.#added = true;
      const empty: FeatureCollection = { type: 'FeatureCollection', features: [] };
      for (const id of Object.values(WEEK_PLAN_SOURCE))
        this.#map.addSource(id, { type: 'geojson', data: empty });
      const font = labelOptionsOf(this.#map.getStyle())?.font ?? null;
      for (const layer of layerSpecs(font)) this.#map.addLayer(layer);
    }
    const setData = (id: string) => void this.#map.getSource<GeoJSONSource>(id)?.setData(data[id]!);
    const showNumbers = () => {
      if (this.#map.getLayer(LAYER.numbers))
        this.#map.setLayoutProperty(LAYER.numbers, 'visibility', 'visible');
    };
    setData(WEEK_PLAN_SOURCE.lines);
    const stops = data[WEEK_PLAN_SOURCE.stops]!.features.length;
    if (linked.has(this.#map) || options.atOnce || stops === 0) {
      setData(WEEK_PLAN_SOURCE.stops);
      if (stops > 0) showNumbers();
      return;
    }
    const stage = (source: string, next: () => void) => {
      this.#cancelStage = afterDrawn(this.#map, source, () => {
        this.#cancelStage = null;
        next();
      });
    };
    stage(WEEK_PLAN_SOURCE.lines, () => {
      setData(WEEK_PLAN_SOURCE.stops);
      stage(WEEK_PLAN_SOURCE.stops, () => {
        showNumbers();
        stage(WEEK_PLAN_SOURCE.stops, () => linked.add(this.#map));
      });
    });
  }

  remove(): void {
    this.#cancelStage?.();
    this.#cancelStage = null;
    if (!this.#added) return;
    this.#added = false;
    for (const id of Object.values(LAYER)) if (this.#map.getLayer(id)) this.#map.removeLayer(id);
    for (const id of Object.values(WEEK_PLAN_SOURCE))
      if (this.#map.getSource(id)) this.#map.removeSource(id);
  }
}
