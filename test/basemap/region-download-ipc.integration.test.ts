// The region download channels through the real IPC router and the real main services on a temp
// dir, against the loopback range server: the source setting, estimate, download with progress
// events, the new region announced, update (replaces) and what the contract refuses.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bytesToHeader } from 'pmtiles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventChannel, EventOf, IpcResult, ResponseOf } from '../../src-shared/ipc-contract';
import { createMainServices, type MainServices } from '../../src-main/app/main-services';
import { APP_ORIGIN, createIpcRouter, topFrameOfOrigins } from '../../src-main/ipc/handle';
import { MemoryCredentialStore } from '../../scripts/browser-runner/credentials';
import { instantClock } from './region-download-support';
import { startRangeServer, type RangeServer } from './range-server';
import { AREA_BOUNDS, DATA_DATE, patchHeader, townArchive } from './streets-fixture';
import { until } from '../support/until';

const SENDER = { url: `${APP_ORIGIN}/index.html`, isTopFrame: true };
const area = { kind: 'bbox', bounds: AREA_BOUNDS };

let dir: string;
let server: RangeServer;
let services: MainServices;
const events: Array<{ event: EventChannel; payload: unknown }> = [];
let call: (channel: string, request?: unknown) => Promise<IpcResult<unknown>>;

async function ok<T>(channel: string, request?: unknown): Promise<T> {
  const result = await call(channel, request);
  if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
  return result.value as T;
}

async function refused(channel: string, request?: unknown) {
  const result = await call(channel, request);
  if (result.ok) throw new Error(`${channel} was accepted`);
  expect(result.error.kind).toBe('InvalidRequest');
  return result.error;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fieldmap-download-ipc-'));
  server = await startRangeServer(townArchive());
  services = await createMainServices({
    dataDir: dir,
    credentialStore: new MemoryCredentialStore(),
    demo: false,
    restore: false,
    clock: instantClock,
    emit: (event, payload) => events.push({ event, payload: structuredClone(payload) }),
    fetch: globalThis.fetch,
    // No public daily builds: this suite is about the source the rep sets (and no test may
    // reach the internet); the default is test/app/first-minutes.e2e.test.ts's.
    dailyBuilds: null,
    // The test's loopback servers are addresses the rep typed and confirmed in main's dialog.
    confirmLocalAddress: async () => true,
  });
  const router = createIpcRouter(services.handlers, {
    isTrustedSender: topFrameOfOrigins([APP_ORIGIN]),
    log: () => undefined,
  });
  call = (channel, request) => router.dispatch(channel, SENDER, request);
});

