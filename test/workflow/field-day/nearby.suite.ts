// Nearby in the app (issue 15, item 4), in Chromium against the reference service: "who is near
// this customer / this pin / the map centre". The panel's results (ids in order, distances, the
// total within the radius) must equal a brute-force check computed here from the service's own
// records: haversine over every customer, radius filter, sort by distance, the centre customer
// left out. A customer without a position says so; "Add to today's plan" puts the customers in
// the plan, per row and for all shown, and the plan survives a restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { haversineMeters, isValidPosition, type LngLat } from '../../../src-shared/geo';
import { launchApp, startTestService, type AppHandle, type TestService } from '../../support/app';
import { screenshot, signIn, syncNow, waitRows, waitRowsInHook } from '../../support/app-steps';

const USER = 'rep';
const COUNT = 5_000;
const LIMIT = 200;

let service: TestService;
let app: AppHandle;

type Near = { id: string; meters: number };

function positionOfRecord(c: { latitude: unknown; longitude: unknown }): LngLat | null {
  const lat = c.latitude === null || c.latitude === '' ? NaN : Number(c.latitude);
  const lng = c.longitude === null || c.longitude === '' ? NaN : Number(c.longitude);
  return isValidPosition(lat, lng) ? [lng, lat] : null;
}

/** Every customer of the service within `radius` m of `center`, nearest first. */
function bruteForce(center: LngLat, radius: number, excludeId?: string): Near[] {
  const near: Near[] = [];
  for (const c of service.store.customers(USER)) {
    const at = positionOfRecord(c);
    if (!at || c.id === excludeId) continue;
    const meters = haversineMeters(center, at);
    if (meters <= radius) near.push({ id: c.id, meters });
  }
  return near.sort((a, b) => a.meters - b.meters);
}

/** The panel's results once it shows a search with `radiusKm`. */
async function shownResults(page: Page, radiusKm: number): Promise<Near[]> {
  await expect
    .poll(() =>
      page.evaluate(() => {
        const panel = document.querySelector('aside.nearby');
        return panel
          ? `${panel.getAttribute('data-state')}@${panel.getAttribute('data-radius-km')}`
          : null;
      }),
    )
    .toBe(`ready@${radiusKm}`);
  return page.$$eval('aside.nearby li.nearby-row', (rows) =>
    rows.map((r) => ({
      id: r.getAttribute('data-id') ?? '',
      meters: Number(r.getAttribute('data-meters')),
    })),
  );
}

function expectEqual(shown: Near[], want: Near[]): void {
  expect(shown.map((n) => n.id)).toEqual(want.slice(0, LIMIT).map((n) => n.id));
  shown.forEach((n, i) => expect(Math.abs(n.meters - want[i]!.meters)).toBeLessThan(0.5));
}

async function summary(page: Page): Promise<string> {
  return ((await page.textContent('aside.nearby .nearby-summary')) ?? '').trim();
}

/** 1 when the row of customer `id` reads "In today's plan", else 0. */
function inPlanOn(page: Page, id: string): Promise<number> {
  return page.locator(`aside.nearby li.nearby-row[data-id="${id}"] .nearby-in-plan`).count();
}

/** Opens a customer's details from the list (search by name, click its row). */
async function openCustomer(page: Page, id: string): Promise<void> {
  const record = service.store.customer(USER, id)!;
  await page.click('button[data-tab="customers"]');
  await page.fill('input[aria-label="Search customers"]', record.name);
  await page.click(`[aria-label="Customers"] .customer-row[data-id="${id}"]`);
  await page.waitForSelector(`aside.detail-panel[data-id="${id}"]`);
}

/** Opens Nearby from a customer's details with the radius `km`; the results once shown. */
async function nearbyOf(page: Page, id: string, km: number): Promise<Near[]> {
  await openCustomer(page, id);
  await page.click('aside.detail-panel button:has-text("Customers nearby")');
  await page.selectOption('aside.nearby select[aria-label="Radius"]', String(km));
  return shownResults(page, km);
}

/** The mapped customer with the most others within 50 km: where the 200 cap is reached. */
function densest(): { id: string; at: LngLat } {
  const mapped = service.store
    .customers(USER)
    .map((c) => ({ id: c.id, name: c.name, at: positionOfRecord(c) }))
    .filter((c): c is { id: string; name: string; at: LngLat } => c.at !== null);
  let best = mapped[0]!;
  let most = -1;
  for (const c of mapped.filter((_, i) => i % 10 === 0)) {
    const n = mapped.filter((o) => haversineMeters(c.at, o.at) <= 50_000).length;
    if (n > most) [best, most] = [c, n];
  }
  return best;
}

