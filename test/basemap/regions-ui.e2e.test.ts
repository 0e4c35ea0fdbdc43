// The Offline maps panel in the whole app (real main services, built renderer in Chromium, every
// request that leaves the app's origin blocked): a PMTiles archive made by the test is added by
// path (the browser runner has no file dialog), listed with size and area and drawn; the online
// style URL is checked (http refused) and a loopback style is drawn through the tile cache; the
// cache capacity is set and its use shown; after a restart all of it is still there (the online
// tiles from the cache, their server stopped); removing the region takes it off list, map and disk.
import { readdir, rm, stat, writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PALETTES } from '../../src-renderer/src/map/style/palette';
import { Formatter } from '../../src-renderer/src/ui/format';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import { signIn } from '../support/app-steps';
import { until } from '../support/until';
import {
  blockOutside,
  colorsAround,
  layerIds,
  ONLINE_RED,
  showMap,
  startStyleServer,
} from './app-map';
import { LAKE_CENTER, ONLINE_SQUARE_CENTER, regionArchive } from './fixture-tiles';
import { distance, hex, type Rgb } from './support';

/** The Protomaps light flavour's water colour (@protomaps/basemaps 5). */
const PROTOMAPS_WATER = '#80deea';
const PANEL = 'dialog[aria-labelledby]:has(h2:text("Offline maps"))';

let service: TestService;
let app: AppHandle;
let styles: Awaited<ReturnType<typeof startStyleServer>>;
let fixtureDir: string;
let fixture: string;
let picked: string | null = null;
let asked = 0;
const blocked: string[] = [];
const pageErrors: string[] = [];

const near = (color: string) => (c: Rgb) => distance(c, hex(color)) <= 8;
const anyNear = (colors: Rgb[], color: string) => colors.some(near(color));

async function openPanel(page: Page): Promise<void> {
  await page.click('button:has-text("Offline maps")');
  await page.waitForSelector(PANEL);
}

/** Only the basemap is drawn: the customers', territories' and routes' layers are turned off. */
async function basemapOnly(page: Page): Promise<void> {
  for (const group of ['customers', 'territories', 'routes'])
    await page.uncheck(`.fm-map-toggles input[name=${group}]`);
}

async function waitForApp(): Promise<void> {
  await app.page.waitForSelector('html[data-ready]', { state: 'attached' });
  await app.page.waitForSelector('.top-bar');
}

beforeAll(async () => {
  fixtureDir = await mkdtemp(join(tmpdir(), 'fieldmap-regions-ui-'));
  fixture = join(fixtureDir, 'Kansas fixture.pmtiles');
  await writeFile(fixture, regionArchive());
  styles = await startStyleServer();
  service = await startTestService({ customers: 5, seed: 12 });
  // Main's file dialog, answered as the rep would: `picked` is what the rep chooses next.
  app = await launchApp({
    serviceUrl: service.url,
    pickFile: async () => {
      asked++;
      return picked;
    },
  });
  await blockOutside(app, blocked);
  await signIn(app, service);
  await waitForApp();
});

afterAll(async () => {
  await app?.close();
  await service?.stop();
  await styles?.stop();
  await rm(fixtureDir, { recursive: true, force: true });
});

