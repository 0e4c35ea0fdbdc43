// The online style a fresh install draws with no settings: OpenFreeMap's, read and cached through
// main's tiles? proxy; the administrator's FIELDMAP_ONLINE_STYLE overrides it or turns it off.
// OpenFreeMap is imitated by a server on loopback reached through a fetch that rewrites its host
// (the requests still go over real HTTP); no test reaches the internet.
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BasemapService } from '../../src-main/core/basemap/service';
import { defaultOnlineStyleOf, OPENFREEMAP_STYLE } from '../../src-main/app/admin-defaults';

const OFM = 'https://tiles.openfreemap.org';
let server: Server;
let local = '';
let hits: string[] = [];
let up = true;
let dataDir: string;
let n = 0;

const STYLE = {
  version: 8,
  sources: { openmaptiles: { type: 'vector', url: `${OFM}/planet` } },
  layers: [{ id: 'roads', type: 'line', source: 'openmaptiles', 'source-layer': 'transportation' }],
};
const TILEJSON = { tilejson: '3.0.0', tiles: [`${OFM}/planet/20251126/{z}/{x}/{y}.pbf`] };

/** fetch that sends OpenFreeMap's URLs to the imitation, and fails like a dead network when down. */
const ofmFetch: typeof fetch = async (input, init) => {
  const url = String(input instanceof Request ? input.url : input);
  if (!up) throw new TypeError('fetch failed');
  return fetch(url.replace(OFM, local), init);
};

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fieldmap-default-style-'));
  server = createServer((req, res) => {
    const path = req.url ?? '';
    hits.push(path);
    const send = (type: string, body: string | Uint8Array) => {
      res.writeHead(200, { 'content-type': type });
      res.end(body);
    };
    if (path === '/styles/liberty') return send('application/json', JSON.stringify(STYLE));
    if (path === '/planet') return send('application/json', JSON.stringify(TILEJSON));
    if (path.startsWith('/planet/20251126/'))
      return send('application/x-protobuf', new Uint8Array(42));
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  local = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dataDir, { recursive: true, force: true });
});

beforeEach(() => {
  hits = [];
  up = true;
});

const open = (env: Record<string, string>) =>
  BasemapService.open({
    dataDir: join(dataDir, `b${n++}`),
    fetch: ofmFetch,
    defaultOnlineStyle: defaultOnlineStyleOf(env),
  });
const get = (basemap: BasemapService, url: string) =>
  basemap.handleRequest(new URL(`app://fieldmap/tiles?url=${encodeURIComponent(url)}`), null);

describe('the default online style', () => {
  it('is OpenFreeMap with no settings, and what was seen is served offline', async () => {
    const basemap = await open({});
    expect(basemap.onlineStyle()).toBe(OPENFREEMAP_STYLE);
    const tileUrl = `${OFM}/planet/20251126/12/1205/1539.pbf`;
    for (const url of [OPENFREEMAP_STYLE, `${OFM}/planet`, tileUrl]) {
      expect((await get(basemap, url))?.status, url).toBe(200);
    }
    expect(hits).toEqual(['/styles/liberty', '/planet', '/planet/20251126/12/1205/1539.pbf']);
    up = false;
    const offline = await get(basemap, tileUrl);
    expect(offline?.status).toBe(200);
    expect(offline?.headers['X-Fieldmap-Cache']).not.toBe('miss');
    expect((offline?.body as Uint8Array).length).toBe(42);
    // Not seen before and offline: an empty tile, not an error.
    expect((await get(basemap, `${OFM}/planet/20251126/12/1206/1539.pbf`))?.status).toBe(404);
  });

  it('"off" keeps every request of the map off the internet', async () => {
    const basemap = await open({ FIELDMAP_ONLINE_STYLE: 'off' });
    expect(basemap.onlineStyle()).toBeNull();
    expect((await get(basemap, OPENFREEMAP_STYLE))?.status).toBe(403);
    expect(hits).toEqual([]);
  });

  it("the administrator's style replaces it, and the rep's own wins over both", async () => {
    expect(defaultOnlineStyleOf({ FIELDMAP_ONLINE_STYLE: 'https://maps.example.org/s.json' })).toBe(
      'https://maps.example.org/s.json',
    );
    const basemap = await open({ FIELDMAP_ONLINE_STYLE: `${OFM}/styles/bright` });
    expect(basemap.onlineStyle()).toBe(`${OFM}/styles/bright`);
    await basemap.setSettings({ onlineStyleUrl: 'https://maps.example.com/style.json' });
    expect(basemap.onlineStyle()).toBe('https://maps.example.com/style.json');
    expect((await get(basemap, OPENFREEMAP_STYLE))?.status).toBe(403);
  });

  it('refuses an administrator style that is not https or is on this computer or the LAN', () => {
    for (const raw of [
      'http://maps.example.org/s.json',
      'https://127.0.0.1/s',
      'https://10.0.0.2/s',
      'nonsense',
    ]) {
      expect(defaultOnlineStyleOf({ FIELDMAP_ONLINE_STYLE: raw }), raw).toBeNull();
    }
  });
});
