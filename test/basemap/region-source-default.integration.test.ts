// The admin default map source (FIELDMAP_REGION_SOURCE in the environment, set once by IT for
// every laptop) through the real IPC router and main services on a temp dir: used when the rep
// has set none, the rep's own source wins and clearing it falls back, and an invalid default is
// reported in the settings the panel shows (never sent anywhere, its secret never shown).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IpcResult, ResponseOf } from '../../src-shared/ipc-contract';
import { createMainServices, type MainServices } from '../../src-main/app/main-services';
import { APP_ORIGIN, createIpcRouter, topFrameOfOrigins } from '../../src-main/ipc/handle';
import { MemoryCredentialStore } from '../../scripts/browser-runner/credentials';
import { instantClock } from './region-download-support';
import { startRangeServer, type RangeServer } from './range-server';
import { AREA_BOUNDS, DATA_DATE, townArchive } from './streets-fixture';

const SENDER = { url: `${APP_ORIGIN}/index.html`, isTopFrame: true };
const area = { kind: 'bbox', bounds: AREA_BOUNDS };

type Settings = ResponseOf<'basemap:settings'>;
type Estimate = ResponseOf<'regions:estimate'>;

interface App {
  services: MainServices;
  call(channel: string, request?: unknown): Promise<IpcResult<unknown>>;
  ok<T>(channel: string, request?: unknown): Promise<T>;
}

const dirs: string[] = [];
const apps: App[] = [];
let admin: RangeServer;
let own: RangeServer;
/** The administrator's source: a public https host, played by the `admin` server on loopback. */
const ADMIN_URL = 'https://tiles.example.com/planet.pmtiles';
const adminFetch: typeof fetch = (input, init) =>
  fetch(String(input).replace(ADMIN_URL, admin.url), init);

/** Main services started with this environment, as the shell starts them on a laptop. */
async function start(env: Record<string, string | undefined>): Promise<App> {
  const dataDir = await mkdtemp(join(tmpdir(), 'fieldmap-source-default-'));
  dirs.push(dataDir);
  const services = await createMainServices({
    dataDir,
    credentialStore: new MemoryCredentialStore(),
    demo: false,
    restore: false,
    clock: instantClock,
    emit: () => undefined,
    fetch: adminFetch,
    env,
    // Not Protomaps' daily builds, which serve when no admin default is set: no test reaches the
    // internet (their imitation is in test/app/first-minutes.e2e.test.ts).
    dailyBuilds: null,
    // The rep's own loopback source is an address typed and confirmed in main's dialog.
    confirmLocalAddress: async () => true,
  });
  const router = createIpcRouter(services.handlers, {
    isTrustedSender: topFrameOfOrigins([APP_ORIGIN]),
    log: () => undefined,
  });
  const call = (channel: string, request?: unknown) => router.dispatch(channel, SENDER, request);
  const app: App = {
    services,
    call,
    async ok<T>(channel: string, request?: unknown) {
      const result = await call(channel, request);
      if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
      return result.value as T;
    },
  };
  apps.push(app);
  return app;
}

beforeAll(async () => {
  admin = await startRangeServer(townArchive());
  own = await startRangeServer(townArchive());
});

