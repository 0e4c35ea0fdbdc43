// "Download my area" in the whole app (real main services, built renderer in Chromium, every
// request leaving the app's origin blocked; the map source is a loopback range server): the rep
// saves the source, takes the current view, sees its size, tile count and data date, downloads
// it, and with the source gone sees streets and street names at z15 with the OSM credit shown.
// FIELDMAP_DOCS_SHOT=<path> also saves the screenshot used in the README (docs/offline-streets.png).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppHandle } from '../support/app';
import {
  colorsAround,
  OFFLINE_MAPS_PANEL as PANEL,
  openOfflineMaps as openPanel,
  showMap,
  startDownloadApp,
  type DownloadApp,
} from './app-map';
import type { RangeServer } from './range-server';
import { AREA_BOUNDS, MAIN_STREET_LAT } from './streets-fixture';
import { luminance } from './support';

const CENTER: [number, number] = [(AREA_BOUNDS[0] + AREA_BOUNDS[2]) / 2, MAIN_STREET_LAT];

let handle: DownloadApp;
let app: AppHandle;
let source: RangeServer;
let blocked: string[];

beforeAll(async () => {
  handle = await startDownloadApp();
  ({ app, source, blocked } = handle);
});

afterAll(async () => {
  await handle?.close();
});

describe('Download my area', () => {
  it('estimates, downloads and draws streets offline at z15', async () => {
    const { page } = app;
    for (const group of ['customers', 'territories', 'routes'])
      await page.uncheck(`.fm-map-toggles input[name=${group}]`);
    await showMap(page, CENTER, 14);
    await openPanel(page);
    // The areas proposed from the account's customers are listed before any source is set
    // (found by a worker: they come a moment after the panel).
    await page.waitForSelector('[aria-label="Areas to download"] li:has-text("customer")');
    // The map source is folded under Advanced.
    await page.click('[data-advanced="map-source"] > summary');
    await page.fill('#om-source', 'http://tiles.example.com/planet.pmtiles');
    await page.click('button:has-text("Save source")');
    expect(await page.textContent(`${PANEL} [role=alert]`)).toMatch(/must start with https:\/\//);
    await page.fill('#om-source', source.url);
    await page.click('button:has-text("Save source")');
    await page.waitForSelector('[role=status]:has-text("Map source saved")');

    // The view again, just before it is taken: the app's own first fit to its data can land
    // after the first jump and leave a continent in view (then the area is refused as too large).
    await showMap(page, CENTER, 14);
    await page.click('button:has-text("Use current view")');
    const row = '[aria-label="Areas to download"] li:has-text("Current view")';
    // The estimate, or the problem the panel shows instead (named in the failure).
    await page.click(`${row} button:has-text("Check size")`);
    const shown = await page.waitForSelector(`${row} .estimate, ${row} .problem-text`);
    const estimate = ((await shown.textContent()) ?? '').replace(/\s+/g, ' ');
    expect(estimate).toMatch(/MB · [\d,]+ tiles · data of 1 Nov 2026/);
    await page.click(`${row} button:has-text("Download")`);
    const region = await page.waitForSelector(
      '[aria-label="Offline regions"] li:has-text("Current view")',
    );
    expect(await region.textContent()).toContain('Data of 1 Nov 2026');
    expect(await page.isVisible('button[aria-label="Update Current view"]')).toBe(true);
    // The area it came from is marked as already on this laptop.
    await page.waitForSelector(`${row} [data-held]:has-text("Already on this laptop")`);
    await page.keyboard.press('Escape');
    await page.waitForSelector(PANEL, { state: 'detached' });

    // The network is cut: the source is gone, every outside request is blocked.
    await source.close();
    await showMap(page, CENTER, 15);
    const across = await colorsAround(page, CENTER[0], MAIN_STREET_LAT, 3);
    expect(across.some((c) => c[0] > 250 && c[1] > 250 && c[2] > 250)).toBe(true);
    let dark = 0;
    for (let dx = -0.004; dx <= 0.004; dx += 0.001)
      dark += (await colorsAround(page, CENTER[0] + dx, MAIN_STREET_LAT, 20)).filter(
        (c) => luminance(c) < 190,
      ).length;
    expect(dark).toBeGreaterThan(30);
    expect(await page.textContent('.maplibregl-ctrl-attrib')).toMatch(/OpenStreetMap contributors/);
    if (process.env['FIELDMAP_DOCS_SHOT'])
      await page.screenshot({ path: process.env['FIELDMAP_DOCS_SHOT'] });
    expect(blocked).toEqual([]);
  });
});