afterAll(async () => {
  await services?.dispose();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

type Status = ResponseOf<'regions:download'>;
type Region = ResponseOf<'regions:list'>[number];

describe('region download channels', () => {
  it('needs a source, and refuses an http one that is not on this computer', async () => {
    expect((await refused('regions:estimate', { area })).message).toMatch(/Set the map source/);
    const http = await refused('basemap:set-settings', {
      regionSourceUrl: 'http://tiles.example.com/planet.pmtiles',
    });
    expect(http).toMatchObject({ field: 'regionSourceUrl' });
    expect(http.message).toMatch(/must start with https/);
    // A raster archive is refused when it is set, with the reason.
    server.setArchive(patchHeader(townArchive(), { 99: 2 }));
    const raster = await refused('basemap:set-settings', { regionSourceUrl: server.url });
    expect(raster.message).toMatch(/raster images, not vector tiles/);
    server.setArchive(townArchive());
    const settings = await ok<{ regionSourceUrl: string }>('basemap:set-settings', {
      regionSourceUrl: server.url,
    });
    expect(settings.regionSourceUrl).toBe(server.url);
  });

  it('validates areas, zooms and ids like every channel', async () => {
    await refused('regions:estimate', { area: { kind: 'bbox', bounds: [-200, 0, 0, 10] } });
    await refused('regions:estimate', { area, maxZoom: 16 });
    await refused('regions:download', { area, name: '' });
    await refused('regions:download', { area, name: 'x', extra: true });
    await refused('regions:pause', { id: '../etc' });
    await refused('regions:cancel', { id: 42 });
  });

  it('refuses a polygon that crosses itself or has no surface, and cuts one by its outline', async () => {
    const [w, s, e, n] = AREA_BOUNDS;
    const bowtie = {
      kind: 'polygon',
      ring: [
        [w, s],
        [e, n],
        [e, s],
        [w, n],
      ],
    };
    const crossing = await refused('regions:estimate', { area: bowtie });
    expect(crossing).toMatchObject({ field: 'area' });
    expect(crossing.message).toMatch(/crosses itself/);
    const line = {
      kind: 'polygon',
      ring: [
        [w, s],
        [(w + e) / 2, (s + n) / 2],
        [e, n],
      ],
    };
    expect((await refused('regions:download', { area: line, name: 'Line' })).message).toMatch(
      /no surface/,
    );
    const triangle = {
      kind: 'polygon',
      ring: [
        [w, s],
        [e, s],
        [w, n],
        [w, s],
      ],
    };
    const cut = await ok<ResponseOf<'regions:estimate'>>('regions:estimate', { area: triangle });
    const whole = await ok<ResponseOf<'regions:estimate'>>('regions:estimate', { area });
    expect(cut.tileCount).toBeLessThan(whole.tileCount);
    expect(cut.totalBytes).toBeLessThan(whole.totalBytes);
  });

  it('estimates, downloads with progress events, announces the region, and updates it', async () => {
    const estimate = await ok<ResponseOf<'regions:estimate'>>('regions:estimate', { area });
    expect(estimate).toMatchObject({ dataDate: DATA_DATE });
    expect(estimate.tileCount).toBeGreaterThan(30);
    const started = await ok<Status>('regions:download', { area, name: 'Downtown' });
    expect(started.state).toBe('running');
    const done = await services.basemap.downloads.settled(started.id);
    expect(done.state).toBe('done');
    const progress = events
      .filter((e) => e.event === 'regions:progress')
      .map((e) => e.payload as EventOf<'regions:progress'>);
    expect(progress.at(-1)).toMatchObject({ state: 'done', doneBytes: done.totalBytes });
    expect(progress.some((p) => p.state === 'running' && p.doneBytes < p.totalBytes)).toBe(true);
    const changed = events.filter((e) => e.event === 'basemap:changed').at(-1)!;
    const [region] = (changed.payload as EventOf<'basemap:changed'>).regions;
    expect(region).toMatchObject({ name: 'Downtown', sizeBytes: estimate.totalBytes });
    expect(region!.download?.dataDate).toBe(DATA_DATE);

    // Update: a new download of the same area replaces the region once it is complete.
    const update = await ok<Status>('regions:download', {
      area: region!.download!.area,
      name: region!.name,
      replaces: region!.id,
    });
    await services.basemap.downloads.settled(update.id);
    const regions = await ok<Region[]>('regions:list');
    expect(regions).toHaveLength(1);
    expect(regions[0]!.id).not.toBe(region!.id);
    expect(await ok<Status[]>('regions:downloads')).toEqual([]);
  });

  it('pauses, resumes and cancels', async () => {
    // The server holds every tile request (the area is one coalesced range here): under way.
    const offset = bytesToHeader(townArchive().slice(0, 127).buffer as ArrayBuffer).tileDataOffset;
    const before = server.answered.filter(([s]) => s >= offset).length;
    server.faults = { holdAfter: { offset, answered: before } };
    const started = await ok<Status>('regions:download', { area, name: 'Paused' });
    await until(() => server.held >= 1, 'a range request held');
    const paused = await ok<Status>('regions:pause', { id: started.id });
    expect(paused).toMatchObject({ state: 'paused', doneRanges: 0 });
    server.faults = {};
    const resumed = await ok<Status>('regions:resume', { id: started.id });
    expect(resumed.state).toBe('running');
    expect((await services.basemap.downloads.settled(started.id)).state).toBe('done');
    const again = await ok<Status>('regions:download', { area, name: 'Cancelled' });
    expect(await ok<boolean>('regions:cancel', { id: again.id })).toBe(true);
    expect(await ok<Status[]>('regions:downloads')).toEqual([]);
    expect((await ok<Region[]>('regions:list')).map((r) => r.name).sort()).toEqual([
      'Downtown',
      'Paused',
    ]);
  });
});
