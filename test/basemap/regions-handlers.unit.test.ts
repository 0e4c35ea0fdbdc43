// The basemap's IPC channels through the real router and the real main services on a temp dir:
// what each channel refuses (relative path, missing file, folder, wrong extension, not a PMTiles
// archive, unknown id, http style URL, cache cap out of bounds) and what it keeps across a restart.
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventOf, IpcResult } from '../../src-shared/ipc-contract';
import type { PickFile } from '../../src-main/app/basemap-handlers';
import { createMainServices, type MainServices } from '../../src-main/app/main-services';
import { APP_ORIGIN, createIpcRouter, topFrameOfOrigins } from '../../src-main/ipc/handle';
import { MemoryCredentialStore } from '../../scripts/browser-runner/credentials';
import { REGION_BOUNDS, regionArchive } from './fixture-tiles';

const SENDER = { url: `${APP_ORIGIN}/index.html`, isTopFrame: true };

interface Running {
  services: MainServices;
  events: Array<EventOf<'basemap:changed'>>;
  call(channel: string, request?: unknown): Promise<IpcResult<unknown>>;
  ok<T>(channel: string, request?: unknown): Promise<T>;
  refused(channel: string, request?: unknown): Promise<{ message: string; field?: string }>;
}

let root: string;
let fixture: string;
const running: Running[] = [];

async function start(dataDir: string, pickFile?: PickFile): Promise<Running> {
  const events: Running['events'] = [];
  const services = await createMainServices({
    dataDir,
    credentialStore: new MemoryCredentialStore(),
    demo: false,
    restore: false,
    emit: (event, payload) => {
      if (event === 'basemap:changed')
        events.push(structuredClone(payload) as EventOf<'basemap:changed'>);
    },
    fetch: () => Promise.reject(new Error('no network in this test')),
    // The test's loopback servers are addresses the rep typed and confirmed in main's dialog.
    confirmLocalAddress: async () => true,
    ...(pickFile ? { pickFile } : {}),
  });
  const router = createIpcRouter(services.handlers, {
    isTrustedSender: topFrameOfOrigins([APP_ORIGIN]),
    log: () => undefined,
  });
  const app: Running = {
    services,
    events,
    call: (channel, request) => router.dispatch(channel, SENDER, request),
    async ok<T>(channel: string, request?: unknown) {
      const result = await app.call(channel, request);
      if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
      return result.value as T;
    },
    async refused(channel, request) {
      const result = await app.call(channel, request);
      if (result.ok) throw new Error(`${channel} was accepted: ${JSON.stringify(result.value)}`);
      expect(result.error.kind).toBe('InvalidRequest');
      return result.error;
    },
  };
  running.push(app);
  return app;
}

async function stop(app: Running): Promise<void> {
  running.splice(running.indexOf(app), 1);
  await app.services.dispose();
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'fieldmap-region-handlers-'));
  fixture = join(root, 'Kansas fixture.pmtiles');
  await writeFile(fixture, regionArchive());
});

afterAll(async () => {
  for (const app of [...running]) await stop(app);
  await rm(root, { recursive: true, force: true });
});

type Region = { id: string; name: string; sizeBytes: number; bounds: number[] };
type Settings = EventOf<'basemap:changed'>['settings'];

