// Offline regions end to end: a PMTiles archive made by the test is added through the main-side
// BasemapService (copied into the data dir, remembered in regions.json), read by the renderer with
// HTTP range requests, drawn with the Protomaps layers offline, and removed again.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BasemapService } from '../../src-main/core/basemap/service';
import { OfflineRegions } from '../../src-main/core/basemap/offline-regions';
import { PALETTES } from '../../src-renderer/src/map/style/palette';
import { LAKE_CENTER, REGION_BOUNDS, regionArchive } from './fixture-tiles';
import {
  call,
  distance,
  hex,
  openBasemapPage,
  type BasemapPage,
  type Rgb,
  type Served,
} from './support';

/** The Protomaps light flavour's water colour (@protomaps/basemaps 5). */
const PROTOMAPS_WATER = '#80deea';

let dataDir: string;
let archivePath: string;
let basemap: BasemapService;
let session: BasemapPage;
let page: Page;
let served: Served;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fieldmap-regions-'));
  archivePath = join(dataDir, 'kansas-fixture.pmtiles');
  await writeFile(archivePath, regionArchive());
  basemap = await BasemapService.open({
    dataDir,
    fetch: () => Promise.reject(new Error('offline')),
  });
  session = await openBasemapPage(() => basemap);
  ({ page, served } = session);
});

afterAll(async () => {
  await session?.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe('offline regions (main side)', () => {
  it('adds a copy with the header bounds, zooms and size, and remembers it across a restart', async () => {
    const region = await basemap.regions.add(archivePath, 'Kansas fixture');
    expect(region).toMatchObject({
      name: 'Kansas fixture',
      bounds: REGION_BOUNDS,
      minZoom: 0,
      maxZoom: 10,
    });
    expect(region.sizeBytes).toBe((await stat(archivePath)).size);
    expect(await readFile(basemap.regions.fileOf(region.id))).toEqual(await readFile(archivePath));
    const reopened = await OfflineRegions.open({ dataDir });
    expect(reopened.list()).toEqual([region]);
  });

  it('answers range reads as HTTP does (206, clamped end, suffix, 416)', async () => {
    const [region] = basemap.regions.list();
    const size = region!.sizeBytes;
    const head = await basemap.regions.serveRange(region!.id, 'bytes=0-6');
    expect(head.status).toBe(206);
    expect(Buffer.from(head.body!).toString('ascii')).toBe('PMTiles');
    expect(head.headers['Content-Range']).toBe(`bytes 0-6/${size}`);
    // pmtiles asks for the first 16 KiB of any archive: the end is clamped to the file.
    const first = await basemap.regions.serveRange(region!.id, 'bytes=0-16383');
    expect(first.body!.length).toBe(size);
    expect(first.headers['Content-Range']).toBe(`bytes 0-${size - 1}/${size}`);
    expect((await basemap.regions.serveRange(region!.id, 'bytes=-10')).body!.length).toBe(10);
    expect((await basemap.regions.serveRange(region!.id, `bytes=${size}-`)).status).toBe(416);
    expect((await basemap.regions.serveRange('no-such-region', 'bytes=0-1')).status).toBe(404);
  });

  it('refuses a file that is not a vector PMTiles archive', async () => {
    const bogus = join(dataDir, 'bogus.pmtiles');
    await writeFile(bogus, 'not an archive at all, but long enough to hold a header'.repeat(4));
    await expect(basemap.regions.add(bogus, 'bogus')).rejects.toThrow(/not a PMTiles archive/);
    expect(basemap.regions.list()).toHaveLength(1);
  });
});

describe('offline regions (renderer, every outside request blocked)', () => {
  const view = { center: LAKE_CENTER, zoom: 7 };

  it('draws the region over the bundled layer, and removing it takes it away', async () => {
    const [region] = basemap.regions.list();
    const source = { id: region!.id, url: `regions/${region!.id}.pmtiles` };
    const near = (c: Rgb, color: string) => distance(c, hex(color)) <= 8;

    // Without the region, Kansas is plain bundled land.
    await call(page, 'show', view);
    expect(await call<Rgb>(page, 'colorAt', ...LAKE_CENTER)).toSatisfy((c: Rgb) =>
      near(c, PALETTES.light.land),
    );

    await call(page, 'setRegions', [source]);
    expect(await call<Rgb>(page, 'colorAt', ...LAKE_CENTER)).toSatisfy((c: Rgb) =>
      near(c, PROTOMAPS_WATER),
    );
    // The highway (white with a grey casing) crosses the region at 39.2°N.
    const road = await call<Rgb[]>(page, 'column', -98.6, 39.1, 39.3);
    expect(road.some((c) => c[0] > 250 && c[1] > 250 && c[2] > 250)).toBe(true);
    expect(await call<string>(page, 'attribution')).toMatch(/OpenStreetMap/);

    // Remembered: a fresh map built from the registry shows it too.
    await call(page, 'show', { ...view, regions: [source] });
    expect(await call<Rgb>(page, 'colorAt', ...LAKE_CENTER)).toSatisfy((c: Rgb) =>
      near(c, PROTOMAPS_WATER),
    );

    expect(await basemap.regions.remove(region!.id)).toBe(true);
    await call(page, 'setRegions', []);
    expect(await call<Rgb>(page, 'colorAt', ...LAKE_CENTER)).toSatisfy((c: Rgb) =>
      near(c, PALETTES.light.land),
    );
    expect(basemap.regions.list()).toEqual([]);
    expect((await OfflineRegions.open({ dataDir })).list()).toEqual([]);
    await expect(stat(basemap.regions.fileOf(region!.id))).rejects.toThrow();
    expect(served.blocked).toEqual([]);
  });
});
