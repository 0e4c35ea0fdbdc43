// What main's basemap fetches for the renderer: only https origins a style names (plain http
// and loopback only when the style itself is on loopback), never private or loopback hosts for
// a remote style, never a redirect, never more than the byte cap. Real servers on loopback;
// the "remote" https style is a loopback server reached through a fetch that rewrites its host
// (the requests still go over real HTTP).
import { createServer, type Server } from 'node:http';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BasemapService } from '../../src-main/core/basemap/service';
import { TileCache } from '../../src-main/core/basemap/tile-cache';
import { NETWORK_NAMES, openNetwork, type TestNetwork } from '../support/test-networks';

interface Recorder {
  url: string;
  hits: string[];
  server: Server;
}

async function recorder(host: string, answer: (path: string, r: Recorder) => Response) {
  const r: Recorder = { url: '', hits: [], server: undefined as unknown as Server };
  r.server = createServer((req, res) => {
    r.hits.push(req.url ?? '');
    const response = answer(req.url ?? '', r);
    void response.arrayBuffer().then((body) => {
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(body));
    });
  });
  await new Promise<void>((resolve) => r.server.listen(0, host, resolve));
  r.url = `http://${host}:${(r.server.address() as AddressInfo).port}`;
  return r;
}

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
const tile = (bytes = 10) =>
  new Response(new Uint8Array(bytes), { headers: { 'content-type': 'application/x-protobuf' } });

let dataDir: string;
let remote: Recorder; // stands for https://maps.example.com
let inside: Recorder; // a loopback service a remote style must not reach
let other: Recorder; // another loopback host a redirect points at

/** Main's network under test (support/test-networks.ts): each suite runs over each. */
let network: TestNetwork;

/** fetch that sends https://maps.example.com/... to the `remote` server over real HTTP. */
const remoteFetch: typeof fetch = (input, init) => {
  const url = String(input instanceof Request ? input.url : input);
  return (network.fetch ?? fetch)(url.replace('https://maps.example.com', remote.url), init);
};

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fieldmap-remote-fetch-'));
  inside = await recorder('127.0.0.1', () => tile());
  other = await recorder('127.0.0.2', () => tile());
  remote = await recorder('127.0.0.1', (path) => {
    if (path === '/style.json') {
      return json({
        version: 8,
        sources: {
          good: { type: 'vector', tiles: ['https://maps.example.com/t/{z}/{x}/{y}.pbf'] },
          cdn: { type: 'vector', url: 'https://cdn.example.net/tiles.json' },
          plain: { type: 'vector', tiles: ['http://plain.example.org/{z}/{x}/{y}.pbf'] },
          loop: { type: 'vector', tiles: [`${inside.url}/{z}/{x}/{y}.pbf`] },
          named: { type: 'vector', tiles: ['https://localhost:8443/{z}.pbf'] },
          lan: { type: 'vector', tiles: ['https://192.168.1.20/{z}.pbf'] },
          ten: { type: 'vector', tiles: ['https://10.1.2.3/{z}.pbf'] },
          v6: { type: 'vector', tiles: ['https://[fd00::1]/{z}.pbf'] },
          meta: { type: 'vector', tiles: ['https://169.254.169.254/{z}.pbf'] },
          file: { type: 'vector', tiles: ['file:///etc/passwd'] },
        },
        layers: [],
      });
    }
    if (path === '/moved.pbf')
      return new Response(null, { status: 302, headers: { location: `${other.url}/x.pbf` } });
    return tile();
  });
});

afterAll(async () => {
  for (const r of [remote, inside, other]) {
    r.server.closeAllConnections();
    await new Promise<void>((resolve) => r.server.close(() => resolve()));
  }
  await rm(dataDir, { recursive: true, force: true });
});

beforeEach(() => {
  for (const r of [remote, inside, other]) r.hits.length = 0;
});

let n = 0;
async function remoteBasemap(): Promise<BasemapService> {
  const basemap = await BasemapService.open({
    dataDir: join(dataDir, `b${n++}`),
    fetch: remoteFetch,
  });
  await basemap.setSettings({ onlineStyleUrl: 'https://maps.example.com/style.json' });
  const style = await basemap.handleRequest(proxyUrl('https://maps.example.com/style.json'), null);
  expect(style?.status).toBe(200);
  return basemap;
}

const proxyUrl = (target: string) =>
  new URL(`app://fieldmap/tiles?url=${encodeURIComponent(target)}`);

describe.each(NETWORK_NAMES)('over %s', (name) => {
  beforeAll(async () => {
    network = await openNetwork(name);
  });
  afterAll(() => network.close());

  describe('origins a remote style may name', () => {
    it('https hosts it names are fetched', async () => {
      const basemap = await remoteBasemap();
      const answer = await basemap.handleRequest(
        proxyUrl('https://maps.example.com/t/1/2/3.pbf'),
        null,
      );
      expect(answer?.status).toBe(200);
    });

    it('never a loopback, private or link-local host, nor plain http, nor another protocol', async () => {
      const basemap = await remoteBasemap();
      for (const target of [
        `${inside.url}/1/2/3.pbf`,
        'https://localhost:8443/1.pbf',
        'https://192.168.1.20/1.pbf',
        'https://10.1.2.3/1.pbf',
        'https://[fd00::1]/1.pbf',
        'https://169.254.169.254/1.pbf',
        'http://plain.example.org/1/2/3.pbf',
        'file:///etc/passwd',
      ]) {
        const answer = await basemap.handleRequest(proxyUrl(target), null);
        expect(answer?.status, target).toBe(403);
      }
      expect(inside.hits).toEqual([]);
    });

    it('a plain-http style is refused unless it is on loopback', async () => {
      const basemap = await BasemapService.open({ dataDir: join(dataDir, 'http-style') });
      await expect(
        basemap.setSettings({ onlineStyleUrl: 'http://maps.example.com/style.json' }),
      ).rejects.toThrow(/https/);
      await expect(
        basemap.setSettings({ onlineStyleUrl: `${inside.url}/style.json` }),
      ).resolves.toMatchObject({ onlineStyleUrl: `${inside.url}/style.json` });
    });
  });

  describe('fetching', () => {
    it('a redirect is refused, not followed to another host', async () => {
      const basemap = await remoteBasemap();
      const answer = await basemap.handleRequest(
        proxyUrl('https://maps.example.com/moved.pbf'),
        null,
      );
      expect(answer?.status).toBe(404);
      expect(other.hits).toEqual([]);
    });

    it('a resource over the byte cap is neither served nor stored', async () => {
      const dir = join(dataDir, `cap-${n++}`);
      const cache = await TileCache.open({
        dir,
        capacityBytes: 1_000_000,
        maxResourceBytes: 1000,
        fetch: remoteFetch,
      });
      const big = await recorder('127.0.0.1', () => tile(5000));
      try {
        expect((await cache.fetchThroughCache(`${big.url}/big.pbf`)).kind).toBe('miss');
        expect((await cache.fetchThroughCache(`${remote.url}/small.pbf`)).kind).toBe('fetched');
        await cache.flush();
        expect((await readdir(dir)).filter((f) => f.endsWith('.tile'))).toHaveLength(1);
      } finally {
        big.server.closeAllConnections();
        await new Promise<void>((resolve) => big.server.close(() => resolve()));
      }
    });
  });
});
