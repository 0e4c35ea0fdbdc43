// Test fixtures: vector tiles cut from GeoJSON with @maplibre/geojson-vt and encoded with
// @maplibre/vt-pbf, for a PMTiles region archive and for the online style's tile server.
import { GeoJSONVT } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import type { FeatureCollection } from 'geojson';
import { writePmtilesArchive, type PmtilesTile } from '../../scripts/basemap/pmtiles-writer';

export type Bounds = [number, number, number, number];

/** The column of the tile at zoom z holding a longitude. */
export const lonToX = (lon: number, z: number): number =>
  Math.min(2 ** z - 1, Math.floor(((lon + 180) / 360) * 2 ** z));
/** The row of the tile at zoom z holding a latitude (web mercator). */
export function latToY(lat: number, z: number): number {
  const r = (lat * Math.PI) / 180;
  const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * 2 ** z);
  return Math.min(2 ** z - 1, y);
}

function tileRange(bounds: Bounds, z: number): { x0: number; x1: number; y0: number; y1: number } {
  const [w, s, e, n] = bounds;
  return { x0: lonToX(w, z), x1: lonToX(e, z), y0: latToY(n, z), y1: latToY(s, z) };
}

/** Every non-empty tile of `layers` inside `bounds` for zooms minZoom..maxZoom. */
export function cutTiles(
  layers: Record<string, FeatureCollection>,
  bounds: Bounds,
  minZoom: number,
  maxZoom: number,
): PmtilesTile[] {
  const indexes = Object.entries(layers).map(
    ([name, data]) =>
      [name, new GeoJSONVT(data, { maxZoom, indexMaxZoom: maxZoom, buffer: 64 })] as const,
  );
  const tiles: PmtilesTile[] = [];
  for (let z = minZoom; z <= maxZoom; z++) {
    const { x0, x1, y0, y1 } = tileRange(bounds, z);
    for (let x = x0; x <= x1; x++) {
      for (let y = y0; y <= y1; y++) {
        const parts: Record<string, NonNullable<ReturnType<GeoJSONVT['getTile']>>> = {};
        for (const [name, index] of indexes) {
          const tile = index.getTile(z, x, y);
          if (tile && tile.features.length > 0) parts[name] = tile;
        }
        if (Object.keys(parts).length === 0) continue;
        tiles.push({ z, x, y, data: fromGeojsonVt(parts, { version: 2, extent: 4096 }) });
      }
    }
  }
  return tiles;
}

export const square = (
  w: number,
  s: number,
  e: number,
  n: number,
): FeatureCollection['features'][number]['geometry'] => ({
  type: 'Polygon',
  coordinates: [
    [
      [w, s],
      [e, s],
      [e, n],
      [w, n],
      [w, s],
    ],
  ],
});

/** The region fixture: a lake and a highway in Kansas, in the Protomaps basemap schema. */
export const REGION_BOUNDS: Bounds = [-99, 37.5, -97, 39.5];
export const LAKE_CENTER: [number, number] = [-98, 38.5];

export function regionArchive(): Uint8Array {
  const layers: Record<string, FeatureCollection> = {
    earth: {
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: { kind: 'earth' }, geometry: square(...REGION_BOUNDS) },
      ],
    },
    water: {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: { kind: 'lake' },
          geometry: square(-98.4, 38.2, -97.6, 38.8),
        },
      ],
    },
    roads: {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          properties: { kind: 'highway', name: 'Fixture Highway' },
          geometry: {
            type: 'LineString',
            coordinates: [
              [-99, 39.2],
              [-97, 39.2],
            ],
          },
        },
      ],
    },
  };
  return writePmtilesArchive({
    tiles: cutTiles(layers, REGION_BOUNDS, 0, 10),
    bounds: REGION_BOUNDS,
    metadata: {
      name: 'fixture',
      vector_layers: [{ id: 'earth' }, { id: 'water' }, { id: 'roads' }],
    },
  });
}

/** The online style's data: one red square near Denver, in a layer named `areas`. */
export const ONLINE_SQUARE_CENTER: [number, number] = [-105, 40];

export function onlineTiles(maxZoom: number): PmtilesTile[] {
  const areas: FeatureCollection = {
    type: 'FeatureCollection',
    features: [{ type: 'Feature', properties: {}, geometry: square(-106, 39.3, -104, 40.7) }],
  };
  return cutTiles({ areas }, [-106, 39.3, -104, 40.7], 0, maxZoom);
}
