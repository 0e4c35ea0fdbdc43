// `npx tsx scripts/docs-online-streets-screenshot.ts`: docs/screenshot-online-streets.png, a
// fresh install's map at city zoom, online, with no setting made. The default online style is
// played by a local imitation (a MapLibre style in the Protomaps schema over the test fixture's
// town, served as z/x/y tiles on loopback) handed to the app exactly where OpenFreeMap's address
// goes; nothing reaches the internet. The town is a generated street grid with a river, parks and
// blocks of buildings; some customers of the seeded account live in it.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { layers as protomapsLayers, namedFlavor } from '@protomaps/basemaps';
import { MemoryCredentialStore } from './browser-runner/credentials';
import {
  buildIfNeeded,
  DOCS,
  mapIdle,
  runScript,
  signIn,
  VIEWPORT,
  waitRows,
} from './docs-screenshots';
import { launchApp, startTestService } from '../test/support/app';
import type { Feature, FeatureCollection, Geometry } from 'geojson';
import { cutTiles, square, type Bounds } from '../test/basemap/fixture-tiles';
import { mulberry32 } from '../test/support/prng';

const FILE = join(DOCS, 'screenshot-online-streets.png');
const CENTER: [number, number] = [-97.41, 37.705];
const ZOOM = 13.8;
const TOWN_CUSTOMERS = 60;
const TOWN_BOUNDS: Bounds = [-97.5, 37.6, -97.3, 37.8];

const feature = (properties: Record<string, unknown>, geometry: Geometry): Feature => ({
  type: 'Feature',
  properties,
  geometry,
});
const collection = (features: Feature[]): FeatureCollection => ({
  type: 'FeatureCollection',
  features,
});
const ordinal = (i: number) =>
  `${i}${['th', 'st', 'nd', 'rd'][i % 10 > 3 || (i > 10 && i < 14) ? 0 : i % 10]}`;

/** A town in the Protomaps schema: a grid of named streets, avenues every fifth, a river, parks. */
function townLayers(): Record<string, FeatureCollection> {
  const [w, s, e, n] = TOWN_BOUNDS;
  const step = 0.004;
  const roads: Feature[] = [];
  for (let i = 1; s + i * step < n; i++) {
    const lat = s + i * step;
    const major = i % 5 === 0;
    roads.push(
      feature(
        {
          kind: major ? 'major_road' : 'minor_road',
          name: major ? `${i} Avenue` : `${ordinal(i)} Street`,
        },
        {
          type: 'LineString',
          coordinates: [
            [w, lat],
            [e, lat],
          ],
        },
      ),
    );
  }
  const streets = ['Oak', 'Elm', 'Maple', 'Pine', 'Cedar', 'Walnut', 'Ash', 'Birch', 'Willow'];
  for (let i = 1; w + i * step < e; i++) {
    const lon = w + i * step;
    const major = i % 5 === 0;
    roads.push(
      feature(
        {
          kind: major ? 'major_road' : 'minor_road',
          name: major
            ? `${['Broadway', 'Market', 'Main', 'Park', 'Central'][(i / 5) % 5]} Street`
            : `${streets[i % streets.length]} Street`,
        },
        {
          type: 'LineString',
          coordinates: [
            [lon, s],
            [lon, n],
          ],
        },
      ),
    );
  }
  const river: Array<[number, number]> = [];
  for (let x = w; x <= e + 1e-9; x += 0.005)
    river.push([x, 37.712 + 0.006 * Math.sin((x - w) * 40)]);
  const riverBank = [
    ...river.map(([x, y]) => [x, y + 0.0015]),
    ...river.reverse().map(([x, y]) => [x, y - 0.0015]),
  ];
  const buildings: Feature[] = [];
  for (let bx = -97.44; bx < -97.36; bx += step) {
    for (let by = 37.68; by < 37.705; by += step) {
      for (const [dx, dy] of [
        [0.0006, 0.0006],
        [0.0022, 0.0006],
        [0.0006, 0.0022],
        [0.0022, 0.0022],
      ]) {
        buildings.push(
          feature(
            { kind: 'building' },
            square(bx + dx!, by + dy!, bx + dx! + 0.0011, by + dy! + 0.0011),
          ),
        );
      }
    }
  }
  return {
    earth: collection([feature({ kind: 'earth' }, square(w, s, e, n))]),
    water: collection([
      feature(
        { kind: 'river', name: 'Arkansas River' },
        { type: 'Polygon', coordinates: [[...riverBank, riverBank[0]!]] },
      ),
    ]),
    landuse: collection([
      feature({ kind: 'park', name: 'Riverside Park' }, square(-97.392, 37.72, -97.38, 37.728)),
      feature(
        { kind: 'park', name: 'College Hill Park' },
        square(-97.432, 37.688, -97.424, 37.696),
      ),
    ]),
    buildings: collection(buildings),
    roads: collection(roads),
    places: collection([
      feature(
        { kind: 'locality', name: 'Fixtureville', min_zoom: 8, population_rank: 10 },
        { type: 'Point', coordinates: [-97.4, 37.7] },
      ),
    ]),
  };
}

