// The GL programs of the layers a map will draw once its data comes, linked in its first frames,
// while it has nothing of its own to draw (a first sync's download) and the GPU process little
// else to do.
//
// Why: MapLibre links a layer's program the first time it draws the layer, and each link is a
// synchronous wait of the UI thread on the GPU process (under software GL, a long one while that
// process is busy). A map made before the first sync's data drew its clusters, pins and
// territories, and the base layers of the data's zoom, for the first time in one frame, and
// linking all of their programs there made that frame the sync's longest task. Programs are
// keyed by which paint properties are data-driven, not by their values (as recentLayerSpecs
// relies on), so a copy of a layer whose colours are all transparent, of the same form, links
// the very program the layer will use. The copies draw one small polygon at the centre of the
// first view from a source of their own and are taken out once the map is first idle: nothing
// is seen, and no layer the app queries holds them. (Linked one copy per frame later on, each
// frame waited on a busy GPU process as long as the map's whole first frame.)
import type { LayerSpecification, Map as MapLibreMap, SourceSpecification } from 'maplibre-gl';

/** The source of the copies (present only while they are drawn). */
export const WARM_SOURCE = 'fm-warm';
/** Prefix of a copy's layer id. */
export const WARM_PREFIX = 'fm-warm:';
/** Performance mark once every copy was drawn and removed (tests wait for it). */
export const MAP_WARM_MARK = 'fieldmap:map-programs-warm';

const CLEAR = 'rgba(0,0,0,0)';
/** Expression operators that read a feature: a paint value using one is data-driven. */
const DATA_OPS = new Set(['get', 'has', 'feature-state', 'properties', 'id', 'geometry-type']);

function uses(value: unknown, ops: ReadonlySet<string>): boolean {
  if (!Array.isArray(value)) return false;
  if (typeof value[0] === 'string' && ops.has(value[0])) return true;
  return value.some((v) => uses(v, ops));
}

/**
 * Transparent, as a paint value of the same form as `value`: a constant for a constant or zoom
 * expression (a uniform either way), an expression reading the feature for a data-driven one.
 */
function clear(value: unknown): unknown {
  if (!uses(value, DATA_OPS)) return CLEAR;
  const data = ['case', ['has', 'fm-warm'], CLEAR, CLEAR];
  if (!uses(value, new Set(['zoom']))) return data;
  return ['interpolate', ['linear'], ['zoom'], 0, data, 24, data];
}

/** The colour properties a layer type draws with (an unset one is opaque black). */
const COLOURS: Record<string, readonly string[]> = {
  circle: ['circle-color', 'circle-stroke-color'],
  fill: ['fill-color'],
  line: ['line-color'],
};

/**
 * Transparent copies of the circle, fill and line layers among `specs`, one per program form,
 * drawing from WARM_SOURCE. Symbols are left out (their glyph program is the basemap's labels'),
 * and so are patterns and gradients (not drawn by a colour).
 */
export function warmSpecs(specs: readonly LayerSpecification[]): LayerSpecification[] {
  const out: LayerSpecification[] = [];
  const forms = new Set<string>();
  for (const spec of specs) {
    const colours = COLOURS[spec.type];
    if (!colours || !('paint' in spec)) continue;
    const paint: Record<string, unknown> = { ...(spec.paint ?? {}) };
    if (Object.keys(paint).some((k) => k.endsWith('-pattern') || k === 'line-gradient')) continue;
    for (const k of Object.keys(paint)) if (k.endsWith('-color')) paint[k] = clear(paint[k]);
    for (const k of colours) paint[k] ??= CLEAR;
    // Every other paint property of the type is a uniform: the data-driven ones make the form,
    // with what picks another program (a fill's outline, a dashed line's).
    const form = [
      spec.type,
      paint['fill-antialias'] === false ? 'no-outline' : '',
      'line-dasharray' in paint ? 'dashed' : '',
      ...Object.keys(paint)
        .filter((k) => uses(paint[k], DATA_OPS))
        .sort(),
    ].join(' ');
    if (forms.has(form)) continue;
    forms.add(form);
    const layout: Record<string, unknown> = { ...(('layout' in spec && spec.layout) || {}) };
    delete layout['visibility'];
    out.push({
      id: `${WARM_PREFIX}${spec.id}`,
      type: spec.type,
      source: WARM_SOURCE,
      layout,
      paint,
    } as LayerSpecification);
  }
  return out;
}

/**
 * The copies and their source, to go into a map's initial style: drawn in its first frames, with
 * its own programs, then taken out once the map is first idle (or at `stop`).
 */
export class ProgramWarmup {
  readonly layers: LayerSpecification[];
  readonly source: SourceSpecification;
  #map: MapLibreMap | null = null;
  #stopped = false;

  /** `center`: the initial view's centre, where the copies draw. */
  constructor(specs: readonly LayerSpecification[], center: [number, number]) {
    this.layers = warmSpecs(specs);
    const [lng, lat] = center;
    const d = 0.5;
    const south = Math.max(-80, lat - d);
    const north = Math.min(80, lat + d);
    const ring = [
      [lng - d, south],
      [lng + d, south],
      [lng + d, north],
      [lng - d, north],
      [lng - d, south],
    ];
    this.source = {
      type: 'geojson',
      data: {
        type: 'Feature',
        // The clusters' radius reads a count: without one each copy would warn of a null.
        properties: { point_count: 1 },
        geometry: { type: 'Polygon', coordinates: [ring] },
      },
    };
  }

  /** The map made with the copies in its style: they go once it is first idle. */
  attach(map: MapLibreMap): void {
    this.#map = map;
    map.once('idle', this.#done);
  }

  #done = (): void => {
    if (this.#stopped) return;
    this.stop();
    performance.mark(MAP_WARM_MARK);
  };

  /** Takes every copy and the source out; nothing more is drawn. */
  stop(): void {
    const map = this.#map;
    if (this.#stopped || !map) return;
    this.#stopped = true;
    map.off('idle', this.#done);
    for (const layer of this.layers) if (map.getLayer(layer.id)) map.removeLayer(layer.id);
    if (map.getSource(WARM_SOURCE)) map.removeSource(WARM_SOURCE);
  }
}