afterAll(async () => {
  for (const app of apps) await app.services.dispose();
  await admin?.close();
  await own?.close();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe('the admin default map source (FIELDMAP_REGION_SOURCE)', () => {
  it('is used while the rep has set none; the rep’s own wins; clearing it falls back', async () => {
    const app = await start({ FIELDMAP_REGION_SOURCE: ` ${ADMIN_URL} ` });
    const settings = await app.ok<Settings>('basemap:settings');
    expect(settings.regionSourceUrl).toBeNull();
    expect(settings.adminRegionSource).toEqual({ url: ADMIN_URL });

    const before = admin.requests.length;
    const estimate = await app.ok<Estimate>('regions:estimate', { area });
    expect(estimate).toMatchObject({ dataDate: DATA_DATE });
    expect(admin.requests.length).toBeGreaterThan(before);
    const started = await app.ok<ResponseOf<'regions:download'>>('regions:download', {
      area,
      name: 'From the admin source',
    });
    expect((await app.services.basemap.downloads.settled(started.id)).state).toBe('done');
    const [region] = await app.ok<ResponseOf<'regions:list'>>('regions:list');
    expect(region!.download?.url).toBe(ADMIN_URL);

    // The rep's own source wins over the default...
    await app.ok('basemap:set-settings', { regionSourceUrl: own.url });
    const adminCount = admin.requests.length;
    const ownCount = own.requests.length;
    await app.ok<Estimate>('regions:estimate', { area });
    expect(admin.requests.length).toBe(adminCount);
    expect(own.requests.length).toBeGreaterThan(ownCount);
    // ...and clearing it goes back to the default.
    const cleared = await app.ok<Settings>('basemap:set-settings', { regionSourceUrl: '' });
    expect(cleared).toMatchObject({ regionSourceUrl: null, adminRegionSource: { url: ADMIN_URL } });
    await app.ok<Estimate>('regions:estimate', { area });
    expect(admin.requests.length).toBeGreaterThan(adminCount);
  });

  it('reports an invalid default in the settings and refuses to use it, with the reason', async () => {
    const app = await start({ FIELDMAP_REGION_SOURCE: 'http://tiles.example.com/planet.pmtiles' });
    const settings = await app.ok<Settings>('basemap:settings');
    expect(settings.regionSourceUrl).toBeNull();
    const problem = (settings.adminRegionSource as { problem: string }).problem;
    expect(problem).toMatch(/FIELDMAP_REGION_SOURCE/);
    expect(problem).toMatch(/must start with https:\/\//);
    const refused = await app.call('regions:estimate', { area });
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.kind).toBe('InvalidRequest');
      expect(refused.error.message).toBe(problem);
    }
    // The rep can still set a source of their own, which is used.
    await app.ok('basemap:set-settings', { regionSourceUrl: own.url });
    expect((await app.ok<Estimate>('regions:estimate', { area })).dataDate).toBe(DATA_DATE);
  });

  it('refuses a default on this computer or the LAN: only an address the rep confirmed may be', async () => {
    for (const url of [admin.url, 'https://192.168.1.20/planet.pmtiles']) {
      const app = await start({ FIELDMAP_REGION_SOURCE: url });
      const settings = await app.ok<Settings>('basemap:settings');
      const problem = (settings.adminRegionSource as { problem: string }).problem;
      expect(problem).toMatch(/on this computer or the local network/);
      const before = admin.requests.length;
      const refused = await app.call('regions:estimate', { area });
      expect(!refused.ok && refused.error.message).toBe(problem);
      expect(admin.requests.length).toBe(before);
    }
  });

  it('never shows a password an admin put in the default URL', async () => {
    const app = await start({
      FIELDMAP_REGION_SOURCE: 'https://it:s3cret@tiles.example.com/a.pmtiles',
    });
    const settings = await app.ok<Settings>('basemap:settings');
    expect(JSON.stringify(settings)).not.toContain('s3cret');
    expect((settings.adminRegionSource as { problem: string }).problem).toMatch(/password/);
    const garbage = await start({ FIELDMAP_REGION_SOURCE: 'not a url' });
    const view = await garbage.ok<Settings>('basemap:settings');
    expect((view.adminRegionSource as { problem: string }).problem).toMatch(/not a valid URL/);
  });

  it('is absent when the variable is unset or empty', async () => {
    for (const env of [{}, { FIELDMAP_REGION_SOURCE: '  ' }]) {
      const app = await start(env);
      expect((await app.ok<Settings>('basemap:settings')).adminRegionSource).toBeNull();
      const refused = await app.call('regions:estimate', { area });
      expect(!refused.ok && refused.error.message).toMatch(/Set the map source/);
    }
  });
});
