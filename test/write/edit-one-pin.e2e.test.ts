// An edit touches one pin: on a 20,000-customer account, saving a colour change in the editor
// shows the pin in its new colour without reloading the map's clustered source of every
// customer (each reload is a setData of all pins and a re-cluster of all of them). The map
// marks every reload (MAP_SOURCE_RELOAD_MARK); the test counts them around the edit and its sync.
// The page reads back only the changed customer, not all 20,000 (idb-probe.ts counts its reads).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PALETTE } from '../../src-shared';
import {
  MAP_SOURCE_PATCH_MARK,
  MAP_SOURCE_RELOAD_MARK,
} from '../../src-renderer/src/map/drawn-mark';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import { signIn, syncNow, waitRows, waitSync } from '../support/app-steps';
import { customerIo, recordCustomerIo, resetCustomerIo } from './idb-probe';

const COUNT = 20_000;
const USER = 'rep';

let service: TestService;
let app: AppHandle;

const marks = (page: Page, name: string) =>
  page.evaluate((n) => performance.getEntriesByName(n).length, name);

type MapOf = { map: { on(e: 'resize', f: () => void): void } };

/**
 * GL programs the map has linked (MapLibre's painter keeps them by name and by which paint
 * properties are data-driven; internal, read here only). Under software GL a link is a
 * synchronous wait of the UI thread on the GPU process.
 */
const programs = (page: Page) =>
  page.evaluate(() => {
    type Painted = { map: { painter: { programCache: { programs: Record<string, unknown> } } } };
    const c = (document.querySelector('.fm-map') as Element & { fieldmapMap: Painted }).fieldmapMap;
    return Object.keys(c.map.painter.programCache.programs).sort();
  });

type ShownPin = { color: string; pending: boolean; hiddenUnder: boolean };

const shown = (pins: ShownPin[]) => pins.map(({ color, pending }) => ({ color, pending }));

/**
 * The pins drawn for a customer at its position (zoomed in past clustering): the visible ones,
 * and whether the clustered source's own pin for it is hidden (feature-state `replaced`).
 */
async function pinsOf(page: Page, id: string, lngLat: [number, number]): Promise<ShownPin[]> {
  return page.evaluate(
    async ([customerId, at]) => {
      type Feature = {
        id?: number | string;
        layer: { id: string };
        properties: Record<string, unknown>;
      };
      type Controller = {
        map: {
          jumpTo(o: { center: [number, number]; zoom: number }): void;
          once(e: string, f: () => void): void;
          triggerRepaint(): void;
          project(p: [number, number]): { x: number; y: number };
          getLayer(id: string): unknown;
          queryRenderedFeatures(b: unknown, o: { layers: string[] }): Feature[];
          getFeatureState(f: { source: string; id: number }): Record<string, unknown>;
        };
        customers: { customerIdAt(layer: string, fid: number): string | undefined };
      };
      const c = (document.querySelector('.fm-map') as Element & { fieldmapMap: Controller })
        .fieldmapMap;
      c.map.jumpTo({ center: at, zoom: 17 });
      await new Promise<void>((resolve) => {
        c.map.once('idle', resolve);
        c.map.triggerRepaint();
      });
      const p = c.map.project(at);
      const layers = ['fm-customers-pins', 'fm-customers-recent-pins'].filter((l) =>
        c.map.getLayer(l),
      );
      const box = [
        [p.x - 4, p.y - 4],
        [p.x + 4, p.y + 4],
      ];
      const hits = c.map
        .queryRenderedFeatures(box, { layers })
        .filter((f) => f.properties['id'] === customerId);
      const under = hits.find((f) => f.layer.id === 'fm-customers-pins');
      const hiddenUnder =
        under !== undefined &&
        c.map.getFeatureState({ source: 'fm-customers', id: under.id as number })['replaced'] ===
          true;
      return hits
        .filter((f) => c.customers.customerIdAt(f.layer.id, f.id as number) !== undefined)
        .map((f) => ({
          color: f.properties['color'] as string,
          pending: f.properties['pending'] === true,
          hiddenUnder,
        }));
    },
    [id, lngLat] as const,
  );
}

