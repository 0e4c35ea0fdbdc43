// The first minutes with a fresh install (issue 29): with no settings at all, the map asks main
// for the default online style (OpenFreeMap's; here a local imitation standing in for its
// address) and draws its tiles through main's tile cache. No test reaches the internet. The
// panel a rep opens beside the map leaves what it shows in view, at any window size.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import { signIn, waitRows, waitRowsInHook } from '../support/app-steps';
import { until } from '../support/until';
import { startStyleServer } from '../basemap/style-server';

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

describe("the app speaks the rep's language", () => {
  // One account for the three tests: its web account names custom0 "Visit day" and custom1
  // "Tier" (user metadata, set through PUT /user/customfields as the web account would); custom5
  // holds a value but has no name; the other seven are neither named nor used.
  let service: TestService;
  let rep: AppHandle;
  const advanced = (name: string) => `[data-advanced="${name}"]`;
  const openPlanner = async (page: Page) => {
    if (!(await page.isVisible('aside.week-plan')))
      await page.click('button:has-text("Plan the week")');
    await page.waitForSelector('aside.week-plan');
  };
  const optionTexts = (page: Page, select: string) =>
    page.$$eval(`${select} option`, (options) => options.map((o) => o.textContent?.trim()));

  beforeAll(async () => {
    service = await startTestService({ customers: 0, seed: 29 });
    const auth = Buffer.from(`rep:${service.account.password}`).toString('base64');
    const named = await fetch(`${service.url}/api/v1/user/customfields`, {
      method: 'PUT',
      headers: { authorization: `Basic ${auth}`, 'content-type': 'application/json' },
      body: JSON.stringify({ 'Visit day': 0, Tier: 1 }),
    });
    expect(named.ok).toBe(true);
    for (let i = 0; i < 6; i++) {
      service.store.createCustomerDirect('rep', {
        name: `Words Customer ${i + 1}`,
        latitude: 51.5 + i * 0.01,
        longitude: -0.1 - i * 0.01,
        custom0: ['Monday', 'Tuesday'][i % 2],
        custom1: i < 3 ? 'Gold' : '',
        custom5: i === 0 ? 'kept by hand' : '',
        // Two visited just now: "Visited within 7 days" holds exactly them.
        lastVisit: i < 2 ? Date.now() : null,
      });
    }
    rep = await launchApp({ serviceUrl: service.url });
    await signIn(rep, service);
    await waitRowsInHook(rep.page, 'Customers', 6);
  });

  afterAll(async () => {
    await rep?.close();
    await service?.stop();
  });

  it('names custom fields as the account does, and offers no unnamed unused one', async () => {
    const { page } = rep;
    await openPlanner(page);
    // A field the account named, or one a customer uses, never "Custom 1"; custom2..4 and
    // custom6..9 (no name, no value) are not offered.
    const offered = ['Visit day', 'Tier', 'Custom field 6'];
    expect(await optionTexts(page, 'select[aria-label="Visit minutes from field"]')).toEqual([
      'the same for everyone',
      ...offered,
    ]);
    expect(await optionTexts(page, 'select[aria-label="Time windows from field"]')).toEqual([
      'no time windows',
      ...offered,
    ]);
    expect(await page.textContent('aside.week-plan')).not.toMatch(/Custom \d/);
    await page.click('button[aria-label="Close Plan the week"]');

    // The details and the editor read the same names.
    const id = service.store.customers('rep').find((c) => c.custom5 !== '')!.id;
    await page.click(`[aria-label="Customers"] .customer-row[data-id="${id}"]`);
    await page.waitForSelector(`aside.detail-panel[data-id="${id}"]`);
    const details = (await page.textContent('aside.detail-panel')) ?? '';
    expect(details).toContain('Visit day');
    expect(details).not.toMatch(/Custom \d/);
    await page.click('aside.detail-panel button:has-text("Edit")');
    await page.click('details.custom-fields > summary');
    const labels = await page.$$eval('details.custom-fields label', (ls) =>
      ls.map((l) => l.textContent?.trim()),
    );
    expect(labels).toEqual(offered);
    expect(await page.inputValue('#ed-custom0')).toBe('Monday');
    await page.keyboard.press('Escape');
    await page.waitForSelector('aside[data-editing]', { state: 'detached' });
  });

  it('keeps speed, road factor and map sources under Advanced, which opens and works', async () => {
    const { page } = rep;
    await openPlanner(page);
    const road = 'input[aria-label="Road factor"]';
    const speed = 'input[aria-label="Average speed (km/h)"]';
    expect(await page.isVisible(road)).toBe(false);
    expect(await page.isVisible(speed)).toBe(false);
    await page.click(`${advanced('week-plan')} > summary`);
    expect(await page.isVisible(speed)).toBe(true);
    // A road factor the planner refuses; Advanced folded again: its message opens it.
    await page.fill(road, '0.5');
    await page.click(`${advanced('week-plan')} > summary`);
    expect(await page.isVisible(road)).toBe(false);
    await page.selectOption('select[aria-label="Customers to plan"]', 'list');
    await page.selectOption('select[aria-label="Start from"]', 'coords');
    await page.fill('input[aria-label="Start point"]', '51.5, -0.1');
    await page.click('button:has-text("Make the plan")');
    await page.waitForSelector('#wp-road-msg:not(:empty)').catch(async (error: unknown) => {
      throw new Error(`the planner reads: ${await page.textContent('aside.week-plan')}`, {
        cause: error,
      });
    });
    expect(await page.isVisible(road)).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Road factor',
    );
    await page.fill(road, '1.3');
    await page.click('button:has-text("Make the plan")');
    await page.waitForSelector('aside.week-plan .wp-result');
    await page.click('button[aria-label="Close Plan the week"]');

    // Offline maps: the download source and the online map's address, each folded.
    await page.click('button:has-text("Offline maps")');
    await page.waitForSelector('dialog[open]');
    expect(await page.isVisible('#om-source')).toBe(false);
    expect(await page.isVisible('#om-style')).toBe(false);
    await page.click(`${advanced('map-source')} > summary`);
    await page.fill('#om-source', 'http://tiles.example.com/planet.pmtiles');
    await page.click('button:has-text("Save source")');
    await until(
      async () =>
        /must start with https:\/\//.test(
          (await page.textContent('dialog [role=alert]').catch(() => '')) ?? '',
        ),
      "main's refusal of an http map source",
    );
    await page.click(`${advanced('online-map')} > summary`);
    expect(await page.isVisible('#om-style')).toBe(true);
    await page.keyboard.press('Escape');
    await page.waitForSelector('dialog[open]', { state: 'detached' });
  });

  it('folds the legend for good, and the first toolbar control is the app’s own, by keyboard', async () => {
    const { page } = rep;
    await page.waitForSelector('.fm-map-legend');
    expect(await page.isVisible('button[aria-label="Hide legend"]')).toBe(true);
    await page.click('button[aria-label="Hide legend"]');
    await page.waitForSelector('.fm-map-legend', { state: 'detached' });
    // Focus lands on what brings it back.
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Legend');
    await page.reload();
    await waitRows(page, 'Customers', 6);
    await page.waitForSelector('.fm-map-key-show');
    expect(await page.isVisible('.fm-map-legend')).toBe(false);
    await page.click('.fm-map-key-show');
    await page.waitForSelector('.fm-map-legend');

    const first = page.locator('[role=toolbar] :is(button, select, input, a[href])').first();
    expect(await first.evaluate((el) => el.tagName)).not.toBe('SELECT');
    await first.focus();
    await page.keyboard.press('ArrowDown');
    await page.waitForSelector('[role=listbox]');
    // From "Any visit date": Reminder due, then Visited within 7 days.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[role=listbox]', { state: 'detached' });
    await waitRows(page, 'Customers', 2);
    expect(await first.getAttribute('data-value')).toBe('age:week');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-haspopup'))).toBe(
      'listbox',
    );
    expect(await first.textContent()).toContain('Visited within 7 days');
  });
});