describe('Offline maps panel', () => {
  it("adds a region through main's file dialog: listed with size and area, drawn on the map", async () => {
    const { page } = app;
    await openPanel(page);
    // Cancelled: nothing added, nothing said.
    picked = null;
    await page.click('button:has-text("Add region…")');
    await until(() => asked === 1, 'the dialog asked once');
    await page.waitForSelector('button:has-text("Add region…"):not([disabled])');
    expect(await page.isVisible('[role=alert]')).toBe(false);
    expect(await app.call('listRegions')).toEqual([]);
    // A path typed on the runner's terminal is checked as any other.
    picked = 'relative/kansas.pmtiles';
    await page.click('button:has-text("Add region…")');
    expect(await page.textContent('[role=alert]')).toMatch(/full path/);

    picked = fixture;
    await page.click('button:has-text("Add region…")');
    const row = await page.waitForSelector('[aria-label="Offline regions"] li');
    const text = (await row.textContent()) ?? '';
    expect(text).toContain('Kansas fixture');
    expect(text).toContain(
      new Formatter('en-IE', () => 'km').megabytes((await stat(fixture)).size),
    );
    expect(text).toContain('37.5°N–39.5°N, 99.0°W–97.0°W');
    expect(text).toMatch(/about [\d,]+ km²/);

    await page.keyboard.press('Escape');
    await page.waitForSelector(PANEL, { state: 'detached' });
    await basemapOnly(page);
    await showMap(page, LAKE_CENTER, 7);
    expect(anyNear(await colorsAround(page, ...LAKE_CENTER, 2), PROTOMAPS_WATER)).toBe(true);
  });

  it('refuses an http style URL, accepts https, draws a loopback style, and sets the cache cap', async () => {
    const { page } = app;
    await openPanel(page);
    // The online map's address is folded under Advanced.
    await page.click('[data-advanced="online-map"] > summary');
    await page.fill('#om-style', 'http://example.com/style.json');
    await page.click('button:has-text("Save address")');
    expect(await page.textContent('[role=alert]')).toMatch(/must start with https:\/\//);

    // Accepted (main checks it too); nothing answers there, so the offline map stays.
    await page.fill('#om-style', 'https://127.0.0.1:9/style.json');
    await page.click('button:has-text("Save address")');
    await page.waitForSelector('[role=status]:has-text("Online map saved")');
    await page.waitForSelector(`${PANEL} p:has-text("could not be loaded")`);

    // A style on this computer (http allowed on loopback only), drawn through main's cache.
    await page.fill('#om-style', styles.styleUrl);
    await page.click('button:has-text("Save address")');
    await expect.poll(() => layerIds(page, 'online:')).toEqual(['online:areas']);
    await page.fill('#om-cap', '50');
    await page.click('button:has-text("Save capacity")');
    await page.waitForSelector('[role=status]:has-text("Capacity saved")');
    await page.keyboard.press('Escape');

    await showMap(page, ONLINE_SQUARE_CENTER, 6);
    expect(anyNear(await colorsAround(page, ...ONLINE_SQUARE_CENTER, 2), ONLINE_RED)).toBe(true);
    expect(styles.requests.some((r) => r.startsWith('/tiles/'))).toBe(true);

    // The cache now holds the style and its tiles: the panel shows how much of the 50 MB.
    await openPanel(page);
    const usage = page.locator(`${PANEL} .usage`);
    expect(await usage.getAttribute('data-cap')).toBe(String(50 * 1024 * 1024));
    expect(Number(await usage.getAttribute('data-used'))).toBeGreaterThan(0);
    expect((await usage.textContent())?.trim()).toMatch(
      /^Using [\d,.]+ [KM]B of 50 MB \([2-9]\d* files\)$/,
    );
    await page.keyboard.press('Escape');
  });

  it('after a restart, with the style server stopped: region, style and cap are all still there', async () => {
    await app.services.basemap.tiles.flush();
    await styles.stop();
    await app.restart();
    await blockOutside(app, blocked);
    // Loaded again with a listener: an error while the map starts with its regions is caught.
    app.page.on('pageerror', (error) => pageErrors.push(error.message));
    await app.page.reload();
    await waitForApp();
    const { page } = app;

    await openPanel(page);
    expect(await page.textContent('[aria-label="Offline regions"] li')).toContain('Kansas fixture');
    expect(await page.inputValue('#om-style')).toBe(styles.styleUrl);
    expect(await page.inputValue('#om-cap')).toBe('50');
    await page.keyboard.press('Escape');

    await basemapOnly(page);
    await showMap(page, LAKE_CENTER, 7);
    expect(anyNear(await colorsAround(page, ...LAKE_CENTER, 2), PROTOMAPS_WATER)).toBe(true);
    await expect.poll(() => layerIds(page, 'online:')).toEqual(['online:areas']);
    await showMap(page, ONLINE_SQUARE_CENTER, 6);
    expect(anyNear(await colorsAround(page, ...ONLINE_SQUARE_CENTER, 2), ONLINE_RED)).toBe(true);
  });

  it('removes the region after confirmation: gone from the list, the map and the disk', async () => {
    const { page } = app;
    const [region] = app.services.basemap.regions.list();
    const file = app.services.basemap.regions.fileOf(region!.id);
    await openPanel(page);
    await page.click('button[aria-label="Remove Kansas fixture"]');
    // Cancel first: nothing happens.
    await page.click('dialog:has-text("Remove this offline region?") button:has-text("Cancel")');
    expect(await page.isVisible('[aria-label="Offline regions"] li')).toBe(true);
    await page.click('button[aria-label="Remove Kansas fixture"]');
    await page.click(
      'dialog:has-text("Remove this offline region?") button:has-text("Remove region")',
    );
    await page.waitForSelector('[aria-label="Offline regions"]', { state: 'detached' });
    expect(await page.textContent(PANEL)).toContain('No offline regions yet');
    await page.keyboard.press('Escape');
    await page.waitForSelector(PANEL, { state: 'detached' });

    expect(await layerIds(page, 'region-')).toEqual([]);
    await showMap(page, LAKE_CENTER, 7);
    const colors = await colorsAround(page, ...LAKE_CENTER, 2);
    expect(anyNear(colors, PROTOMAPS_WATER)).toBe(false);
    expect(anyNear(colors, PALETTES.light.land)).toBe(true);
    await expect(stat(file)).rejects.toThrow();
    expect(await readdir(join(app.dataDir, 'regions'))).toEqual([]);
    expect(app.services.basemap.regions.list()).toEqual([]);
    expect(blocked).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
