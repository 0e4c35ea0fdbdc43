// The first minutes with a fresh install (issue 29): with no settings at all, the map asks main
// for the default online style (OpenFreeMap's; here a local imitation standing in for its
// address) and draws its tiles through main's tile cache. No test reaches the internet. The
// panel a rep opens beside the map leaves what it shows in view, at any window size.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, startTestService, type AppHandle } from '../support/app';
import { signIn, waitRows } from '../support/app-steps';
import { until } from '../support/until';
import { startStyleServer } from '../basemap/style-server';
import { openOfflineMaps } from '../basemap/app-map';

let server: Awaited<ReturnType<typeof startStyleServer>>;
let app: AppHandle | undefined;

beforeAll(async () => {
  server = await startStyleServer();
});

afterAll(async () => {
  await app?.close();
  await server?.stop();
});

describe('a fresh install, online', () => {
  it('draws the default online style with no settings, its tiles through main', async () => {
    app = await launchApp({ demo: true, defaultOnlineStyle: server.styleUrl });
    await until(
      () => server.requests.some((r) => r.startsWith('/tiles/')),
      'a tile of the default style requested',
    );
    expect(server.requests).toContain('/style.json');
    // Nothing was typed or confirmed: the style is the default, not a setting of the rep's.
    expect(app.localAddressQuestions).toEqual([]);
  });
});

describe('areas named as a rep names them', () => {
  it('proposes download areas by their main city, biggest first, never by coordinates', async () => {
    const service = await startTestService({ customers: 2_000, seed: 29 });
    const rep = await launchApp({ serviceUrl: service.url });
    try {
      await signIn(rep, service);
      await waitRows(rep.page, 'Customers', 2_000);
      await openOfflineMaps(rep.page);
      const rows = rep.page.locator('[aria-label="Areas to download"] li:has-text("customers")');
      await until(async () => (await rows.count()) > 3, 'the areas proposed around customers');
      const areas = await rows.evaluateAll((lis) =>
        lis.map((li) => ({
          name: li.querySelector('.name')?.textContent?.trim() ?? '',
          count: Number(/([\d,]+) customers?/.exec(li.textContent ?? '')?.[1]?.replace(/,/g, '')),
        })),
      );
      const cities = new Set(service.store.customers('rep').map((c) => c.city));
      for (const { name } of areas) {
        expect(name).not.toMatch(/°|\d+\.\d+/);
        const [, city] = /^(.+?)(?: and [\d,]+ nearby towns?)?(?: \(part \d+ of \d+\))?$/.exec(
          name,
        )!;
        expect(cities, name).toContain(city);
      }
      // Biggest first: the metro with the most of the account's customers heads the list.
      const counts = areas.map((a) => a.count);
      expect(counts).toEqual([...counts].sort((a, b) => b - a));
      const byCity = new Map<string, number>();
      for (const c of service.store.customers('rep'))
        if (c.latitude !== null) byCity.set(c.city, (byCity.get(c.city) ?? 0) + 1);
      const biggest = [...byCity].sort((a, b) => b[1] - a[1])[0]![0];
      expect(areas[0]!.name.startsWith(biggest)).toBe(true);
    } finally {
      await rep.close();
      await service.stop();
    }
  });
});

type MapEl = Element & {
  fieldmapMap: {
    map: {
      getCanvas(): HTMLCanvasElement;
      project(p: [number, number]): { x: number; y: number };
      jumpTo(o: object): void;
      panBy(d: [number, number], o: object): void;
      isMoving(): boolean;
    };
  };
};

/** Where the customer's pin is on the map's canvas, and the canvas' size, now. */
const pinOnCanvas = (page: Page, at: [number, number]) =>
  page.evaluate((p) => {
    const { map } = (document.querySelector('.fm-map') as MapEl).fieldmapMap;
    const { x, y } = map.project(p);
    const canvas = map.getCanvas();
    return { x, y, width: canvas.clientWidth, height: canvas.clientHeight, moving: map.isMoving() };
  }, at);

describe('the map makes room for what the rep opens', () => {
  it('a pin clicked near the right edge stays in view beside its details, at two window sizes', async () => {
    const service = await startTestService({ customers: 12, seed: 29 });
    const rep = await launchApp({ serviceUrl: service.url });
    try {
      await signIn(rep, service);
      await waitRows(rep.page, 'Customers', 12);
      const customer = service.store.customers('rep').find((c) => c.latitude !== null)!;
      const at: [number, number] = [customer.longitude!, customer.latitude!];
      for (const size of [
        { width: 1280, height: 800 },
        { width: 1000, height: 700 },
      ]) {
        await rep.page.setViewportSize(size);
        if (await rep.page.isVisible('aside.detail-panel')) await rep.page.keyboard.press('Escape');
        await rep.page.waitForSelector('aside.detail-panel', { state: 'detached' });
        // The pin 60 px from the map's right edge, at street zoom (no cluster).
        const before = await rep.page.evaluate((p) => {
          const { map } = (document.querySelector('.fm-map') as MapEl).fieldmapMap;
          map.jumpTo({ center: p, zoom: 16 });
          const width = map.getCanvas().clientWidth;
          map.panBy([map.project(p).x - (width - 60), 0], { animate: false });
          return { ...map.project(p), width };
        }, at);
        const canvas = (await rep.page.locator('.fm-map-canvas').boundingBox())!;
        await until(async () => {
          await rep.page.mouse.click(canvas.x + before.x, canvas.y + before.y);
          return rep.page.isVisible('aside.detail-panel');
        }, `the details of the pin clicked at ${size.width}×${size.height}`);
        // The details took width from the map; the pin is still on it, clear of the edges.
        let after = await pinOnCanvas(rep.page, at);
        await until(async () => {
          after = await pinOnCanvas(rep.page, at);
          return !after.moving && after.width < before.width && after.x <= after.width - 40;
        }, `the map narrowed by the details at ${size.width}×${size.height}, the pin in view`);
        expect(after.x, `${size.width}×${size.height}`).toBeGreaterThanOrEqual(40);
        expect(after.y).toBeGreaterThanOrEqual(40);
        expect(after.y).toBeLessThanOrEqual(after.height - 40);
      }
    } finally {
      await rep.close();
      await service.stop();
    }
  });
});