beforeAll(async () => {
  service = await startTestService({ customers: COUNT, seed: 31 });
  app = await launchApp({ serviceUrl: service.url });
});

afterAll(async () => {
  await app?.close();
  await service?.stop();
});

describe('an edit on a 20,000-customer account', () => {
  it('shows the new colour on the map without a full source reload, before and after its sync', async () => {
    const { page } = app;
    await signIn(app, service);
    await waitRows(page, 'Customers', COUNT);
    await waitSync(page, 'synced');

    const all = service.store.customers(USER);
    const target = all.find(
      (c) =>
        c.latitude !== null &&
        c.longitude !== null &&
        all.filter((o) => o.name.toLowerCase().includes(c.name.toLowerCase())).length === 1,
    )!;
    expect(target).toBeDefined();
    const at: [number, number] = [Number(target.longitude), Number(target.latitude)];
    const color = PALETTE.find((p) => p !== target.color)!;
    await expect
      .poll(async () => (await pinsOf(page, target.id, at)).map((p) => p.color))
      .toEqual([target.color]);

    await page.fill('input[aria-label="Search customers"]', target.name);
    // The search also matches other fields: pick the target's row among the few it shows.
    await page.click(
      `[aria-label="Customers"] button.customer-row:has-text(${JSON.stringify(target.name)})`,
    );
    await expect
      .poll(() => page.textContent('aside[aria-label="Customer details"] h2'))
      .toBe(target.name);
    // The pins and names of the clustered source were drawn at this zoom (pinsOf above).
    const linked = await programs(page);
    const reloads = await marks(page, MAP_SOURCE_RELOAD_MARK);
    const patches = await marks(page, MAP_SOURCE_PATCH_MARK);
    await recordCustomerIo(page);
    await resetCustomerIo(page);
    // Offline, so the edit stays queued (pending) until the test lets it sync.
    await app.setOffline(true);
    // The map's size stays: the editor takes the details' place at the same width. (Two frames
    // first: the map hears of the details panel's opening in a frame's resize observations.)
    await page.evaluate(async () => {
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const c = (document.querySelector('.fm-map') as Element & { fieldmapMap: MapOf }).fieldmapMap;
      const g = globalThis as unknown as { __resizes: number };
      g.__resizes = 0;
      c.map.on('resize', () => (g.__resizes += 1));
    });
    await page.click('aside[aria-label="Customer details"] button:has-text("Edit")');
    await page.waitForSelector(`aside[data-editing="${target.id}"]`);
    await page.check(`input[name="color"][value="${color}"]`);
    await page.click('button:has-text("Save changes")');
    await page.waitForSelector('aside[data-editing]', { state: 'detached' });

    // Shown once, in the new colour and marked pending, with no reload of every pin: the old
    // pin under it is hidden and a patch drew the new one.
    await expect
      .poll(async () => shown(await pinsOf(page, target.id, at)))
      .toEqual([{ color, pending: true }]);
    expect(await marks(page, MAP_SOURCE_RELOAD_MARK)).toBe(reloads);
    expect((await pinsOf(page, target.id, at))[0]?.hiddenUnder).toBe(true);
    expect(await marks(page, MAP_SOURCE_PATCH_MARK)).toBeGreaterThan(patches);
    // The recent pins and names (drawn now, names too at zoom 17) reuse those programs: the
    // first edit links none.
    expect(await programs(page)).toEqual(linked);
    expect(
      await page.evaluate(() => (globalThis as unknown as { __resizes: number }).__resizes),
    ).toBe(0);
    // The page read back the changed customer, not the whole account, and wrote nothing itself.
    expect(await customerIo(page)).toMatchObject({ written: 0 });
    expect((await customerIo(page)).read).toBeLessThan(100);

    // Its sync (upload, then the pull of the change) also patches the one pin.
    await app.setOffline(false);
    await syncNow(page);
    await waitSync(page, 'synced');
    expect(service.store.customer(USER, target.id)!.color).toBe(color);
    await expect
      .poll(async () => shown(await pinsOf(page, target.id, at)))
      .toEqual([{ color, pending: false }]);
    expect(await marks(page, MAP_SOURCE_RELOAD_MARK)).toBe(reloads);
    expect((await customerIo(page)).read).toBeLessThan(100);
  });
});
