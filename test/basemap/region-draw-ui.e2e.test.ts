// Offline maps > Draw an area, in the whole app (real main services, built renderer in Chromium,
// every request leaving the app's origin blocked; the map source is a loopback range server): the
// rep draws a polygon with the mouse on the real map, sees its size, tile count, data date and
// max zoom, and downloads it cut by the polygon, not its bbox; a polygon that crosses itself is
// refused with the reason, and Esc cancels drawing. The app starts with an invalid administrator
// default source (FIELDMAP_REGION_SOURCE), which the panel reports.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNNER_ORIGIN } from '../../scripts/browser-runner/renderer-files';
import type { OfflineRegion, RegionEstimate } from '../../src-shared/basemap';
import type { AppHandle } from '../support/app';
import {
  layerIds,
  OFFLINE_MAPS_PANEL as PANEL,
  openOfflineMaps as openPanel,
  pagePoint,
  showMap,
  startDownloadApp,
  type DownloadApp,
} from './app-map';
import { latToY, lonToX } from './fixture-tiles';
import { readArchive } from './region-download-support';
import { AREA_BOUNDS } from './streets-fixture';

const AREAS = '[aria-label="Areas to download"]';
const DRAWN = `${AREAS} li:has-text("Drawn area")`;
const HINT = '.draw-hint[role=status]';
const [W, S, E, N] = AREA_BOUNDS;
const CENTER: [number, number] = [(W + E) / 2, (S + N) / 2];

let handle: DownloadApp;
let app: AppHandle;

/** Clicks the corners on the map, then the first one again to close the polygon. */
async function drawPolygon(page: Page, corners: Array<[number, number]>): Promise<void> {
  for (const [lng, lat] of [...corners, corners[0]!]) {
    const { x, y } = await pagePoint(page, lng, lat);
    await page.mouse.move(x, y, { steps: 4 });
    await page.mouse.click(x, y);
  }
}

/** The app's MapLibre map, as a page.evaluate sees it. */
type PageMap = {
  addSource(id: string, source: object): void;
  addLayer(layer: object): void;
  removeLayer(id: string): void;
  removeSource(id: string): void;
  isStyleLoaded(): boolean;
};
type MapElement = Element & { fieldmapMap: { map: PageMap } };

beforeAll(async () => {
  // As IT would set it on the laptop, wrongly: plain http to another machine.
  handle = await startDownloadApp({
    FIELDMAP_REGION_SOURCE: 'http://tiles.example.com/planet.pmtiles',
  });
  app = handle.app;
  for (const group of ['customers', 'territories', 'routes'])
    await app.page.uncheck(`.fm-map-toggles input[name=${group}]`);
});

afterAll(async () => {
  await handle?.close();
});

