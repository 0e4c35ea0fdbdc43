// Converts the public-domain Natural Earth (world-atlas) and US Census (us-atlas) TopoJSON of the
// installed packages into the small GeoJSON files of the bundled basemap. Deterministic: the same
// packages give byte-identical files.
import { createRequire } from 'node:module';
import type {
  Feature,
  FeatureCollection,
  Geometry,
  MultiLineString,
  MultiPolygon,
  Point,
  Polygon,
  Position,
} from 'geojson';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { CITIES } from '../../src-service/cities';
import { WORLD_CITIES } from './world-cities';

const require = createRequire(import.meta.url);

type Named = { name?: string };
type NamedTopology = Topology<{ [name: string]: GeometryCollection<Named> }>;

function topology(path: string): NamedTopology {
  return require(path) as NamedTopology;
}

/** ~110 m at the equator: finer than the 1:50m and 1:10m sources, and a third of the bytes. */
const DIGITS = 3;
const round = (n: number): number => Number(n.toFixed(DIGITS));

/**
 * The TopoJSON is spherical: a ring crossing the antimeridian jumps from 180 to -180. MapLibre is
 * planar, so such a ring is unwrapped into one continuous run of longitudes (MapLibre draws the
 * part past 180 on the other side), and a ring around a pole (Antarctica) is closed over the pole.
 */
function unwrap(line: Position[]): { line: Position[]; net: number } {
  const out: Position[] = [];
  let shift = 0;
  for (let i = 0; i < line.length; i++) {
    const [lon, lat] = line[i] as [number, number];
    if (i > 0) {
      const d = lon + shift - out[i - 1]![0]!;
      if (d > 180) shift -= 360;
      else if (d < -180) shift += 360;
    }
    out.push([lon + shift, lat]);
  }
  return { line: out, net: shift };
}

function planarRings(polygon: Position[][]): Position[][] {
  const rings: Position[][] = [];
  polygon.forEach((ring, i) => {
    const { line, net } = unwrap(ring);
    if (net === 0) return void rings.push(line);
    if (i > 0) return; // the pole-side ring of a polar polygon: the outer ring is closed below
    const pole = Math.min(...line.map((p) => p[1]!)) < 0 ? -90 : 90;
    const first = line[0]!;
    const last = line[line.length - 1]!;
    rings.push([...line, [last[0]!, pole], [first[0]!, pole], first]);
  });
  return rings;
}

function planar(geometry: Geometry): Geometry {
  switch (geometry.type) {
    case 'LineString':
      return { type: 'LineString', coordinates: unwrap(geometry.coordinates).line };
    case 'MultiLineString':
      return {
        type: 'MultiLineString',
        coordinates: geometry.coordinates.map((l) => unwrap(l).line),
      };
    case 'Polygon':
      return { type: 'Polygon', coordinates: planarRings(geometry.coordinates) };
    case 'MultiPolygon':
      return { type: 'MultiPolygon', coordinates: geometry.coordinates.map(planarRings) };
    default:
      return geometry;
  }
}

function roundPositions(geometry: Geometry): Geometry {
  const r = (p: Position): Position => [round(p[0]!), round(p[1]!)];
  switch (geometry.type) {
    case 'Point':
      return { type: 'Point', coordinates: r(geometry.coordinates) };
    case 'LineString':
      return { type: 'LineString', coordinates: dedupe(geometry.coordinates.map(r)) };
    case 'MultiLineString':
      return {
        type: 'MultiLineString',
        coordinates: geometry.coordinates.map((l) => dedupe(l.map(r))).filter((l) => l.length > 1),
      };
    case 'Polygon':
      return { type: 'Polygon', coordinates: geometry.coordinates.map((l) => dedupe(l.map(r))) };
    case 'MultiPolygon':
      return {
        type: 'MultiPolygon',
        coordinates: geometry.coordinates.map((p) => p.map((l) => dedupe(l.map(r)))),
      };
    default:
      return geometry;
  }
}

/** Drops consecutive duplicates that rounding created. */
function dedupe(line: Position[]): Position[] {
  return line.filter((p, i) => i === 0 || p[0] !== line[i - 1]![0] || p[1] !== line[i - 1]![1]);
}

function collection<G extends Geometry>(
  features: Array<Feature<G, Record<string, unknown>>>,
): FeatureCollection<G, Record<string, unknown>> {
  return { type: 'FeatureCollection', features };
}

