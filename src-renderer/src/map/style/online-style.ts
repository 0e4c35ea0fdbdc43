// An optional online style (settings), drawn over the bundled layer when its tiles are available.
// Every request of it (style JSON, TileJSON, tiles) goes through main's disk cache at
// <app origin>/tiles?url=<remote url>: the renderer's CSP stays connect-src 'self', and what was
// seen online is served from the cache offline.
import type { LayerSpecification, SourceSpecification, StyleSpecification } from 'maplibre-gl';
import { FONT_BOLD, FONT_REGULAR } from './palette';

export interface OnlineBase {
  sources: Record<string, SourceSpecification>;
  layers: LayerSpecification[];
}

const SOURCE_PREFIX = 'online-';

/** The app-origin URL that asks main for `remote` (through its cache). `{z}`-style placeholders stay. */
export function cachedUrl(remote: string, assetBase: string): string {
  const encoded = encodeURIComponent(remote).replace(/%7B([a-z]+)%7D/gi, '{$1}');
  return `${assetBase}tiles?url=${encoded}`;
}

type Fetch = (url: string) => Promise<Response>;

async function fetchJson(url: string, fetcher: Fetch): Promise<unknown> {
  const response = await fetcher(url);
  if (!response.ok) throw new Error(`online style: ${response.status} for a style resource`);
  return response.json();
}

type TileJson = {
  tiles?: string[];
  minzoom?: number;
  maxzoom?: number;
  bounds?: number[];
  attribution?: string;
};

function fontOf(name: unknown): string {
  return typeof name === 'string' && /bold|medium|semibold|heavy|black/i.test(name)
    ? FONT_BOLD
    : FONT_REGULAR;
}

/** Fetches the style (and its TileJSONs) through main and rewrites it to run on cached URLs. */
export async function loadOnlineStyle(
  styleUrl: string,
  assetBase: string,
  fetcher: Fetch = (u) => fetch(u),
): Promise<OnlineBase> {
  const style = (await fetchJson(cachedUrl(styleUrl, assetBase), fetcher)) as StyleSpecification;
  if (!style || typeof style !== 'object' || !Array.isArray(style.layers)) {
    throw new Error('online style: not a MapLibre style');
  }
  const sources: Record<string, SourceSpecification> = {};
  for (const [id, raw] of Object.entries(style.sources ?? {})) {
    const source = { ...raw } as SourceSpecification & { url?: string; tiles?: string[] };
    if (source.type !== 'vector' && source.type !== 'raster' && source.type !== 'raster-dem')
      continue;
    if (typeof source.url === 'string') {
      const tileJsonUrl = new URL(source.url, styleUrl).href;
      const tileJson = (await fetchJson(cachedUrl(tileJsonUrl, assetBase), fetcher)) as TileJson;
      delete source.url;
      source.tiles = (tileJson.tiles ?? []).map((t) => new URL(t, tileJsonUrl).href);
      if (tileJson.minzoom !== undefined) source.minzoom = tileJson.minzoom;
      if (tileJson.maxzoom !== undefined) source.maxzoom = tileJson.maxzoom;
      if (tileJson.attribution && !source.attribution) source.attribution = tileJson.attribution;
    } else {
      source.tiles = (source.tiles ?? []).map((t) => new URL(t, styleUrl).href);
    }
    // A placeholder survives new URL() only percent-encoded; put the braces back first.
    source.tiles = source.tiles.map((t) =>
      cachedUrl(t.replace(/%7B([a-z]+)%7D/gi, '{$1}'), assetBase),
    );
    sources[`${SOURCE_PREFIX}${id}`] = source;
  }
  const layers: LayerSpecification[] = [];
  for (const layer of style.layers) {
    if (layer.type === 'background') continue; // the bundled water shows where no tile is cached
    if (!('source' in layer) || !sources[`${SOURCE_PREFIX}${layer.source}`]) continue;
    const copy = {
      ...layer,
      id: `online:${layer.id}`,
      source: `${SOURCE_PREFIX}${layer.source}`,
    } as LayerSpecification;
    if (copy.type === 'symbol' && copy.layout) {
      const { 'icon-image': _icon, ...layout } = copy.layout;
      const font = Array.isArray(layout['text-font']) ? layout['text-font'][0] : undefined;
      copy.layout = { ...layout, 'text-font': [fontOf(font)] };
    }
    layers.push(copy);
  }
  return { sources, layers };
}
