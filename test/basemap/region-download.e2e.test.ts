// Downloading the streets of an area from a remote PMTiles v3 archive (issue 14), against a
// real loopback HTTP server with Range support and fault modes, into real files in a temp dir.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bytesToHeader } from 'pmtiles';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { areaTileIds } from '../../src-main/core/basemap/region-plan';
import { BasemapService } from '../../src-main/core/basemap/service';
import { sourceWorkerScript } from '../../src-main/core/untrusted/source-worker';
import { REPO_ROOT } from '../renderer/support/bundle';
import { startRangeServer, type RangeServer } from './range-server';
import { leftovers, openDownloads, readArchive, tileOf } from './region-download-support';
import {
  AREA_BOUNDS,
  DATA_DATE,
  MAIN_STREET_LAT,
  MAIN_STREET_NAME,
  patchHeader,
  townArchive,
} from './streets-fixture';
import { call, luminance, openBasemapPage, type Rgb } from './support';
import { until } from '../support/until';

const area = { kind: 'bbox' as const, bounds: AREA_BOUNDS };
let source: Uint8Array;
let dataOffset: number;
let server: RangeServer;
const dirs: string[] = [];

async function dataDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'fieldmap-download-'));
  dirs.push(dir);
  return dir;
}

beforeAll(async () => {
  source = townArchive();
  dataOffset = bytesToHeader(source.slice(0, 127).buffer as ArrayBuffer).tileDataOffset;
  server = await startRangeServer(source);
});

afterEach(() => {
  server.faults = {};
  server.setArchive(source);
});

