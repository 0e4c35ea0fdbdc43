// Browser side of the basemap tests: the real MapLibre map with buildBaseStyle and one pin layer
// on top (as MapView draws customers), and pixel probes that read the rendered canvas.
import 'maplibre-gl/dist/maplibre-gl.css';
import { Map as MapLibreMap, type StyleSpecification } from 'maplibre-gl';
import {
  applyRegions,
  buildBaseStyle,
  loadOnlineStyle,
  type BasemapTheme,
  type OnlineBase,
  type RegionSource,
} from '../../../src-renderer/src/map/style/basemap-style';
import { useBundledWorker } from '../../../src-renderer/src/map/maplibre-worker';

type Rgb = [number, number, number];

let map: MapLibreMap | null = null;
let theme: BasemapTheme = 'light';
const assetBase = new URL('./', document.baseURI).href;

function idle(m: MapLibreMap): Promise<void> {
  return new Promise((resolve) => {
    if (m.loaded() && m.areTilesLoaded() && !m.isMoving()) {
      m.once('idle', () => resolve());
      m.triggerRepaint();
    } else m.once('idle', () => resolve());
  });
}

function current(): MapLibreMap {
  if (!map) throw new Error('no map');
  return map;
}

/** The drawn frame, copied inside MapLibre's render event while the WebGL buffer is valid. */
function snapshot(m: MapLibreMap): Promise<ImageData> {
  return new Promise((resolve) => {
    m.once('render', () => {
      const canvas = m.getCanvas();
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.canvas.width = canvas.width;
      ctx.canvas.height = canvas.height;
      ctx.drawImage(canvas, 0, 0);
      resolve(ctx.getImageData(0, 0, canvas.width, canvas.height));
    });
    m.triggerRepaint();
  });
}

function withPin(base: StyleSpecification, pin: [number, number] | null): StyleSpecification {
  if (!pin) return base;
  return {
    ...base,
    sources: {
      ...base.sources,
      pins: { type: 'geojson', data: { type: 'Point', coordinates: pin } },
    },
    layers: [
      ...base.layers,
      {
        id: 'pins',
        type: 'circle',
        source: 'pins',
        paint: { 'circle-radius': 8, 'circle-color': '#e6194b' },
      },
    ],
  };
}

const api = {
  async show(options: {
    center: [number, number];
    zoom: number;
    theme?: BasemapTheme;
    regions?: RegionSource[];
    onlineStyleUrl?: string;
    pin?: [number, number];
  }): Promise<string[]> {
    map?.remove();
    theme = options.theme ?? 'light';
    let online: OnlineBase | null = null;
    if (options.onlineStyleUrl) online = await loadOnlineStyle(options.onlineStyleUrl, assetBase);
    useBundledWorker();
    const errors: string[] = [];
    map = new MapLibreMap({
      container: 'map',
      style: withPin(
        buildBaseStyle({ theme, regions: options.regions ?? [], online, assetBase }),
        options.pin ?? null,
      ),
      center: options.center,
      zoom: options.zoom,
      fadeDuration: 0,
      attributionControl: { compact: false },
    });
    map.on('error', (e) => errors.push(String(e.error?.message ?? e)));
    await idle(map);
    return errors;
  },

  async setRegions(regions: RegionSource[]): Promise<void> {
    if (!map) throw new Error('no map');
    applyRegions(map, regions, theme, assetBase);
    await idle(map);
  },

  /** The rendered colour at a geographic point (the canvas is 512 css px at device ratio 1). */
  async colorAt(lng: number, lat: number): Promise<Rgb> {
    return (await api.colorsAround(lng, lat, 0))[0]!;
  },

  /** Every pixel colour in a square of `radius` px around a point. */
  async colorsAround(lng: number, lat: number, radius: number): Promise<Rgb[]> {
    const m = current();
    const p = m.project([lng, lat]);
    const x0 = Math.round(p.x) - radius;
    const y0 = Math.round(p.y) - radius;
    const size = radius * 2 + 1;
    const frame = await snapshot(m);
    if (x0 < 0 || y0 < 0 || x0 + size > frame.width || y0 + size > frame.height) {
      throw new Error(`point ${lng},${lat} is outside the view`);
    }
    const out: Rgb[] = [];
    for (let y = y0; y < y0 + size; y++) {
      for (let x = x0; x < x0 + size; x++) {
        const i = (y * frame.width + x) * 4;
        out.push([frame.data[i]!, frame.data[i + 1]!, frame.data[i + 2]!]);
      }
    }
    return out;
  },

  /** Pixel colours along the vertical line at `lng` from `latFrom` to `latTo`. */
  async column(lng: number, latFrom: number, latTo: number): Promise<Rgb[]> {
    const m = current();
    const a = m.project([lng, latFrom]);
    const b = m.project([lng, latTo]);
    const frame = await snapshot(m);
    const out: Rgb[] = [];
    const x = Math.round(a.x);
    if (x < 0 || x >= frame.width || Math.min(a.y, b.y) < 0 || Math.max(a.y, b.y) >= frame.height) {
      throw new Error(`column at ${lng} is outside the view`);
    }
    for (let y = Math.round(Math.min(a.y, b.y)); y <= Math.round(Math.max(a.y, b.y)); y++) {
      const i = (y * frame.width + x) * 4;
      out.push([frame.data[i]!, frame.data[i + 1]!, frame.data[i + 2]!]);
    }
    return out;
  },

  attribution(): string {
    return document.querySelector('.maplibregl-ctrl-attrib-inner')?.textContent ?? '';
  },

  /** Names of the street labels drawn from region sources (Protomaps roads label layers). */
  renderedRoadLabels(): string[] {
    const m = current();
    const layers = m
      .getStyle()
      .layers.filter((l) => l.id.startsWith('region-') && l.id.includes('roads_labels'))
      .map((l) => l.id);
    return m.queryRenderedFeatures({ layers }).map((f) => String(f.properties['name']));
  },

  renderedPlaceNames(): string[] {
    if (!map) return [];
    return map
      .queryRenderedFeatures({
        layers: map
          .getStyle()
          .layers.filter((l) => l.id.startsWith('basemap-label'))
          .map((l) => l.id),
      })
      .map((f) => String(f.properties['name']));
  },
};

(globalThis as unknown as { basemapTest: typeof api }).basemapTest = api;
document.documentElement.dataset['ready'] = '';
