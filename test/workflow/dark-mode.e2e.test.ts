// Dark mode follows the system (issue 28): the app's colours and the map's, through the runner
// (the built app in Chromium; the system's appearance is Chromium's emulated
// prefers-color-scheme, which is what Electron's nativeTheme hands the page).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PALETTES } from '../../src-renderer/src/map/style/palette';
import { BASEMAP_LAYER } from '../../src-renderer/src/map/style/bundled-layers';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import { signIn, waitRowsInHook } from '../support/app-steps';

let service: TestService;
let app: AppHandle;

beforeAll(async () => {
  service = await startTestService({ customers: 8, seed: 28 });
  app = await launchApp({ serviceUrl: service.url });
  await app.page.emulateMedia({ colorScheme: 'light' });
  await signIn(app, service);
  await app.page.waitForSelector('html[data-ready]', { state: 'attached' });
  // The first sync's customers are on the map: it fits to them once, and then stays put.
  await waitRowsInHook(app.page, 'Customers', 8);
  await app.page.waitForFunction(
    () =>
      ((
        document.querySelector('.fm-map') as
          (Element & { fieldmapMap?: { customers: { count: number } } }) | null
      )?.fieldmapMap?.customers.count ?? 0) > 0,
  );
});

afterAll(async () => {
  await app?.close();
  await service?.stop();
});

type MapHandle = {
  getPaintProperty(layer: string, name: string): unknown;
  getCenter(): { lng: number; lat: number };
  getZoom(): number;
  getStyle(): { layers: Array<{ id: string }> } | undefined;
};

/** What the rep sees: the page's surface and text, and the map's water, land and label halo. */
function looks(page: Page) {
  return page.evaluate(
    ([water, land, label]) => {
      const el = document.querySelector('.fm-map') as
        (Element & { fieldmapMap?: { map: MapHandle } }) | null;
      const map = el?.fieldmapMap?.map;
      const list = document.querySelector('[aria-label="Customers"]')!;
      return {
        page: getComputedStyle(document.body).backgroundColor,
        text: getComputedStyle(document.body).color,
        list: getComputedStyle(list.closest('nav') ?? list).backgroundColor,
        water: map?.getPaintProperty(water, 'background-color'),
        land: map?.getPaintProperty(land, 'fill-color'),
        halo: map?.getPaintProperty(label, 'text-halo-color'),
        camera: map ? { ...map.getCenter(), zoom: map.getZoom() } : null,
      };
    },
    [BASEMAP_LAYER.water, BASEMAP_LAYER.land, `${BASEMAP_LAYER.countryLabels}-1`] as const,
  );
}

const mapReady = (page: Page) =>
  page.waitForFunction(() => {
    const el = document.querySelector('.fm-map') as
      (Element & { fieldmapMap?: { map: MapHandle } }) | null;
    return Boolean(el?.fieldmapMap?.map.getStyle());
  });

describe('dark mode follows the system', () => {
  it('turns the app and the map dark and back as the system does, the map staying put', async () => {
    await mapReady(app.page);
    const light = await looks(app.page);
    expect(light).toMatchObject({
      page: 'rgb(255, 255, 255)',
      water: PALETTES.light.water,
      land: PALETTES.light.land,
      halo: PALETTES.light.labelHalo,
    });

    await app.page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(async () => (await looks(app.page)).water).toBe(PALETTES.dark.water);
    const dark = await looks(app.page);
    expect(dark).toMatchObject({
      page: 'rgb(28, 31, 35)',
      text: 'rgb(232, 234, 237)',
      land: PALETTES.dark.land,
      halo: PALETTES.dark.labelHalo,
    });
    // Repainted in place: the rep's view of the map did not move.
    expect(dark.camera).toEqual(light.camera);

    await app.page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(async () => (await looks(app.page)).water).toBe(PALETTES.light.water);
    expect((await looks(app.page)).page).toBe('rgb(255, 255, 255)');
  });

  it('starts dark when the system already is', async () => {
    await app.page.emulateMedia({ colorScheme: 'dark' });
    await app.page.reload();
    await app.page.waitForSelector('[aria-label="Customers"]');
    await mapReady(app.page);
    expect(await looks(app.page)).toMatchObject({
      page: 'rgb(28, 31, 35)',
      water: PALETTES.dark.water,
      land: PALETTES.dark.land,
    });
  });
});
