// The read side end to end: the real main-process services and the built renderer in Chromium
// (test/support/app.ts), against the reference service over loopback HTTP. A first sync fills
// the cache and the list; user text stays text; a restart while offline shows the same data
// from the cache without a single request to the service.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ROUTE_LAYER } from '../../src-renderer/src/map/layers/route-layer';
import { TERRITORY_LAYER } from '../../src-renderer/src/map/layers/territory-layer';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import { renderedCount } from '../support/app-steps';

/** Distinct record ids drawn in a map layer (the whole world in view: fitted to the data). */
async function drawnIds(page: Page, layer: string): Promise<string[]> {
  return page.evaluate((layerId) => {
    type Feature = { properties: Record<string, unknown> };
    type Controller = { map: { queryRenderedFeatures(o: { layers: string[] }): Feature[] } };
    const el = document.querySelector('.fm-map') as (Element & { fieldmapMap?: Controller }) | null;
    const features = el?.fieldmapMap?.map.queryRenderedFeatures({ layers: [layerId] }) ?? [];
    return [...new Set(features.map((f) => String(f.properties['id'])))].sort();
  }, layer);
}

const XSS = '<img src=x onerror=alert(1)>';

let service: TestService;
let app: AppHandle;
const dialogs: string[] = [];

function watchDialogs(a: AppHandle): void {
  a.page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
}

async function waitRows(a: AppHandle, label: string, want: number): Promise<void> {
  await expect
    .poll(() => a.page.getAttribute(`[aria-label="${label}"]`, 'data-rows'))
    .toBe(String(want));
}

beforeAll(async () => {
  service = await startTestService({ customers: 400, seed: 31 });
  service.store.createCustomerDirect('rep', {
    name: XSS,
    company: `${XSS} <b>bold</b>`,
    latitude: 48.1,
    longitude: 11.5,
  });
  app = await launchApp({ serviceUrl: service.url });
  watchDialogs(app);
});

afterAll(async () => {
  await app?.close();
  await service?.stop();
});

describe('read side against the real main services', () => {
  it('fills the cache and the list on the first sync', async () => {
    const { username, password } = service.account;
    await app.call('login', { baseUrl: service.url, username, password });
    await waitRows(app, 'Customers', service.store.customers('rep').length);
    await app.page.waitForSelector('html[data-ready]', { state: 'attached' });
    const unmapped = service.store
      .customers('rep')
      .filter((c) => c.latitude === null || (c.latitude === 0 && c.longitude === 0)).length;
    await app.page.click('button[data-tab="unmapped"]');
    await waitRows(app, 'Unmapped customers', unmapped);
    await app.page.click('button[data-tab="routes"]');
    await expect
      .poll(() => app.page.locator('[aria-label="Routes"] button').count())
      .toBe(service.store.routes('rep').length);
    await app.page.click('button[data-tab="territories"]');
    await expect
      .poll(() => app.page.locator('[aria-label="Territories"] button').count())
      .toBe(service.store.territories('rep').length);
    await app.page.click('button[data-tab="customers"]');

    // The map: every mapped customer drawn (pins + cluster counts, fitted to the data), and
    // every territory and route drawn as features of their layers.
    const mapped = service.store.customers('rep').length - unmapped;
    await app.page.click('button:has-text("Fit to data")');
    await expect.poll(() => renderedCount(app.page)).toBe(mapped);
    // Territories and routes join the map once their data is there: drawn by then, not at once.
    await expect
      .poll(() => drawnIds(app.page, TERRITORY_LAYER.fill))
      .toEqual(
        service.store
          .territories('rep')
          .map((t) => t.id)
          .sort(),
      );
    await expect
      .poll(() => drawnIds(app.page, ROUTE_LAYER.lines))
      .toEqual(
        service.store
          .routes('rep')
          .map((r) => r.id)
          .sort(),
      );
  });

  it('shows a customer named like HTML as text in the list and the detail panel', async () => {
    await app.page.fill('input[aria-label="Search customers"]', 'onerror');
    await waitRows(app, 'Customers', 1);
    const row = app.page.locator('[aria-label="Customers"] [role=option] button');
    expect(await row.locator('.name').textContent()).toBe(XSS);
    await row.click();
    const panel = app.page.locator('aside[aria-label="Customer details"]');
    expect(await panel.locator('h2').textContent()).toBe(XSS);
    expect(await panel.locator('dd[data-field="company"]').textContent()).toBe(
      `${XSS} <b>bold</b>`,
    );
    expect(await app.page.locator('.side img, aside img, aside b').count()).toBe(0);
    expect(dialogs).toEqual([]);
    await app.page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    await app.page.fill('input[aria-label="Search customers"]', '');
  });

  it('restarts offline showing the same data, with no request to the service', async () => {
    const count = service.store.customers('rep').length;
    await app.setOffline(true);
    service.resetStats();
    await app.restart();
    watchDialogs(app);
    await app.page.waitForSelector('html[data-ready]', { state: 'attached' });
    await waitRows(app, 'Customers', count);
    expect(service.stats().requests).toBe(0);
  });
});
