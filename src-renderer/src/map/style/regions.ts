// Regional detail from PMTiles archives (Protomaps basemap schema), read by range requests through
// the pmtiles protocol from the app's own origin (main serves regions/<id>.pmtiles), drawn with
// the @protomaps/basemaps layers between the bundled ground layers and the bundled labels.
import { layers as protomapsLayers, namedFlavor } from '@protomaps/basemaps';
import { addProtocol, type LayerSpecification, type Map as MapLibreMap } from 'maplibre-gl';
import type { SourceSpecification } from 'maplibre-gl';
import { Protocol } from 'pmtiles';
import { REGION_ATTRIBUTION } from './attribution';
import { FIRST_LABEL_LAYER } from './bundled-layers';
import { FONT_BOLD, FONT_REGULAR, type BasemapTheme } from './palette';

/** A PMTiles archive to draw: `url` is absolute or relative to the app's origin. */
export interface RegionSource {
  id: string;
  url: string;
  attribution?: string;
}

const PREFIX = 'region-';

let protocol: Protocol | null = null;

/** Registers the pmtiles:// protocol once per page (before the first map uses a region). */
export function registerPmtilesProtocol(): void {
  if (protocol) return;
  protocol = new Protocol();
  addProtocol('pmtiles', protocol.tile);
}

export function regionSourceId(id: string): string {
  return `${PREFIX}${id}`;
}

/** Protomaps layers name Noto fonts; only the bundled DejaVu glyphs exist offline. */
const FONT_MAP: Record<string, string> = {
  'Noto Sans Regular': FONT_REGULAR,
  'Noto Sans Italic': FONT_REGULAR,
  'Noto Sans Medium': FONT_BOLD,
};

function mapFonts(value: unknown): unknown {
  if (typeof value === 'string') return FONT_MAP[value] ?? value;
  if (Array.isArray(value)) return value.map(mapFonts);
  return value;
}

/** Layers that need the Protomaps sprite (icons only) are left out: no sprite is bundled. */
const ICON_ONLY_LAYERS = new Set(['pois', 'roads_oneway', 'roads_shields']);

function resolveUrl(url: string, assetBase: string): string {
  return new URL(url, assetBase).href;
}

export function regionSpecs(
  region: RegionSource,
  theme: BasemapTheme,
  assetBase: string,
): { sources: Record<string, SourceSpecification>; layers: LayerSpecification[] } {
  const source = regionSourceId(region.id);
  const layers = protomapsLayers(source, namedFlavor(theme), { lang: 'en' })
    .filter((l) => l.type !== 'background' && !ICON_ONLY_LAYERS.has(l.id))
    .map((l) => {
      const copy = { ...l, id: `${source}:${l.id}` } as LayerSpecification;
      if (copy.type === 'symbol' && copy.layout) {
        const { 'icon-image': _icon, ...layout } = copy.layout;
        copy.layout = { ...layout, 'text-font': mapFonts(layout['text-font']) as never };
      }
      return copy;
    });
  return {
    sources: {
      [source]: {
        type: 'vector',
        url: `pmtiles://${resolveUrl(region.url, assetBase)}`,
        attribution: region.attribution ?? REGION_ATTRIBUTION,
      },
    },
    layers,
  };
}

/** Replaces the map's region sources and layers with `regions` (in order, first drawn lowest). */
export function applyRegions(
  map: MapLibreMap,
  regions: readonly RegionSource[],
  theme: BasemapTheme,
  assetBase: string,
): void {
  registerPmtilesProtocol();
  const style = map.getStyle();
  for (const layer of style.layers) {
    if ('source' in layer && typeof layer.source === 'string' && layer.source.startsWith(PREFIX)) {
      map.removeLayer(layer.id);
    }
  }
  for (const id of Object.keys(style.sources)) {
    if (id.startsWith(PREFIX)) map.removeSource(id);
  }
  const before = map.getLayer(FIRST_LABEL_LAYER) ? FIRST_LABEL_LAYER : undefined;
  for (const region of regions) {
    const specs = regionSpecs(region, theme, assetBase);
    for (const [id, spec] of Object.entries(specs.sources)) map.addSource(id, spec);
    for (const layer of specs.layers) map.addLayer(layer, before);
  }
}