describe('Draw an area', () => {
  it('reports an invalid administrator default source, and takes the rep’s own', async () => {
    const { page } = app;
    await openPanel(page);
    const problem = await page.textContent(`${PANEL} .admin-source[role=alert]`);
    expect(problem).toMatch(/administrator set \(FIELDMAP_REGION_SOURCE\) is refused/);
    expect(problem).toMatch(/must start with https:\/\//);
    expect(await page.isDisabled(`${AREAS} li >> nth=0 >> button:has-text("Check size")`)).toBe(
      true,
    );
    // The map source is folded under Advanced.
    await page.click('[data-advanced="map-source"] > summary');
    await page.fill('#om-source', handle.source.url);
    await page.click('button:has-text("Save source")');
    await page.waitForSelector('[role=status]:has-text("Map source saved")');
    await page.keyboard.press('Escape');
    await page.waitForSelector(PANEL, { state: 'detached' });
  });

  it('draws a polygon with the mouse, estimates it and downloads only its tiles', async () => {
    const { page } = app;
    await showMap(page, CENTER, 12);
    await openPanel(page);
    await page.click(`${PANEL} button:has-text("Draw an area")`);
    await page.waitForSelector(PANEL, { state: 'detached' });
    await page.waitForSelector(HINT);
    // A triangle: the bbox's north-east corner is outside it.
    await drawPolygon(page, [
      [W, S],
      [E, S],
      [W, N],
    ]);
    await page.waitForSelector(PANEL);
    expect(await page.isVisible(HINT)).toBe(false);
    const text = ((await page.textContent(`${DRAWN} .estimate`)) ?? '').replace(/\s+/g, ' ').trim();
    expect(text).toMatch(/^[\d.]+ MB · [\d,]+ tiles · data of 1 Nov 2026 · max zoom 15$/);
    const shownTiles = Number(/([\d,]+) tiles/.exec(text)![1]!.replace(/,/g, ''));

    await page.click(`${DRAWN} button:has-text("Download")`);
    await page.waitForSelector('[aria-label="Offline regions"] li:has-text("Drawn area")');
    const region = app.services.basemap.regions
      .list()
      .find((r: OfflineRegion) => r.name === 'Drawn area')!;
    const area = region.download!.area;
    if (area.kind !== 'polygon') throw new Error(`downloaded a ${area.kind}`);
    // The ring is where the mouse clicked (a pixel at z12 is ~0.0002°), closed by terra-draw.
    const lons = area.ring.map((p) => p[0]);
    const lats = area.ring.map((p) => p[1]);
    const ringBox = [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)];
    ringBox.forEach((v, i) => expect(Math.abs(v - AREA_BOUNDS[i]!)).toBeLessThan(0.001));
    // The region's bounds are the polygon's bbox (the header stores them to 1e-7°).
    region.bounds.forEach((v, i) => expect(v).toBeCloseTo(ringBox[i]!, 6));

    // Cut by the polygon: fewer tiles than its bbox, the bbox's far corner left out.
    const bboxEstimate = await app.call<RegionEstimate>('estimateRegion', {
      area: { kind: 'bbox', bounds: ringBox },
      maxZoom: 15,
    });
    expect(shownTiles).toBeLessThan(bboxEstimate.tileCount * 0.8);
    const file = await readFile(join(app.dataDir, 'regions', `${region.id}.pmtiles`));
    const archive = readArchive(new Uint8Array(file), 'drawn');
    const header = await archive.getHeader();
    expect(header.numAddressedTiles).toBe(shownTiles);
    const [w, s, e, n] = ringBox as [number, number, number, number];
    expect(await archive.getZxy(15, lonToX(e, 15), latToY(n, 15))).toBeUndefined();
    for (const [lon, lat] of [
      [w + 0.001, s + 0.001],
      [e - 0.001, s + 0.001],
      [w + 0.001, n - 0.001],
    ] as const)
      expect(await archive.getZxy(15, lonToX(lon, 15), latToY(lat, 15))).toBeDefined();
    expect(handle.blocked).toEqual([]);
  });

  it('refuses a polygon that crosses itself, and Esc cancels drawing', async () => {
    const { page } = app;
    await showMap(page, CENTER, 12);
    await page.click(`${PANEL} button:has-text("Draw an area")`);
    await page.waitForSelector(HINT);
    // A bowtie: its second edge crosses its fourth.
    await drawPolygon(page, [
      [W, S],
      [E, N],
      [E, S],
      [W, N],
    ]);
    await page.waitForSelector(PANEL);
    expect(await page.textContent(`${DRAWN} .problem-text`)).toMatch(
      /outline crosses itself; draw it again/,
    );
    expect(await page.isVisible(`${DRAWN} button:has-text("Check size")`)).toBe(false);
    expect(await page.isVisible(`${DRAWN} button:has-text("Download")`)).toBe(false);

    // Esc while drawing: back to the panel, nothing drawn, the map no longer draws.
    await page.click(`${DRAWN} button:has-text("Draw again")`);
    await page.waitForSelector(HINT);
    const { x, y } = await pagePoint(page, CENTER[0], CENTER[1]);
    await page.mouse.move(x, y, { steps: 4 });
    await page.mouse.click(x, y);
    expect((await layerIds(page, 'td-')).length).toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    await page.waitForSelector(HINT, { state: 'detached' });
    await page.waitForSelector(PANEL);
    expect(await page.textContent(`${DRAWN} .problem-text`)).toMatch(/crosses itself/);
    // terra-draw stopped: its layers are gone from the map.
    expect(await layerIds(page, 'td-')).toEqual([]);
  });

  it('starts drawing while the map is still loading tiles', async () => {
    const { page } = app;
    await page.keyboard.press('Escape');
    await page.waitForSelector(PANEL, { state: 'detached' });
    // A layer whose tiles are held unanswered: the map stays "loading" all along.
    await app.context.route(`${RUNNER_ORIGIN}/held/**`, () => undefined);
    await page.evaluate((origin) => {
      const { map } = (document.querySelector('.fm-map') as MapElement).fieldmapMap;
      map.addSource('held', { type: 'raster', tiles: [`${origin}/held/{z}/{x}/{y}.png`] });
      map.addLayer({ id: 'held', type: 'raster', source: 'held' });
    }, RUNNER_ORIGIN);
    const loaded = () =>
      page.evaluate(() =>
        (document.querySelector('.fm-map') as MapElement).fieldmapMap.map.isStyleLoaded(),
      );
    await expect.poll(loaded).toBe(false);
    await openPanel(page);
    await page.click(`${PANEL} button:has-text("Draw an area")`);
    await page.waitForSelector(HINT);
    await drawPolygon(page, [
      [W, S],
      [E, S],
      [E, N],
    ]);
    await page.waitForSelector(`${DRAWN} .estimate`);
    expect(await loaded()).toBe(false);
    await page.evaluate(() => {
      const { map } = (document.querySelector('.fm-map') as MapElement).fieldmapMap;
      map.removeLayer('held');
      map.removeSource('held');
    });
  });
});
