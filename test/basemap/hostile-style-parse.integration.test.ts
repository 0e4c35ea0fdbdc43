// A style or TileJSON the online map names is read away from main (issue 30): up to its 2 MiB cap
// a crafted one (nested a million deep: its JSON.parse held main for seconds; a 2 MiB array of
// tile URLs) is read in a worker thread, so main's own JSON.parse never sees it; one nested
// deeper than any style is refused with a message naming it and why. Real loopback server.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BasemapService, MAX_LEARNED_JSON_BYTES } from '../../src-main/core/basemap/service';

const DEPTH = 1_000_000;
const nested = Buffer.from(`${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`);
/** A style just under the cap whose one source names ~90,000 tile URLs. */
const wide = Buffer.from(
  JSON.stringify({
    version: 8,
    sources: {
      s: {
        type: 'vector',
        tiles: [
          'https://wide.example.com/{z}/{x}/{y}.pbf',
          ...Array.from({ length: 90_000 }, (_, i) => `https://h${i}.ex/x`),
        ],
      },
    },
    layers: [],
  }),
);

let dataDir: string;
let server: Server;
let origin: string;

beforeAll(async () => {
  expect(nested.length).toBeLessThan(MAX_LEARNED_JSON_BYTES);
  expect(wide.length).toBeLessThan(MAX_LEARNED_JSON_BYTES);
  expect(wide.length).toBeGreaterThan(MAX_LEARNED_JSON_BYTES * 0.9);
  dataDir = await mkdtemp(join(tmpdir(), 'fieldmap-style-parse-'));
  server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(req.url === '/nested.json' ? nested : wide);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dataDir, { recursive: true, force: true });
});

let n = 0;
async function basemapWith(path: string): Promise<BasemapService> {
  const basemap = await BasemapService.open({ dataDir: join(dataDir, `b${n++}`) });
  await basemap.setSettings({ onlineStyleUrl: `${origin}${path}`, confirmedOrigins: [origin] });
  return basemap;
}

const proxy = (basemap: BasemapService, target: string) =>
  basemap.handleRequest(new URL(`app://fieldmap/tiles?url=${encodeURIComponent(target)}`), null);

/** The lengths of the texts main's own JSON.parse was given while `work` ran. */
async function mainParses(work: () => Promise<unknown>): Promise<number[]> {
  const spy = vi.spyOn(JSON, 'parse');
  try {
    await work();
    return spy.mock.calls.map(([text]) => String(text).length);
  } finally {
    spy.mockRestore();
  }
}

describe('a crafted style up to the 2 MiB cap', () => {
  it('nested a million deep is refused, naming it and why, and main never parses it', async () => {
    const basemap = await basemapWith('/nested.json');
    let answer: Awaited<ReturnType<typeof proxy>> = null;
    const parses = await mainParses(async () => {
      answer = await proxy(basemap, `${origin}/nested.json`);
    });
    expect(parses.filter((length) => length >= nested.length)).toEqual([]);
    expect(answer!.status).toBe(422);
    expect(new TextDecoder().decode(answer!.body!)).toBe(
      `Fieldmap refused the map style ${origin}/nested.json: it is nested deeper than 128 levels.`,
    );
    await basemap.tiles.flush();
  });

  it('of 90,000 tile URLs is read in the worker: served, and its hosts learned', async () => {
    const basemap = await basemapWith('/wide.json');
    let answer: Awaited<ReturnType<typeof proxy>> = null;
    const parses = await mainParses(async () => {
      answer = await proxy(basemap, `${origin}/wide.json`);
    });
    expect(parses.filter((length) => length >= wide.length)).toEqual([]);
    expect(answer!.status).toBe(200);
    expect(answer!.body!.length).toBe(wide.length);
    // The first URL it names was learned (only a learned host is fetched; this one does not
    // exist, so the proxy's answer is its miss, not the 403 of a host the style never named).
    const tile = await proxy(basemap, 'https://wide.example.com/1/2/3.pbf');
    expect(tile?.status).not.toBe(403);
    await basemap.tiles.flush();
  });
});
