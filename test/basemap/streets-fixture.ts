// A small town in the Protomaps basemap schema (v4 layers: earth, water, landuse, buildings,
// roads with names, places) at zooms 0..15, written with the project's PMTiles writer. Small leaf
// directories make downloads walk leaves as they do on the planet archive.
import type { Feature, FeatureCollection } from 'geojson';
import { writePmtilesArchive } from '../../scripts/basemap/pmtiles-writer';
import { cutTiles, square, type Bounds } from './fixture-tiles';

/** The source archive's extent: a 0.2° square near Wichita, Kansas. */
export const TOWN_BOUNDS: Bounds = [-97.5, 37.6, -97.3, 37.8];
/** The area the tests download: a few blocks inside it. */
export const AREA_BOUNDS: Bounds = [-97.42, 37.68, -97.38, 37.72];
/** A named street crossing the download area at this latitude, and where to look for it. */
export const MAIN_STREET_LAT = 37.7;
export const MAIN_STREET_NAME = 'Main Street';
export const DATA_DATE = '2026-11-01T00:00:00.000Z';

const feature = (properties: Record<string, unknown>, geometry: Feature['geometry']): Feature => ({
  type: 'Feature',
  properties,
  geometry,
});

const box = square;

const line = (coordinates: Array<[number, number]>): Feature['geometry'] => ({
  type: 'LineString',
  coordinates,
});

function townLayers(): Record<string, FeatureCollection> {
  const [w, s, e, n] = TOWN_BOUNDS;
  const roads: Feature[] = [];
  for (let i = 1; i < 20; i++) {
    const lat = s + i * 0.01;
    const lon = w + i * 0.01;
    roads.push(
      feature(
        { kind: 'minor_road', name: `${i} Street` },
        line([
          [w, lat + 0.0033],
          [e, lat + 0.0033],
        ]),
      ),
      feature(
        { kind: 'minor_road', name: `${i} Avenue` },
        line([
          [lon + 0.0047, s],
          [lon + 0.0047, n],
        ]),
      ),
    );
  }
  roads.push(
    feature(
      { kind: 'major_road', name: MAIN_STREET_NAME },
      line([
        [w, MAIN_STREET_LAT],
        [e, MAIN_STREET_LAT],
      ]),
    ),
  );
  const buildings: Feature[] = [];
  for (let i = 0; i < 12; i++) {
    const lon = -97.415 + i * 0.0025;
    buildings.push(feature({ kind: 'building' }, box(lon, 37.703, lon + 0.0012, 37.7042)));
  }
  return {
    earth: { type: 'FeatureCollection', features: [feature({ kind: 'earth' }, box(w, s, e, n))] },
    water: {
      type: 'FeatureCollection',
      features: [feature({ kind: 'lake', name: 'Town Lake' }, box(-97.47, 37.62, -97.44, 37.65))],
    },
    landuse: {
      type: 'FeatureCollection',
      features: [feature({ kind: 'park', name: 'Town Park' }, box(-97.36, 37.74, -97.33, 37.77))],
    },
    buildings: { type: 'FeatureCollection', features: buildings },
    roads: { type: 'FeatureCollection', features: roads },
    places: {
      type: 'FeatureCollection',
      features: [
        feature(
          { kind: 'locality', name: 'Fixtureville', min_zoom: 8, population_rank: 10 },
          { type: 'Point', coordinates: [-97.45, 37.76] },
        ),
      ],
    },
  };
}

let cached: Uint8Array | null = null;

/** The source archive (cached: cutting z0..15 takes a few seconds). */
export function townArchive(): Uint8Array {
  cached ??= writePmtilesArchive({
    tiles: cutTiles(townLayers(), TOWN_BOUNDS, 0, 15),
    bounds: TOWN_BOUNDS,
    leafSize: 64,
    metadata: {
      name: 'Fixture town',
      attribution: '© OpenStreetMap contributors',
      'planetiler:osm:osmosisreplicationtime': DATA_DATE,
      vector_layers: ['earth', 'water', 'landuse', 'buildings', 'roads', 'places'].map((id) => ({
        id,
      })),
    },
  });
  return cached;
}

/** A copy of `archive` with header bytes changed (clustered flag at 96, tile type at 99). */
export function patchHeader(archive: Uint8Array, changes: Record<number, number>): Uint8Array {
  const copy = Uint8Array.from(archive);
  for (const [at, value] of Object.entries(changes)) copy[Number(at)] = value;
  return copy;
}