/** The imitation of the default online style: style.json and /tiles/z/x/y.pbf on loopback. */
async function imitationServer(): Promise<{ styleUrl: string; stop: () => Promise<void> }> {
  const tiles = new Map(
    cutTiles(townLayers(), TOWN_BOUNDS, 0, 15).map((t) => [`/tiles/${t.z}/${t.x}/${t.y}.pbf`, t]),
  );
  let origin = '';
  const server = createServer((req, res) => {
    if (req.url === '/style.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          version: 8,
          glyphs: `${origin}/fonts/{fontstack}/{range}.pbf`,
          sources: {
            protomaps: {
              type: 'vector',
              tiles: [`${origin}/tiles/{z}/{x}/{y}.pbf`],
              maxzoom: 15,
              attribution: '© OpenStreetMap contributors',
            },
          },
          layers: protomapsLayers('protomaps', namedFlavor('light'), { lang: 'en' }),
        }),
      );
      return;
    }
    const tile = tiles.get(req.url ?? '');
    res.writeHead(tile ? 200 : 404, { 'content-type': 'application/x-protobuf' });
    res.end(tile ? Buffer.from(tile.data) : undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    styleUrl: `${origin}/style.json`,
    stop: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

async function main(): Promise<void> {
  buildIfNeeded();
  const imitation = await imitationServer();
  const service = await startTestService({ customers: 500, seed: 7 });
  const random = mulberry32(29);
  for (let i = 0; i < TOWN_CUSTOMERS; i++) {
    service.store.createCustomerDirect(service.account.username, {
      name: `Town customer ${i + 1}`,
      latitude: CENTER[1] + (random() - 0.5) * 0.05,
      longitude: CENTER[0] + (random() - 0.5) * 0.08,
      city: 'Fixtureville',
    });
  }
  const app = await launchApp({
    credentialStore: new MemoryCredentialStore(),
    defaultOnlineStyle: imitation.styleUrl,
  });
  try {
    const { page } = app;
    await page.setViewportSize(VIEWPORT);
    await signIn(page, service);
    await waitRows(page, 'Customers', service.store.customers(service.account.username).length);
    await page
      .locator('.fm-map')
      .evaluate(
        (el, [center, zoom]) =>
          (
            el as unknown as { fieldmapMap: { map: { jumpTo(o: object): void } } }
          ).fieldmapMap.map.jumpTo({ center, zoom }),
        [CENTER, ZOOM] as const,
      );
    await mapIdle(page);
    await page.screenshot({ path: FILE });
    console.log(`${FILE}  ${Math.round((await stat(FILE)).size / 1024)} KB`);
  } finally {
    await app.close();
    await service.stop();
    await imitation.stop();
  }
}

runScript('docs-online-streets-screenshot', main);