describe('Download my area with no settings, and a map that says what to do', () => {
  // The Protomaps daily builds are played by a local imitation: its list names an older build,
  // the newest one and entries that sort later but must not be used. Its steps are a module of
  // their own (imported here, so this block is all this file holds of them).
  let steps: typeof import('../basemap/daily-builds-steps');
  let builds: import('../basemap/daily-builds-steps').BuildsServer;
  beforeAll(async () => {
    steps = await import('../basemap/daily-builds-steps');
    builds = await steps.startBuildsServer();
  });
  afterAll(async () => {
    await builds?.close();
  });

  it('a fresh install checks the size and downloads from the newest daily build', async () => {
    const { VIEW_ROW, NEWEST_KEY, OFFLINE_MAPS_PANEL } = steps;
    builds.paths.length = 0;
    const { rep, blocked, close } = await steps.freshApp(builds);
    try {
      const { page } = rep;
      await steps.openOfflineMaps(page);
      await page.waitForSelector('.admin-source:has-text("newest Protomaps daily build")');
      // Nothing is read from the builds until the rep asks.
      expect(builds.paths).toEqual([]);
      expect(await steps.checkViewSize(page)).toMatch(/MB · [\d,]+ tiles · data of 1 Nov 2026/);
      await page.click(`${VIEW_ROW} button:has-text("Download")`);
      await page.waitForSelector('[aria-label="Offline regions"] li:has-text("Current view")');
      const [region] = rep.services.basemap.regions.list();
      expect(region?.download?.url).toBe(`${builds.origin}/${NEWEST_KEY}`);
      // The list once (the check and the download share it), then ranges of the newest build
      // only: not the older one, nor the entries that sort later but are malformed.
      expect(builds.paths[0]).toBe('/builds.json');
      expect(new Set(builds.paths.slice(1))).toEqual(new Set([`/${NEWEST_KEY}`]));
      expect(await page.textContent(`${OFFLINE_MAPS_PANEL} .hint:has-text("Street data")`)).toMatch(
        /OpenStreetMap contributors.*Protomaps/,
      );
      expect(rep.localAddressQuestions).toEqual([]);
      expect(blocked).toEqual([]);
    } finally {
      await close();
    }
  });

  it('an administrator turns the default off; the rep’s own source still works', async () => {
    const { VIEW_ROW } = steps;
    builds.paths.length = 0;
    const { rep, close } = await steps.freshApp(builds, { FIELDMAP_REGION_SOURCE: 'off' });
    try {
      const { page } = rep;
      await steps.openOfflineMaps(page);
      await page.waitForSelector(
        '.admin-source:has-text("Your administrator turned the default map source off")',
      );
      await steps.showMap(page, steps.TOWN, 14);
      await page.click('button:has-text("Use current view")');
      expect(await page.locator(`${VIEW_ROW} button:has-text("Check size")`).isDisabled()).toBe(
        true,
      );
      // The rep's own source (here the older build, typed and confirmed) serves all the same.
      await page.fill('#om-source', `${builds.origin}/20261120.pmtiles`);
      await page.click('button:has-text("Save source")');
      await page.waitForSelector('[role=status]:has-text("Map source saved")');
      expect(await steps.checkViewSize(page)).toMatch(/data of 1 Nov 2026/);
      expect(builds.paths.length).toBeGreaterThan(0);
      expect(new Set(builds.paths)).toEqual(new Set(['/20261120.pmtiles']));
    } finally {
      await close();
    }
  });

  it('offline with no region and no cache, the map says what to do until streets draw', async () => {
    const { ONLINE_SQUARE_CENTER: SQUARE } = steps;
    const style = await startStyleServer();
    const { rep, close } = await steps.reopenedOffline(style.styleUrl);
    try {
      const { page } = rep;
      await page.waitForSelector('.top-bar');
      const line = page.locator('.no-streets[role=status]');
      await steps.showMap(page, SQUARE, 10);
      await line.waitFor();
      expect(await line.textContent()).toMatch(
        /No streets here yet: connect to the internet, or download your area in Offline maps/,
      );
      // At country zoom the bundled world map is the map: nothing to say.
      await steps.showMap(page, SQUARE, 5);
      await line.waitFor({ state: 'detached' });
      await steps.showMap(page, SQUARE, 10);
      await line.waitFor();
      // The network comes back: the default style draws its streets, and the line goes.
      await rep.setOffline(false);
      await line.waitFor({ state: 'detached' });
      expect(style.requests).toContain('/style.json');
      await steps.showMap(page, SQUARE, 11);
      expect(await line.count()).toBe(0);
    } finally {
      await close();
      await style.stop();
    }
  });
});
