// Crafted answers to the online style's requests through the tile proxy (issue 30): a loopback
// style must not open other loopback services to the renderer, an unconfirmed one opens nothing,
// a style with huge arrays teaches no hosts, and a gzip bomb or an endless body as a tile or a
// style is refused while the tile cache keeps what it had. Real loopback servers, real files.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BasemapService } from '../../src-main/core/basemap/service';

interface Host {
  origin: string;
  hits: string[];
  server: Server;
}

async function host(answer: (path: string, res: ServerResponse, req: IncomingMessage) => void) {
  const h: Host = { origin: '', hits: [], server: undefined as unknown as Server };
  h.server = createServer((req, res) => {
    h.hits.push(req.url ?? '');
    answer(req.url ?? '', res, req);
  });
  await new Promise<void>((resolve) => h.server.listen(0, '127.0.0.1', resolve));
  h.origin = `http://127.0.0.1:${(h.server.address() as AddressInfo).port}`;
  return h;
}

/** 1 GiB of zeros as 64 gzip members of 16 MiB each (~1 MiB on the wire). */
function gzipGigabyte(): Buffer {
  const member = gzipSync(Buffer.alloc(16 * 1024 * 1024), { level: 9 });
  return Buffer.concat(Array.from({ length: 64 }, () => member));
}

let dataDir: string;
let inside: Host; // another loopback service: a confirmed local style must not reach it
let style: Host; // the confirmed local tile server
const bomb = gzipGigabyte();

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fieldmap-hostile-styles-'));
  inside = await host((_path, res) => res.end('secret'));
  style = await host((path, res) => {
    const json = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (path === '/style.json')
      return json({
        version: 8,
        sources: {
          own: { type: 'vector', tiles: [`${style.origin}/t/{z}/{x}/{y}.pbf`] },
          other: { type: 'vector', tiles: [`${inside.origin}/{z}/{x}/{y}.pbf`] },
          web: { type: 'vector', url: 'https://tiles.example.com/tiles.json' },
        },
        layers: [],
      });
    if (path === '/huge.json')
      return json({
        version: 8,
        // ~5 MB of JSON: served, but its parse would hold main, so it names no hosts.
        sources: {
          big: {
            type: 'vector',
            tiles: [
              'https://huge.example.com/{z}/{x}/{y}.pbf',
              ...Array.from({ length: 200_000 }, (_, i) => `https://h${i}.example/x`),
            ],
          },
        },
        layers: [],
      });
    if (path === '/bomb.pbf') {
      res.writeHead(200, { 'content-type': 'application/x-protobuf', 'content-encoding': 'gzip' });
      return res.end(bomb);
    }
    if (path === '/endless.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (res.write(chunk));
      };
      res.on('drain', pump);
      return pump();
    }
    res.writeHead(200, { 'content-type': 'application/x-protobuf' });
    res.end(Buffer.alloc(10, 1));
  });
});

const opened: BasemapService[] = [];

afterAll(async () => {
  // The caches' index writes finish before their folders go.
  for (const basemap of opened) await basemap.tiles.flush();
  for (const h of [inside, style]) {
    h.server.closeAllConnections();
    await new Promise<void>((resolve) => h.server.close(() => resolve()));
  }
  await rm(dataDir, { recursive: true, force: true });
});

let n = 0;
async function basemapWith(path: string, confirmed: boolean): Promise<BasemapService> {
  const basemap = await BasemapService.open({ dataDir: join(dataDir, `b${n++}`) });
  opened.push(basemap);
  await basemap.setSettings({
    onlineStyleUrl: `${style.origin}${path}`,
    confirmedOrigins: confirmed ? [style.origin] : [],
  });
  return basemap;
}

const proxy = (basemap: BasemapService, target: string) =>
  basemap.handleRequest(new URL(`app://fieldmap/tiles?url=${encodeURIComponent(target)}`), null);

describe('a local style through the tile proxy', () => {
  it('opens only its own confirmed origin, never another loopback service', async () => {
    const basemap = await basemapWith('/style.json', true);
    expect((await proxy(basemap, `${style.origin}/style.json`))?.status).toBe(200);
    expect((await proxy(basemap, `${style.origin}/t/1/2/3.pbf`))?.status).toBe(200);
    expect((await proxy(basemap, `${inside.origin}/1/2/3.pbf`))?.status).toBe(403);
    expect((await proxy(basemap, `${inside.origin}/admin`))?.status).toBe(403);
    expect(inside.hits).toEqual([]);
  });

  it('reaches nothing while the rep has not confirmed it', async () => {
    const basemap = await basemapWith('/style.json', false);
    const before = style.hits.length;
    expect((await proxy(basemap, `${style.origin}/style.json`))?.status).toBe(403);
    expect(style.hits.length).toBe(before);
  });
});

describe('hostile answers to the style and its tiles', () => {
  it('a style with huge arrays is served but teaches no host', async () => {
    const basemap = await basemapWith('/huge.json', true);
    const answer = await proxy(basemap, `${style.origin}/huge.json`);
    expect(answer?.status).toBe(200);
    expect(answer!.body!.length).toBeGreaterThan(2 * 1024 * 1024);
    expect((await proxy(basemap, 'https://huge.example.com/1/2/3.pbf'))?.status).toBe(403);
  });

  it('a tile that is a gzip bomb, and a style that never ends, are refused; the cache keeps its tiles', async () => {
    const basemap = await basemapWith('/style.json', true);
    const good = `${style.origin}/t/4/5/6.pbf`;
    expect((await proxy(basemap, good))?.headers['X-Fieldmap-Cache']).toBe('fetched');
    const usage = basemap.tiles.usage();
    // Refused answers are misses: the page gets the proxy's 404 (an empty tile), nothing is kept.
    for (const path of ['/bomb.pbf', '/endless.json']) {
      expect((await proxy(basemap, `${style.origin}${path}`))?.status, path).toBe(404);
      expect(basemap.tiles.has(`${style.origin}${path}`), path).toBe(false);
    }
    expect(basemap.tiles.usage()).toEqual(usage);
    const again = await proxy(basemap, good);
    expect(again?.headers['X-Fieldmap-Cache']).toBe('hit');
    expect(again?.body).toEqual(new Uint8Array(Buffer.alloc(10, 1)));
  });
});