afterAll(async () => {
  await server.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** Downloads the test area to the end and returns the region and the status. */
async function download(dir: string, name = 'Town', url = server.url) {
  const { regions, downloads } = await openDownloads(dir);
  const started = await downloads.start({ url, area, maxZoom: 15, name });
  const status = await downloads.settled(started.id);
  return { regions, downloads, status };
}

describe('region download', () => {
  it('estimates the exact size and tile count, and writes a file of exactly that size', async () => {
    const dir = await dataDir();
    const { downloads } = await openDownloads(dir);
    const before = server.requests.length;
    const estimate = await downloads.estimate(server.url, area, 15);
    // A few range requests: the header with the root, then the leaves that cover the area.
    expect(server.requests.length - before).toBe(estimate.requests);
    expect(estimate.requests).toBeLessThanOrEqual(3);
    expect(estimate.dataDate).toBe(DATA_DATE);
    const { regions, status } = await download(dir);
    expect(status.state).toBe('done');
    const [region] = regions.list();
    expect(region!.sizeBytes).toBe(estimate.totalBytes);
    expect((await readFile(regions.fileOf(region!.id))).length).toBe(estimate.totalBytes);
    expect(region!.download).toEqual({ url: server.url, dataDate: DATA_DATE, area });
    expect(await leftovers(dir)).toEqual([`regions/${region!.id}.pmtiles`]);
  });

  it('writes a valid clustered PMTiles v3 file with exactly the tiles of the area, each identical to the source', async () => {
    const dir = await dataDir();
    const { regions } = await download(dir);
    const [region] = regions.list();
    const bytes = new Uint8Array(await readFile(regions.fileOf(region!.id)));
    const header = bytesToHeader(bytes.slice(0, 127).buffer as ArrayBuffer);
    expect(header).toMatchObject({ specVersion: 3, clustered: true, minZoom: 0, maxZoom: 15 });
    const out = readArchive(bytes, 'out');
    const src = readArchive(source, 'src');
    let count = 0;
    for (const id of areaTileIds(area, 15)) {
      const expected = await tileOf(src, id);
      const actual = await tileOf(out, id);
      expect(actual === null ? null : Buffer.from(actual)).toEqual(
        expected === null ? null : Buffer.from(expected),
      );
      if (expected) count++;
    }
    expect(count).toBeGreaterThan(30);
    expect(header.numAddressedTiles).toBe(count);
    // Nothing outside the area: the source has many more tiles.
    expect(header.numAddressedTiles).toBeLessThan((await src.getHeader()).numAddressedTiles);
    expect((await out.getMetadata()) as object).toMatchObject({ name: 'Fixture town' });
  });

  it('retries resets and 500s, and counts every request', async () => {
    const dir = await dataDir();
    const clean = await download(await dataDir());
    server.faults = { resetNext: 2, fail500Next: 2 };
    const { status, regions } = await download(dir);
    expect(status.state).toBe('done');
    expect(status.requests).toBe(clean.status.requests + 4);
    expect(regions.list()).toHaveLength(1);
  });

  it('resumes after a kill mid-download, refetching only the batch that was in flight', async () => {
    const dir = await dataDir();
    const concurrency = 4;
    server.answered.length = 0;
    server.faults = { holdAfter: { offset: dataOffset, answered: 6 } };
    const child = spawn(
      process.execPath,
      [
        await sourceWorkerScript(join(REPO_ROOT, 'test/basemap/download-child.ts')),
        dir,
        server.url,
      ],
      { cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    let exitCode: number | null | undefined;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    void exited.then((code) => (exitCode = code as number | null));
    // The child's four workers each hold a request: everything answered before is journaled.
    // A child that dies first fails the test now, with its reason, not at the test's bound.
    await until(() => {
      if (exitCode !== undefined) throw new Error(`download child exited (${exitCode}): ${stderr}`);
      return server.held >= concurrency;
    }, `${concurrency} range requests held`);
    const answered = server.answered.filter(([s]) => s >= dataOffset).length;
    expect(answered).toBe(6);
    child.kill('SIGKILL');
    await exited;
    server.faults = {};

    const { regions, downloads } = await openDownloads(dir);
    expect(regions.list()).toEqual([]); // nothing half-made is a region
    const [paused] = downloads.list();
    expect(paused).toMatchObject({ state: 'paused', name: 'Town' });
    const before = server.requests.length;
    downloads.resume(paused!.id);
    const status = await downloads.settled(paused!.id);
    expect(status.state).toBe('done');
    const refetched = server.requests.slice(before).filter(([s]) => s >= dataOffset);
    // The 6 answered ranges are not fetched again; the 4 in flight are, with the rest.
    expect(refetched).toHaveLength(status.ranges - answered);
    expect(refetched.length - (status.ranges - answered - concurrency)).toBeLessThanOrEqual(
      concurrency,
    );
    const clean = await download(await dataDir());
    const [a] = regions.list();
    const [b] = clean.regions.list();
    expect(await readFile(regions.fileOf(a!.id))).toEqual(
      await readFile(clean.regions.fileOf(b!.id)),
    );
  });

  it('stops with a clear message when the source ETag changes mid-download, keeping existing regions', async () => {
    const dir = await dataDir();
    const first = await download(dir, 'First');
    const [kept] = first.regions.list();
    server.faults = { changeEtagAfter: server.requests.length + 4 };
    const { status, regions } = await download(dir, 'Second');
    expect(status.state).toBe('failed');
    expect(status.error).toMatch(/map source changed during the download/);
    expect(regions.list()).toEqual([kept]);
    expect(await leftovers(dir)).toEqual([`regions/${kept!.id}.pmtiles`]);
  });

  it('refuses bad sources with clear messages and leaves nothing behind', async () => {
    const dir = await dataDir();
    const { downloads } = await openDownloads(dir);
    const refuse = (url: string) => downloads.start({ url, area, maxZoom: 15, name: 'Bad' });
    await expect(refuse('http://tiles.example.com/planet.pmtiles')).rejects.toThrow(
      /must start with https:\/\//,
    );
    const cases: Array<[Uint8Array, RegExp]> = [
      [new TextEncoder().encode('<html>not found</html>'.repeat(20)), /not a PMTiles archive/],
      [v2(source), /version 2/],
      [patchHeader(source, { 99: 2 }), /raster images/],
      [patchHeader(source, { 96: 0 }), /not a clustered archive/],
    ];
    for (const [archive, message] of cases) {
      server.setArchive(archive);
      await expect(refuse(server.url)).rejects.toThrow(message);
    }
    expect(await leftovers(dir)).toEqual([]);
  });

  it('refuses a server that ignores Range and a truncated answer, leaving nothing behind', async () => {
    const dir = await dataDir();
    const { downloads, regions } = await openDownloads(dir);
    const start = () => downloads.start({ url: server.url, area, maxZoom: 15, name: 'Bad' });
    server.faults = { ignoreRange: true };
    await expect(start()).rejects.toThrow(/ignores range requests/);
    server.faults = { truncate: true };
    await expect(start()).rejects.toThrow(/truncated answer/);
    expect(regions.list()).toEqual([]);
    expect(await leftovers(dir)).toEqual([]);
  });

  it('checks the disk first and refuses an area over the size limit', async () => {
    const dir = await dataDir();
    const full = await openDownloads(dir, { freeSpace: async () => 10 * 1024 * 1024 });
    await expect(
      full.downloads.start({ url: server.url, area, maxZoom: 15, name: 'Full' }),
    ).rejects.toThrow(/Not enough free disk space/);
    const small = await openDownloads(dir, { maxBytes: 10_000 });
    await expect(small.downloads.estimate(server.url, area, 15)).rejects.toThrow(/more than the/);
    // The planet at z15 is refused before any directory is read.
    const before = server.requests.length;
    await expect(
      small.downloads.estimate(server.url, { kind: 'bbox', bounds: [-125, 25, -65, 49] }, 15),
    ).rejects.toThrow(/too large/);
    expect(server.requests.length).toBe(before);
    expect(await leftovers(dir)).toEqual([]);
  });
});

describe('a downloaded region in Chromium, every outside request blocked', () => {
  it('draws a street line and a street label at z15 inside the area', async () => {
    const dir = await dataDir();
    const { regions } = await download(dir, 'Downtown');
    const [region] = regions.list();
    const basemap = await BasemapService.open({
      dataDir: dir,
      fetch: () => Promise.reject(new Error('offline')),
    });
    const session = await openBasemapPage(() => basemap);
    try {
      const { page, served } = session;
      const lon = (AREA_BOUNDS[0] + AREA_BOUNDS[2]) / 2 + 0.0021;
      const source = { id: region!.id, url: `regions/${region!.id}.pmtiles` };
      await call(page, 'show', { center: [lon, MAIN_STREET_LAT], zoom: 15, regions: [source] });
      if (process.env['FIELDMAP_SHOT'])
        await page.screenshot({ path: process.env['FIELDMAP_SHOT'] });
      // The street: white road pixels across Main Street, plain land a little north of it.
      const across = await call<Rgb[]>(
        page,
        'column',
        lon,
        MAIN_STREET_LAT - 0.0002,
        MAIN_STREET_LAT + 0.0002,
      );
      expect(across.some((c) => c[0] > 250 && c[1] > 250 && c[2] > 250)).toBe(true);
      const north = await call<Rgb>(page, 'colorAt', lon, MAIN_STREET_LAT + 0.0015);
      expect(luminance(north)).toBeLessThan(240);
      // The label: its name is drawn by the roads label layer, as dark text pixels along the street.
      expect(await call<string[]>(page, 'renderedRoadLabels')).toContain(MAIN_STREET_NAME);
      // Dark text pixels in a band along the street, across the whole view (earth and road
      // are light; the label's text is the only dark thing there).
      let dark = 0;
      for (let dx = -0.004; dx <= 0.004; dx += 0.001) {
        const band = await call<Rgb[]>(page, 'colorsAround', lon + dx, MAIN_STREET_LAT, 23);
        dark += band.filter((c) => luminance(c) < 190).length;
      }
      expect(dark).toBeGreaterThan(30);
      expect(await call<string>(page, 'attribution')).toMatch(/OpenStreetMap contributors/);
      expect(served.blocked).toEqual([]);
    } finally {
      await session.close();
    }
  });
});

/** A PMTiles v2 archive starts with "PM" and a little-endian version 2. */
function v2(archive: Uint8Array): Uint8Array {
  return patchHeader(archive, { 2: 2, 3: 0, 4: 0, 5: 0, 6: 0 });
}