/** Area-weighted centroid of the largest ring (a label point inside most shapes) and that ring's area in deg². */
function labelPoint(geometry: Polygon | MultiPolygon): { point: Position; area: number } {
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  let best: Position = [0, 0];
  let bestArea = -1;
  for (const polygon of polygons) {
    const ring = polygon[0]!;
    let a = 0;
    let cx = 0;
    let cy = 0;
    for (let i = 0; i < ring.length - 1; i++) {
      const [x0, y0] = ring[i] as [number, number];
      const [x1, y1] = ring[i + 1] as [number, number];
      const cross = x0 * y1 - x1 * y0;
      a += cross;
      cx += (x0 + x1) * cross;
      cy += (y0 + y1) * cross;
    }
    if (Math.abs(a) > bestArea && a !== 0) {
      bestArea = Math.abs(a);
      const lon = cx / (3 * a);
      best = [round(((((lon + 180) % 360) + 360) % 360) - 180), round(cy / (3 * a))];
    }
  }
  return { point: best, area: bestArea / 2 };
}

export interface BasemapData {
  /** Land polygons (Natural Earth 1:50m); water is the map background. */
  land: FeatureCollection;
  /** Borders between countries (Natural Earth 1:50m), coastlines excluded. */
  countryBorders: FeatureCollection;
  /** Borders between US states (US Census 1:10m via us-atlas), coastlines and the national border excluded. */
  stateBorders: FeatureCollection;
  /** Label points: countries, US states and cities, with `kind`, `name` and `rank`. */
  places: FeatureCollection;
}

export function buildBasemapData(): BasemapData {
  const land50 = topology('world-atlas/land-50m.json');
  const countries50 = topology('world-atlas/countries-50m.json');
  const states10 = topology('us-atlas/states-10m.json');

  const landCollection = feature(land50, land50.objects.land!) as FeatureCollection;
  const land = collection(
    landCollection.features.map((f) => ({
      type: 'Feature' as const,
      properties: {},
      geometry: roundPositions(planar(f.geometry)),
    })),
  );

  const countryObject = countries50.objects.countries!;
  const countryLines = mesh(countries50, countryObject, (a, b) => a !== b) as MultiLineString;
  const countryBorders = collection([
    { type: 'Feature', properties: {}, geometry: roundPositions(planar(countryLines)) },
  ]);

  const stateObject = states10.objects.states!;
  const stateLines = mesh(states10, stateObject, (a, b) => a !== b) as MultiLineString;
  const stateBorders = collection([
    { type: 'Feature', properties: {}, geometry: roundPositions(planar(stateLines)) },
  ]);

  const places: Array<Feature<Point, Record<string, unknown>>> = [];
  const countries = feature(countries50, countryObject) as FeatureCollection<Geometry, Named>;
  for (const f of countries.features) {
    const name = f.properties?.name;
    if (!name || (f.geometry.type !== 'Polygon' && f.geometry.type !== 'MultiPolygon')) continue;
    const { point, area } = labelPoint(planar(f.geometry) as Polygon | MultiPolygon);
    places.push(place('country', name, point, area >= 60 ? 1 : area >= 4 ? 2 : 3));
  }
  const states = feature(states10, stateObject) as FeatureCollection<Geometry, Named>;
  for (const f of states.features) {
    const name = f.properties?.name;
    if (!name || (f.geometry.type !== 'Polygon' && f.geometry.type !== 'MultiPolygon')) continue;
    places.push(
      place('state', name, labelPoint(planar(f.geometry) as Polygon | MultiPolygon).point, 2),
    );
  }
  const seen = new Set<string>();
  for (const [name, lat, lon, rank] of WORLD_CITIES) {
    seen.add(name);
    places.push(place('city', name, [lon, lat], rank));
  }
  for (const [name, , , lat, lon, , , weight] of CITIES) {
    if (seen.has(name)) continue;
    seen.add(name);
    places.push(
      place('city', name, [round(lon), round(lat)], weight >= 8 ? 1 : weight >= 4 ? 2 : 3),
    );
  }
  places.sort((a, b) => String(a.properties.name).localeCompare(String(b.properties.name), 'en'));
  return { land, countryBorders, stateBorders, places: collection(places) };
}

function place(
  kind: 'country' | 'state' | 'city',
  name: string,
  coordinates: Position,
  rank: number,
): Feature<Point, Record<string, unknown>> {
  return {
    type: 'Feature',
    properties: { kind, name, rank },
    geometry: { type: 'Point', coordinates },
  };
}

/** Every character a label can contain, for the glyph ranges check. */
export function labelCharacters(data: BasemapData): Set<number> {
  const chars = new Set<number>();
  for (const f of data.places.features) {
    for (const c of String(f.properties?.name ?? '')) chars.add(c.codePointAt(0)!);
  }
  return chars;
}
