// The first ten minutes with a fresh install (issue 29), through the runner: streets online with
// no settings (a local imitation standing in for OpenFreeMap's address, tiles through main's
// cache) and "Download my area" from the newest Protomaps daily build (a local imitation of its
// list); download areas named by city; the map making room beside a panel at two window sizes;
// the keyboard path with the accessibility tree; the rep's words (Advanced, the account's field
// names, legend, toolbar). No test reaches the internet.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import { signIn, waitRows, waitRowsInHook } from '../support/app-steps';
import { activeRow, focusedAxNode, ringShown, type ActiveRow } from '../support/a11y';
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
      getContainer(): HTMLElement;
      project(p: [number, number]): { x: number; y: number };
      jumpTo(o: object): void;
      panBy(d: [number, number], o: object): void;
      isMoving(): boolean;
      getCenter(): { lng: number; lat: number };
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
        // MapLibre resizes its canvas a frame after its container changed (the window, the closed
        // panel): until then the canvas keeps the old width, and a pin placed by it is missed.
        await until(
          () =>
            rep.page.evaluate(() => {
              const { map } = (document.querySelector('.fm-map') as MapEl).fieldmapMap;
              return map.getCanvas().clientWidth === map.getContainer().clientWidth;
            }),
          `the map resized to its place at ${size.width}×${size.height}`,
        );
        // The pin 60 px from the map's right edge, at street zoom (no cluster).
        const before = await rep.page.evaluate((p) => {
          const { map } = (document.querySelector('.fm-map') as MapEl).fieldmapMap;
          map.jumpTo({ center: p, zoom: 16 });
          const width = map.getCanvas().clientWidth;
          map.panBy([map.project(p).x - (width - 60), 0], { animate: false });
          return { ...map.project(p), width };
        }, at);
        await until(async () => {
          // Where the pin is now: a busy machine may lay the map out again between two tries.
          const canvas = (await rep.page.locator('.fm-map-canvas').boundingBox())!;
          const pin = await pinOnCanvas(rep.page, at);
          await rep.page.mouse.click(canvas.x + pin.x, canvas.y + pin.y);
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

describe('a new customer on the map beside its details', () => {
  // Main's road is held (the runner's road gate) so the create reaches the cache only after its
  // details opened, as on a busy laptop: its pin comes into view once drawn, wherever the map
  // was; the service's id for it, later in the sync, moves nothing, though the rep panned away,
  // nor does the map's resize after that.
  it('comes into view once its pin is drawn, and its new id does not move the map', async () => {
    const service = await startTestService({ customers: 12, seed: 29 });
    const rep = await launchApp({ serviceUrl: service.url });
    try {
      await signIn(rep, service);
      await waitRows(rep.page, 'Customers', 12);
      await until(() => rep.dataChannelOpen(), 'the data socket open');
      const customer = service.store.customers('rep').find((c) => c.latitude !== null)!;
      const home: [number, number] = [customer.longitude!, customer.latitude!];
      const far: [number, number] = [4.1, 45.1];
      const centre = () =>
        rep.page.evaluate(() => {
          const { map } = (document.querySelector('.fm-map') as MapEl).fieldmapMap;
          const { lng, lat } = map.getCenter();
          return { at: [lng, lat], moving: map.isMoving() };
        });
      const jumpHome = () =>
        rep.page.evaluate((p) => {
          const { map } = (document.querySelector('.fm-map') as MapEl).fieldmapMap;
          map.jumpTo({ center: p, zoom: 14 });
        }, home);
      await jumpHome();
      const gate = rep.gateRoad();
      await rep.page.click('button:has-text("New customer")');
      await rep.page.fill('#ed-name', 'Far prospect');
      await rep.page.fill('#ed-latitude', String(far[1]));
      await rep.page.fill('#ed-longitude', String(far[0]));
      await rep.page.click('button:has-text("Create customer")');
      await rep.page.waitForSelector('aside[data-editing]', { state: 'detached' });
      await expect
        .poll(async () => {
          const queued = await rep.call<unknown[]>('listOps');
          const onService = service.store.customers('rep');
          return queued.length === 0 && onService.some((c) => c.name === 'Far prospect');
        })
        .toBe(true);
      gate.end();
      const held = [...Array(gate.held()).keys()];
      const resolved = held.find((i) => gate.kind(i) === 'ids:resolved');
      expect(resolved).toBeDefined();
      // Up to the new id: the create is in the cache, its pin drawn, and brought into view.
      for (const i of held.slice(0, resolved)) await gate.release(i, 'socket');
      await until(async () => {
        const pin = await pinOnCanvas(rep.page, far);
        return (
          !pin.moving &&
          pin.x >= 40 &&
          pin.x <= pin.width - 40 &&
          pin.y >= 40 &&
          pin.y <= pin.height - 40
        );
      }, 'the new customer in view beside its details');
      // The rep pans back and makes the window smaller (anything may resize the map: a window,
      // a status line); the new id and the rest of the sync arrive.
      await jumpHome();
      await rep.page.setViewportSize({ width: 1180, height: 740 });
      await until(
        () =>
          rep.page.evaluate(() => {
            const { map } = (document.querySelector('.fm-map') as MapEl).fieldmapMap;
            return map.getCanvas().clientWidth === map.getContainer().clientWidth;
          }),
        'the map resized to the smaller window',
      );
      for (const i of held.slice(resolved)) await gate.release(i, 'socket');
      const id = service.store.customers('rep').find((c) => c.name === 'Far prospect')!.id;
      await rep.page.waitForSelector(`aside.detail-panel[data-id="${id}"]`);
      await until(
        () =>
          rep.page.evaluate(
            (cid) =>
              (
                document.querySelector('.fm-map') as Element & {
                  fieldmapMap: { customers: { featureIdOf(id: string): number | undefined } };
                }
              ).fieldmapMap.customers.featureIdOf(cid) !== undefined,
            id,
          ),
        'the pin drawn under its new id',
      );
      const after = await centre();
      expect(after.moving).toBe(false);
      expect(after.at[0]).toBeCloseTo(home[0], 6);
      expect(after.at[1]).toBeCloseTo(home[1], 6);
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
      // The rep's own source (here the older build, typed and confirmed, under Advanced) serves
      // all the same.
      await page.click('[data-advanced="map-source"] > summary');
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

describe('the keyboard path: search, the list, panels and back (issue 29)', () => {
  // 2,500 customers: the list keeps ~30 rows in the DOM, so moving to the end recycles them.
  const COUNT = 2500;
  const CUSTOMERS = '[aria-label="Customers"]';
  const CHANGES = '[aria-label="Queued changes"]';
  let service: TestService;
  let rep: AppHandle;

  const nameOf = (id: string | null) =>
    service.store.customers('rep').find((c) => c.id === id)?.name ?? `(no customer ${id})`;

  /** Presses `key` and waits until the list's active row is at `position`. */
  async function pressTo(key: string, position: number): Promise<ActiveRow> {
    await rep.page.keyboard.press(key);
    let row = await activeRow(rep.page, CUSTOMERS);
    await until(async () => {
      row = await activeRow(rep.page, CUSTOMERS);
      return row.position === position;
    }, `${key}: row ${position} active (now ${row.position})`);
    return row;
  }

  beforeAll(async () => {
    service = await startTestService({ customers: COUNT, seed: 2929 });
    rep = await launchApp({ serviceUrl: service.url });
    await signIn(rep, service);
    await waitRowsInHook(rep.page, 'Customers', COUNT);
  });

  afterAll(async () => {
    await rep?.close();
    await service?.stop();
  });

  it('/ then ONE Tab reaches the list; keys move a ringed row into view; Enter opens, Escape returns', async () => {
    const { page } = rep;
    await page.keyboard.press('/');
    expect(await focusedAxNode(page)).toEqual({ role: 'searchbox', name: 'Search customers' });
    await page.keyboard.press('Tab');
    let row = await activeRow(page, CUSTOMERS);
    expect(row).toMatchObject({ listFocused: true, position: 1, inView: true });
    expect(ringShown(row), JSON.stringify(row.ring)).toBe(true);
    expect(row.text).toContain(nameOf(row.id));

    row = await pressTo('ArrowDown', 2);
    expect(row.text).toContain(nameOf(row.id));
    const page1 = await page.evaluate(() => {
      const list = document.querySelector<HTMLElement>('[aria-label="Customers"]')!;
      return Math.floor(list.clientHeight / 44);
    });
    row = await pressTo('PageDown', 2 + page1);
    expect(row).toMatchObject({ listFocused: true, inView: true });
    row = await pressTo('End', COUNT);
    // The last row is in view, the focus stayed on the list while rows were recycled.
    expect(row).toMatchObject({ listFocused: true, inView: true });
    expect(row.rendered).toBeLessThan(100);
    expect(ringShown(row)).toBe(true);
    row = await pressTo('PageUp', COUNT - page1);
    expect(row.inView).toBe(true);
    row = await pressTo('ArrowUp', COUNT - page1 - 1);
    expect(row).toMatchObject({ listFocused: true, inView: true });
    expect(row.text).toContain(nameOf(row.id));

    // Enter opens that customer's details, which take the focus.
    await page.keyboard.press('Enter');
    await page.waitForSelector(`aside.detail-panel[data-id="${row.id}"]`);
    await until(
      () => page.evaluate(() => !!document.activeElement?.closest('aside.detail-panel')),
      'the focus in the details',
    );
    // Escape closes them; the focus is back on the same row.
    await page.keyboard.press('Escape');
    await page.waitForSelector('aside.detail-panel', { state: 'detached' });
    const back = await activeRow(page, CUSTOMERS);
    expect(back).toMatchObject({ listFocused: true, id: row.id, position: row.position });
    expect(ringShown(back)).toBe(true);
    await page.keyboard.press('Home');
    await until(async () => (await activeRow(page, CUSTOMERS)).position === 1, 'Home: row 1');
  });

  it('the accessibility tree names a search box and a listbox of options, in focus order', async () => {
    const { page } = rep;
    // From the top of the list.
    await page.keyboard.press('/');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Home');
    await until(async () => (await activeRow(page, CUSTOMERS)).position === 1, 'Home: row 1');
    const search = page.getByRole('searchbox', { name: 'Search customers' });
    const list = page.getByRole('listbox', { name: 'Customers' });
    expect(await search.count()).toBe(1);
    expect(await list.count()).toBe(1);
    const tree = await list.ariaSnapshot();
    expect(tree).toMatch(/^- listbox "Customers"/);
    const options = tree.split('\n').filter((line) => /^\s+- option "/.test(line));
    expect(options.length).toBeGreaterThan(5);
    expect(options.length).toBeLessThan(100);
    // Each option is named by its customer.
    const first = await page.getAttribute(
      `${CUSTOMERS} [role=option][aria-posinset="1"] [data-id]`,
      'data-id',
    );
    expect(options[0]).toContain(nameOf(first));
    // Focus order read from the tree: search, then the list, then (Shift+Tab) back out of it.
    await page.keyboard.press('/');
    expect(await focusedAxNode(page)).toEqual({ role: 'searchbox', name: 'Search customers' });
    await page.keyboard.press('Tab');
    expect(await focusedAxNode(page)).toEqual({ role: 'listbox', name: 'Customers' });
    const active = await activeRow(page, CUSTOMERS);
    // The active row is an option of that listbox, named by its customer.
    expect(active.listFocused).toBe(true);
    const option = list.getByRole('option', { name: nameOf(active.id) });
    const places = await option.evaluateAll((els) =>
      els.map((e) => e.getAttribute('aria-posinset')),
    );
    expect(places).toContain(String(active.position));
    await page.keyboard.press('Shift+Tab');
    expect(await focusedAxNode(page)).toEqual({ role: 'combobox', name: 'Filter by group' });
  });

  it('the Changes view: G opens it with the focus, arrows move a ringed row, Escape returns', async () => {
    const { page } = rep;
    await rep.setOffline(true);
    const customers = service.store.customers('rep').slice(0, 4);
    for (const [i, customer] of customers.entries()) {
      await rep.call('enqueue', {
        kind: 'updateCustomer',
        target: customer.id,
        payload: { phone: `555-01${i}0` },
        base: customer,
      });
    }
    await until(
      async () => (await page.getAttribute('.views button >> nth=0', 'data-count')) === '4',
      'four changes queued',
    );
    // From the list, where the rep was.
    await page.keyboard.press('/');
    await page.keyboard.press('Tab');
    const from = await activeRow(page, CUSTOMERS);
    await page.keyboard.press('g');
    await until(
      () => page.evaluate(() => document.activeElement?.matches('aside.changes') ?? false),
      'the Changes panel has the focus',
    );
    await page.keyboard.press('Tab'); // its close button
    await page.keyboard.press('Tab'); // the first change: the list's one tab stop
    const rows = '[aria-label="Queued changes"] > li';
    let row = await activeRow(page, CHANGES, ':scope > li');
    expect(row).toMatchObject({ listFocused: true, position: 1, inView: true });
    expect(ringShown(row), JSON.stringify(row.ring)).toBe(true);
    await page.keyboard.press('ArrowDown');
    row = await activeRow(page, CHANGES, ':scope > li');
    expect(row.position).toBe(2);
    await page.keyboard.press('End');
    row = await activeRow(page, CHANGES, ':scope > li');
    expect(row).toMatchObject({ position: 4, inView: true });
    expect(ringShown(row)).toBe(true);
    expect(await page.locator(`${rows}[tabindex="0"]`).count()).toBe(1);
    // Enter on a change waiting to be sent opens nothing (only one that needs the rep does).
    await page.keyboard.press('Enter');
    expect(await page.locator('dialog[open]').count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.waitForSelector('aside.changes', { state: 'detached' });
    expect(await activeRow(page, CUSTOMERS)).toMatchObject({ listFocused: true, id: from.id });
    await rep.setOffline(false);
  });

  it("the route builder's stops: R opens it with the focus, arrows move between stops", async () => {
    const { page } = rep;
    const stops = service.store
      .customers('rep')
      .filter((c) => c.latitude !== null)
      .slice(0, 5);
    await page.keyboard.press('/');
    await page.keyboard.press('Tab');
    await page.keyboard.press('r');
    await page.waitForSelector('aside.route-builder');
    await until(
      () => page.evaluate(() => document.activeElement?.matches('aside.route-builder') ?? false),
      'the route builder has the focus',
    );
    // The stops come from the list's checkboxes (as a click on each would).
    for (const c of stops) {
      await page.fill('input[aria-label="Search customers"]', c.name);
      await page
        .locator(
          `[aria-label="Customers"] [role=option]:has([data-id="${c.id}"]) input[type=checkbox]`,
        )
        .check();
    }
    await page.fill('input[aria-label="Search customers"]', '');
    const stopRows = 'ol.stops > li';
    await until(async () => (await page.locator(stopRows).count()) === 5, 'five stops');
    // The keyboard's way back: Tab from the search to the list, R gives the open builder the
    // focus, then Tab walks through its fields and tools to the stops (one tab stop).
    await page.keyboard.press('Tab');
    await page.keyboard.press('r');
    await until(
      () => page.evaluate(() => document.activeElement?.matches('aside.route-builder') ?? false),
      'the route builder has the focus again',
    );
    await until(async () => {
      await page.keyboard.press('Tab');
      const at = await page.evaluate(() => {
        const el = document.activeElement;
        if (!el?.closest('aside.route-builder'))
          throw new Error(`Tab left the builder: ${el?.outerHTML.slice(0, 80)}`);
        return el.matches('ol.stops > li') ? 'stop' : el.tagName;
      });
      return at === 'stop';
    }, 'Tab reaches the stops');
    let row = await activeRow(page, 'ol.stops', ':scope > li');
    expect(row).toMatchObject({ listFocused: true, position: 1 });
    expect(ringShown(row)).toBe(true);
    for (const [key, position] of [
      ['ArrowDown', 2],
      ['End', 5],
      ['ArrowUp', 4],
      ['Home', 1],
      ['PageDown', 5],
    ] as const) {
      await page.keyboard.press(key);
      row = await activeRow(page, 'ol.stops', ':scope > li');
      expect(row.position, key).toBe(position);
      expect(row.inView).toBe(true);
      expect(row.id).toBe(stops[position - 1]!.id);
    }
    // The stops are one tab stop: Tab goes on to the row's own buttons, not the next stop.
    expect(await page.locator(`${stopRows}[tabindex="0"]`).count()).toBe(1);
    await page.keyboard.press('Escape');
    await page.waitForSelector('aside.route-builder', { state: 'detached' });
    // Back on the list, where the focus was when R opened the builder.
    expect(await activeRow(page, CUSTOMERS)).toMatchObject({ listFocused: true });
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
    // The choice's own list (the customer list is a listbox too).
    const choices = '.fm-choice [role=listbox]';
    await page.waitForSelector(choices);
    // From "Any visit date": Reminder due, then Visited within 7 days.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForSelector(choices, { state: 'detached' });
    await waitRows(page, 'Customers', 2);
    expect(await first.getAttribute('data-value')).toBe('age:week');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-haspopup'))).toBe(
      'listbox',
    );
    expect(await first.textContent()).toContain('Visited within 7 days');
  });
});
