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