describe('Nearby', () => {
  let centre: { id: string; at: LngLat };

  beforeAll(async () => {
    service = await startTestService({ customers: COUNT, seed: 15 });
    app = await launchApp({ serviceUrl: service.url });
    await signIn(app, service);
    await waitRowsInHook(app.page, 'Customers', COUNT);
    centre = densest();
  });

  afterAll(async () => {
    await app?.close();
    await service?.stop();
  });

  it("from a customer's details: the nearest within the radius, as a brute-force check finds them, without the customer itself", async () => {
    const { page } = app;
    await openCustomer(page, centre.id);
    await page.click('aside.detail-panel button:has-text("Customers nearby")');
    const name = service.store.customer(USER, centre.id)!.name;
    await expect.poll(() => page.textContent('aside.nearby h2')).toBe(`Near ${name}`);

    await page.selectOption('aside.nearby select[aria-label="Radius"]', '50');
    const want50 = bruteForce(centre.at, 50_000, centre.id);
    expect(want50.length).toBeGreaterThan(LIMIT);
    const shown50 = await shownResults(page, 50);
    expectEqual(shown50, want50);
    expect(shown50.map((n) => n.id)).not.toContain(centre.id);
    expect(await summary(page)).toBe(`${want50.length} within 50 km, nearest ${LIMIT} shown`);
    // The first row reads its distance in km.
    const first = await page.textContent('aside.nearby li.nearby-row .nearby-distance');
    expect(first?.trim()).toMatch(/^\d+(\.\d+)? km$/);

    // The map draws the circle and the result pins while the panel is open.
    const drawn = () =>
      page.evaluate(async () => {
        type Feature = {
          properties: { role?: string };
          geometry: { type: string; coordinates: unknown };
        };
        type Source = { getData(): Promise<{ features: Feature[] }> };
        const c = (
          document.querySelector('.fm-map') as Element & {
            fieldmapMap: { map: { getSource(id: string): Source | undefined } };
          }
        ).fieldmapMap;
        const source = c.map.getSource('fm-nearby');
        if (!source) return null;
        const features = (await source.getData()).features;
        const of = (role: string) => features.filter((f) => f.properties.role === role);
        return {
          hits: of('hit').length,
          circles: of('circle').filter((f) => f.geometry.type === 'Polygon').length,
          center: of('center').map((f) => f.geometry.coordinates),
        };
      });
    await expect.poll(drawn).toEqual({ hits: LIMIT, circles: 1, center: [centre.at] });
    // ...and brings the whole circle into view.
    const inView = () =>
      page.evaluate(([lng, lat]) => {
        type Map = {
          isMoving(): boolean;
          getBounds(): { contains(p: [number, number]): boolean };
        };
        const map = (document.querySelector('.fm-map') as Element & { fieldmapMap: { map: Map } })
          .fieldmapMap.map;
        const dLat = 50 / 111.2;
        const dLng = dLat / Math.cos((lat * Math.PI) / 180);
        const edges: Array<[number, number]> = [
          [lng - dLng, lat],
          [lng + dLng, lat],
          [lng, lat - dLat],
          [lng, lat + dLat],
        ];
        return !map.isMoving() && edges.every((p) => map.getBounds().contains(p));
      }, centre.at);
    await expect.poll(inView).toBe(true);
    // Every pin on the map again (the search that found the customer filters the map too).
    await page.fill('input[aria-label="Search customers"]', '');
    await screenshot(page, 'nearby');

    await page.selectOption('aside.nearby select[aria-label="Radius"]', '5');
    const want5 = bruteForce(centre.at, 5_000, centre.id);
    const shown5 = await shownResults(page, 5);
    expectEqual(shown5, want5);
    expect(await summary(page)).toBe(
      want5.length === 0 ? 'No customers within 5 km' : `${want5.length} within 5 km`,
    );

    // A row opens its customer.
    if (shown5.length > 0) {
      await page.click(`aside.nearby li.nearby-row[data-id="${shown5[0]!.id}"] .nearby-open`);
      await page.waitForSelector(`aside.detail-panel[data-id="${shown5[0]!.id}"]`);
    }
    await page.click('aside.nearby button[aria-label="Close Nearby"]');
    await expect.poll(drawn).toEqual({ hits: 0, circles: 0, center: [] });
  });

  it("from a pin's popup: the customers near that pin", async () => {
    const { page } = app;
    await openCustomer(page, centre.id);
    await page.click('.fm-popup button:has-text("Customers nearby")');
    await page.selectOption('aside.nearby select[aria-label="Radius"]', '25');
    expectEqual(await shownResults(page, 25), bruteForce(centre.at, 25_000, centre.id));
    await page.click('aside.nearby button[aria-label="Close Nearby"]');
  });

  it('from the map centre: the customers near the centre of the view', async () => {
    const { page } = app;
    const at: LngLat = [centre.at[0] + 0.07, centre.at[1] - 0.05];
    const mapCentre = await page.evaluate(async (to) => {
      type Map = {
        jumpTo(o: { center: LngLat; zoom: number }): void;
        getCenter(): { lng: number; lat: number };
      };
      const map = (document.querySelector('.fm-map') as Element & { fieldmapMap: { map: Map } })
        .fieldmapMap.map;
      map.jumpTo({ center: to, zoom: 10 });
      const c = map.getCenter();
      return [c.lng, c.lat] as LngLat;
    }, at);
    await page.click('button:has-text("Near map centre")');
    await expect.poll(() => page.textContent('aside.nearby h2')).toBe('Near the map centre');
    await page.selectOption('aside.nearby select[aria-label="Radius"]', '10');
    const want = bruteForce(mapCentre, 10_000);
    expect(want.length).toBeGreaterThan(0);
    expectEqual(await shownResults(page, 10), want);
    await page.click('aside.nearby button[aria-label="Close Nearby"]');
  });

  it('a customer without a position says to fix its address first', async () => {
    const { page } = app;
    await page.click('button[data-tab="unmapped"]');
    const row = page.locator('[aria-label="Unmapped customers"] .customer-row').first();
    const id = (await row.getAttribute('data-id'))!;
    const record = service.store.customer(USER, id)!;
    expect(positionOfRecord(record)).toBeNull();
    await row.click();
    await page.click(`aside.detail-panel[data-id="${id}"] button:has-text("Customers nearby")`);
    await expect
      .poll(() => page.textContent('aside.nearby .nearby-problem'))
      .toBe(`${record.name} has no position on the map: fix its address first.`);
    expect(await page.locator('aside.nearby li.nearby-row').count()).toBe(0);
    await page.click('aside.nearby button[aria-label="Close Nearby"]');
  });

  it('follows new data: a customer moved next to the centre by a sync is found at once', async () => {
    const { page } = app;
    const before = await nearbyOf(page, centre.id, 2);
    const far = service.store.customers(USER).find((c) => {
      const at = positionOfRecord(c);
      return at !== null && haversineMeters(centre.at, at) > 100_000;
    })!;
    expect(before.map((n) => n.id)).not.toContain(far.id);
    service.store.updateCustomerDirect(USER, far.id, {
      latitude: centre.at[1] + 0.0005,
      longitude: centre.at[0],
    });
    await syncNow(page);
    const want = bruteForce(centre.at, 2_000, centre.id);
    expect(want[0]!.id).toBe(far.id);
    await expect
      .poll(async () => (await shownResults(page, 2)).map((n) => n.id))
      .toEqual(want.slice(0, LIMIT).map((n) => n.id));
    await page.click('aside.nearby button[aria-label="Close Nearby"]');
  });

  it("adds a row, then all shown, to today's plan, and the plan survives a restart", async () => {
    const { page } = app;
    const shown = await nearbyOf(page, centre.id, 10);
    expect(shown.length).toBeGreaterThan(2);
    const [one, ...rest] = shown;

    await page.click(`aside.nearby li.nearby-row[data-id="${one!.id}"] button.nearby-add`);
    await expect.poll(() => inPlanOn(page, one!.id)).toBe(1);
    expect(await inPlanOn(page, rest[0]!.id)).toBe(0);

    await page.click('aside.nearby button:has-text("Add all shown to today\'s plan")');
    for (const n of shown) await expect.poll(() => inPlanOn(page, n.id)).toBe(1);
    expect(await page.locator('aside.nearby button.nearby-add').count()).toBe(0);

    // Persisted: after a restart the same search shows every one of them in today's plan.
    await app.restart();
    await waitRows(app.page, 'Customers', COUNT);
    const again = await nearbyOf(app.page, centre.id, 10);
    expect(again.map((n) => n.id)).toEqual(shown.map((n) => n.id));
    for (const n of shown) expect(await inPlanOn(app.page, n.id)).toBe(1);
  });
});
