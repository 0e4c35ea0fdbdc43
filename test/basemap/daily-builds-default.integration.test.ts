// Which source "Download my area" reads, through the real IPC router and main services on a temp
// dir: with no settings the newest Protomaps daily build (a local imitation,
// protomaps-builds-server.ts), the administrator's FIELDMAP_REGION_SOURCE over it, "off" for
// none; an unreadable list refused in one line with nothing lost; a downloaded region keeps the
// build it came from, and Update reads the list again for the newest.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { InvokeChannel, RequestOf, ResponseOf } from '../../src-shared/ipc-contract';
import { MemoryCredentialStore } from '../../scripts/browser-runner/credentials';
import type { Clock } from '../../src-main/core/ports';
import { startApp, type AppUnderTest } from '../support/main';
import { until } from '../support/until';
import { startRangeServer, type RangeServer } from './range-server';
import { AREA_BOUNDS, townArchive } from './streets-fixture';
import {
  BUILDS_LIST,
  NEWEST_KEY,
  startBuildsServer,
  type BuildsServer,
} from './protomaps-builds-server';

const area = { kind: 'bbox', bounds: AREA_BOUNDS } as const;
const ADMIN_URL = 'https://tiles.example.com/planet.pmtiles';
const HOUR = 60 * 60 * 1000;

type Region = ResponseOf<'regions:list'>[number];

let builds: BuildsServer;
let admin: RangeServer;
const apps: AppUnderTest[] = [];
/** Main's clock: real time plus what a test adds (the hour the newest build is kept). */
let ahead = 0;
const clock: Clock = { now: () => Date.now() + ahead, sleep: async () => undefined };
/** The administrator's https source, played by a loopback range server (no DNS here). */
const adminFetch: typeof fetch = (input, init) =>
  fetch(String(input).replace(ADMIN_URL, admin.url), init);

/** Main's services behind the real IPC router (test/support/main.ts), with this file's clock. */
async function start(env: Record<string, string> = {}): Promise<AppUnderTest> {
  const app = await startApp({
    credentialStore: new MemoryCredentialStore(),
    restore: false,
    clock,
    fetch: adminFetch,
    env,
    dailyBuilds: builds.builds,
    confirmLocalAddress: async () => false,
  });
  apps.push(app);
  return app;
}

async function refusal<C extends InvokeChannel>(
  app: AppUnderTest,
  channel: C,
  request: RequestOf<C>,
): Promise<string> {
  const result = await app.call(channel, request);
  if (result.ok) throw new Error(`${channel} was accepted`);
  return result.error.message;
}

beforeAll(async () => {
  builds = await startBuildsServer();
  admin = await startRangeServer(townArchive());
});

beforeEach(() => {
  builds.paths.length = 0;
  builds.list = { body: BUILDS_LIST };
  ahead = 0;
});

afterAll(async () => {
  for (const app of apps) await app.dispose();
  await builds?.close();
  await admin?.close();
});

describe('the default map source', () => {
  it('is the newest daily build with no settings, its list read once for both steps', async () => {
    const app = await start();
    expect((await app.ok('basemap:settings')).dailyBuilds).toBe(true);
    expect(builds.paths).toEqual([]);
    await app.ok('regions:estimate', { area });
    await app.ok('regions:estimate', { area, maxZoom: 14 });
    expect(builds.paths.filter((p) => p === '/builds.json')).toHaveLength(1);
    expect(new Set(builds.paths.slice(1))).toEqual(new Set([`/${NEWEST_KEY}`]));
  });

  it("is the administrator's source when one is set; the daily builds are not read", async () => {
    const app = await start({ FIELDMAP_REGION_SOURCE: ADMIN_URL });
    expect((await app.ok('basemap:settings')).dailyBuilds).toBe(false);
    const before = admin.requests.length;
    await app.ok('regions:estimate', { area });
    expect(admin.requests.length).toBeGreaterThan(before);
    expect(builds.paths).toEqual([]);
  });

  it('is none when the administrator turns it off, with the reason', async () => {
    const app = await start({ FIELDMAP_REGION_SOURCE: ' OFF ' });
    const settings = await app.ok('basemap:settings');
    expect(settings).toMatchObject({ dailyBuilds: false, adminRegionSource: { off: true } });
    expect(await refusal(app, 'regions:estimate', { area })).toMatch(
      /administrator turned the default map source off: save a map source here/,
    );
    expect(builds.paths).toEqual([]);
  });

  it('says in one line why when its list cannot be read, and loses nothing', async () => {
    const app = await start();
    builds.list = { text: '<html>Maintenance</html>' };
    const message = await refusal(app, 'regions:download', { area, name: 'Town' });
    expect(message).toMatch(/^The public map \(Protomaps daily build\) could not be found: .+\.$/);
    expect(message).not.toContain('\n');
    expect(await app.ok('regions:list')).toEqual([]);
    expect(await app.ok('regions:downloads')).toEqual([]);
    // A failure is not kept: the next press reads the list again.
    builds.list = { body: BUILDS_LIST };
    await app.ok('regions:estimate', { area });
  });

  it('keeps the build a region came from; Update reads the newest again', async () => {
    const app = await start();
    const regions = () => app.services.basemap.regions.list();
    await app.ok('regions:download', { area, name: 'Town', maxZoom: 12 });
    await until(() => regions().length === 1, 'the town downloaded');
    const [first] = regions() as Region[];
    expect(first!.download?.url).toBe(`${builds.origin}/${NEWEST_KEY}`);
    // A day later a new build is out; the hour the newest is kept has passed.
    builds.list = {
      body: [...BUILDS_LIST, { key: '20261128.pmtiles', size: 1, version: '4.13.3' }],
    };
    ahead = 2 * HOUR;
    await app.ok('regions:download', { area, name: 'Town', maxZoom: 12, replaces: first!.id });
    await until(
      () => regions().length === 1 && regions()[0]!.id !== first!.id,
      'the town replaced',
    );
    expect(regions()[0]!.download?.url).toBe(`${builds.origin}/20261128.pmtiles`);
  });
});