describe('regions channels', () => {
  it('refuses picked paths that are not an absolute path to a PMTiles v3 vector archive', async () => {
    // A path comes only from main's dialog: the runner's is typed on its terminal, so it is
    // checked as strictly as one the page could have sent.
    let answer: string | null = null;
    const app = await start(join(root, 'data-refusals'), async () => answer);
    const refusedPick = async (path: string) => {
      answer = path;
      return app.refused('regions:pick');
    };
    expect((await refusedPick('maps/kansas.pmtiles')).message).toMatch(/full path/);
    expect((await refusedPick(join(root, 'missing.pmtiles'))).message).toMatch(
      /no file at that path/,
    );
    const folder = join(root, 'folder.pmtiles');
    await mkdir(folder, { recursive: true });
    expect((await refusedPick(folder)).message).toMatch(/not a file/);
    const text = join(root, 'notes.txt');
    await writeFile(text, 'hello');
    expect((await refusedPick(text)).message).toMatch(/\.pmtiles files/);
    const bogus = join(root, 'bogus.pmtiles');
    await writeFile(bogus, 'not an archive, but long enough to hold a header. '.repeat(5));
    const notArchive = await refusedPick(bogus);
    expect(notArchive).toMatchObject({ field: 'path' });
    expect(notArchive.message).toMatch(/not a usable offline region: not a PMTiles archive/);
    // A raster archive: a valid v3 header whose tile type is PNG (byte 99), which the layers cannot draw.
    const raster = Buffer.from(regionArchive());
    raster[99] = 2;
    const rasterPath = join(root, 'raster.pmtiles');
    await writeFile(rasterPath, raster);
    expect((await refusedPick(rasterPath)).message).toMatch(/no vector tiles/);
    expect(await app.ok('regions:list')).toEqual([]);
    expect(app.events).toEqual([]);
    await stop(app);
  });

  it('adds, lists, announces, removes, and refuses an unknown id', async () => {
    const dataDir = join(root, 'data-add');
    const app = await start(dataDir, async () => fixture);
    const added = await app.ok<Region>('regions:pick');
    expect(added).toMatchObject({ name: 'Kansas fixture', bounds: REGION_BOUNDS });
    expect(added.sizeBytes).toBe((await stat(fixture)).size);
    expect(await app.ok('regions:list')).toEqual([added]);
    expect(app.events.at(-1)?.regions).toEqual([added]);
    expect(app.events.at(-1)?.settings.filePicker).toBe(true);

    // Remembered across a restart of main.
    await stop(app);
    const again = await start(dataDir);
    expect(await again.ok('regions:list')).toEqual([added]);

    expect((await again.refused('regions:remove', { id: 'no-such-region' })).field).toBe('id');
    expect((await again.refused('regions:remove', { id: '../regions' })).field).toBe('id');
    expect(await again.ok('regions:remove', { id: added.id })).toBe(true);
    expect(await again.ok('regions:list')).toEqual([]);
    expect(again.events.at(-1)?.regions).toEqual([]);
    expect(await readdir(join(dataDir, 'regions'))).toEqual([]);
    await stop(again);
  });

  it('adds only what the dialog returns; no channel takes a path from the page', async () => {
    const asked: Array<Parameters<PickFile>[0]> = [];
    let answer: string | null = null;
    const app = await start(join(root, 'data-pick'), async (options) => {
      asked.push(options);
      return answer;
    });
    expect(Object.keys(app.services.handlers)).not.toContain('regions:add');
    expect((await app.call('regions:add', { path: fixture })).ok).toBe(false);
    expect(asked).toEqual([]);
    expect(await app.ok('regions:pick')).toBeNull(); // cancelled
    expect(asked[0]?.filters).toEqual([{ name: 'PMTiles archives', extensions: ['pmtiles'] }]);
    answer = fixture;
    const region = await app.ok<Region>('regions:pick');
    expect(region.name).toBe('Kansas fixture');
    expect(await app.ok('regions:list')).toEqual([region]);
    expect((await app.ok<Settings>('basemap:settings')).filePicker).toBe(true);
    await stop(app);
  });

  it('without a dialog, says so and offers no "Add region…"', async () => {
    const app = await start(join(root, 'data-no-dialog'));
    expect((await app.refused('regions:pick')).message).toMatch(/needs a file dialog/);
    expect((await app.ok<Settings>('basemap:settings')).filePicker).toBe(false);
    await stop(app);
  });
});

describe('basemap settings channels', () => {
  it('accepts https (and loopback http), refuses other URLs and caps out of bounds, and persists', async () => {
    const dataDir = join(root, 'data-settings');
    const app = await start(dataDir);
    const initial = await app.ok<Settings>('basemap:settings');
    expect(initial).toMatchObject({ onlineStyleUrl: null, cacheUsedBytes: 0, cacheEntries: 0 });

    const http = await app.refused('basemap:set-settings', {
      onlineStyleUrl: 'http://example.com/style.json',
    });
    expect(http).toMatchObject({ field: 'onlineStyleUrl' });
    expect(http.message).toMatch(/must start with https:\/\//);
    expect(
      (await app.refused('basemap:set-settings', { onlineStyleUrl: 'not a url' })).message,
    ).toMatch(/not a valid URL/);
    expect(
      (await app.refused('basemap:set-settings', { onlineStyleUrl: 'https://u:p@tiles.example/s' }))
        .message,
    ).toMatch(/user name or password/);
    expect(
      (await app.refused('basemap:set-settings', { onlineStyleUrl: 'file:///etc/passwd' })).message,
    ).toMatch(/https/);
    expect((await app.refused('basemap:set-settings', { cacheCapBytes: 1024 })).message).toMatch(
      /at least 10 MB/,
    );
    expect(
      (await app.refused('basemap:set-settings', { cacheCapBytes: 11 * 1024 ** 3 })).message,
    ).toMatch(/at most 10 GB/);
    expect(await app.ok('basemap:settings')).toEqual(initial);
    expect(app.events).toEqual([]);

    const loopback = await app.ok<Settings>('basemap:set-settings', {
      onlineStyleUrl: 'http://127.0.0.1:9/style.json',
    });
    expect(loopback.onlineStyleUrl).toBe('http://127.0.0.1:9/style.json');
    const saved = await app.ok<Settings>('basemap:set-settings', {
      onlineStyleUrl: ' https://tiles.example.com/style.json ',
      cacheCapBytes: 50 * 1024 * 1024,
    });
    expect(saved).toMatchObject({
      onlineStyleUrl: 'https://tiles.example.com/style.json',
      cacheCapBytes: 50 * 1024 * 1024,
    });
    expect(app.events.at(-1)?.settings).toEqual(saved);

    await stop(app);
    const again = await start(dataDir);
    expect(await again.ok('basemap:settings')).toEqual(saved);
    // An empty URL turns the online style off.
    expect(
      (await again.ok<Settings>('basemap:set-settings', { onlineStyleUrl: '' })).onlineStyleUrl,
    ).toBeNull();
    await stop(again);
  });
});
