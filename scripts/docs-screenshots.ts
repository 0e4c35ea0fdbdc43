// `npx tsx scripts/docs-screenshots.ts`: the README's screenshots, made from the real app.
//   docs/screenshot-app.png     the whole window of the demo account, written by the browser
//                               runner's own command (`npm run start:browser -- --screenshot`)
//   docs/screenshot-map.png     the map zoomed to a route in a metro area: pins, territory, route
//   docs/screenshot-list.png    the customer list with a search term and a color filter
//   docs/screenshot-detail.png  one customer's detail panel (groups, custom fields, dates)
// The last three come from a reference service with a seeded account of 2,000 customers, signed
// into through the sign-in screen of the e2e harness. Same seed, same pictures (up to dates).
import { spawnSync } from 'node:child_process';
import { existsSync, statSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import type { Customer } from '../src-shared';
import { launchApp, startTestService, type AppHandle, type TestService } from '../test/support/app';
import { MemoryCredentialStore } from './browser-runner/credentials';

const REPO = resolve(import.meta.dirname, '..');
export const DOCS = join(REPO, 'docs');
export const VIEWPORT = { width: 1440, height: 900 };
const MAP_VIEWPORT = { width: 1600, height: 1100 };
const MAP_ROUTE = 'Chicago';
const DETAIL_ZOOM = 11.5;
const CUSTOMERS = 2_000;
const SEED = 7;
const SEARCH_TERM = 'bakery';
const FILTER_COLOR = 'green';
const LIMIT_BYTES = 400 * 1024;

/** Newest modification time under a directory (the renderer's sources). */
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** Builds out/ when it is missing or older than the renderer's or shared sources. */
export function buildIfNeeded(): void {
  const index = join(REPO, 'out/renderer/index.html');
  const sources = Math.max(
    newestMtime(join(REPO, 'src-renderer')),
    newestMtime(join(REPO, 'src-shared')),
  );
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return;
  console.log('building the app (npx electron-vite build)...');
  const result = spawnSync('npx', ['electron-vite', 'build'], { cwd: REPO, stdio: 'inherit' });
  if (result.status !== 0)
    throw new Error(`npx electron-vite build failed (exit ${result.status})`);
}

/** screenshot-app.png through the browser runner's command, as the README says it is made. */
async function appShot(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'fieldmap-docs-runner-'));
  try {
    const file = join(DOCS, 'screenshot-app.png');
    const args = ['run', 'start:browser', '--', '--headless', '--screenshot', file, '--demo'];
    console.log(`npm ${args.join(' ')}`);
    // A data dir of its own: the shot never depends on (or changes) a developer's saved account.
    const result = spawnSync('npm', [...args, '--data-dir', dataDir], {
      cwd: REPO,
      stdio: 'inherit',
    });
    if (result.status !== 0) throw new Error(`the browser runner failed (exit ${result.status})`);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

export type LngLatBox = [[number, number], [number, number]];

/** The map element: MapView hangs its controller on it for e2e code (no other handle exists). */
export type MapHost = {
  fieldmapMap: {
    map: {
      once(event: 'idle', cb: () => void): void;
      triggerRepaint(): void;
      resize(): void;
      fitBounds(box: LngLatBox, options: { padding: number; animate: boolean }): void;
      jumpTo(options: { zoom: number }): void;
    };
  };
};
// The evaluate callbacks run in the page; this file is type-checked without the DOM library,
// so they reach the element through `unknown`.

/** Resolves once MapLibre has drawn everything it was asked to (no move, tiles and sources loaded). */
export async function mapIdle(page: Page): Promise<void> {
  await page.locator('.fm-map').evaluate(
    (el) =>
      new Promise<void>((done) => {
        const map = (el as unknown as MapHost).fieldmapMap.map;
        map.once('idle', () => done());
        map.triggerRepaint();
      }),
  );
}

/** The route named MAP_ROUTE plus the nearest corner of the territory around it. */
function mapFrame(service: TestService): LngLatBox {
  const user = service.account.username;
  const points = (list: string[]) => list.map((p) => p.split(',').map(Number) as [number, number]); // "lat,lon"
  const route = service.store.routes(user).find((r) => r.name.startsWith(MAP_ROUTE));
  const territory = service.store.territories(user).find((t) => t.name.startsWith(MAP_ROUTE));
  if (!route || !territory) throw new Error(`no ${MAP_ROUTE} route and territory in the data`);
  const stops = points(route.points);
  const [s, n] = [Math.min(...stops.map((p) => p[0])), Math.max(...stops.map((p) => p[0]))];
  const [w, e] = [Math.min(...stops.map((p) => p[1])), Math.max(...stops.map((p) => p[1]))];
  const away = ([lat, lon]: [number, number]) =>
    Math.hypot(Math.max(s - lat, 0, lat - n), Math.max(w - lon, 0, lon - e));
  const corner = points(territory.points).sort((a, b) => away(a) - away(b))[0]!;
  return [
    [Math.min(w, corner[1]), Math.min(s, corner[0])],
    [Math.max(e, corner[1]), Math.max(n, corner[0])],
  ];
}

export async function fitMap(page: Page, box: LngLatBox): Promise<void> {
  await page.locator('.fm-map').evaluate((el, b) => {
    const map = (el as unknown as MapHost).fieldmapMap.map;
    map.resize();
    map.fitBounds(b, { padding: 40, animate: false });
  }, box);
}

/** A customer whose detail panel shows the most: groups, deal, visits, reminder, custom fields. */
function showcase(customers: Customer[]): Customer {
  const score = (c: Customer) =>
    (c.groups.length >= 2 ? 4 : 0) +
    (c.company !== '' && c.company !== c.name ? 2 : 0) +
    (c.remindAt ? 2 : 0) +
    (c.lastVisit ? 2 : 0) +
    (c.dealAmount !== null ? 1 : 0) +
    (c.custom2 !== '' ? 1 : 0) +
    (c.email !== '' ? 1 : 0) +
    (c.phone !== '' ? 1 : 0) +
    (c.latitude !== null && c.latitude !== 0 ? 4 : 0);
  const best = [...customers].sort((a, b) => score(b) - score(a) || a.id.localeCompare(b.id))[0];
  if (!best) throw new Error('the service has no customers');
  return best;
}

export async function signIn(page: Page, service: TestService): Promise<void> {
  await page.fill('#si-url', service.url);
  await page.fill('#si-user', service.account.username);
  await page.fill('#si-pass', service.account.password);
  await page.click('form button[type=submit]');
  await page.waitForSelector('.top-bar', { timeout: 60_000 });
}

export async function waitRows(page: Page, label: string, rows: number): Promise<void> {
  await page.waitForSelector(`[aria-label="${label}"][data-rows="${rows}"]`, {
    state: 'attached',
    timeout: 60_000,
  });
}

/**
 * A reference service with a seeded account, and the app (VIEWPORT) signed into it through the
 * sign-in screen, its list filled and the app ready. The caller closes both.
 */
export async function openSignedIn(
  options: { customers: number; seed: number } & Parameters<typeof startTestService>[0],
): Promise<{ service: TestService; app: AppHandle; all: Customer[] }> {
  const service = await startTestService(options);
  const app = await launchApp({ credentialStore: new MemoryCredentialStore() });
  await app.page.setViewportSize(VIEWPORT);
  await signIn(app.page, service);
  const all = service.store.customers(service.account.username);
  await waitRows(app.page, 'Customers', all.length);
  await app.page.waitForSelector('[data-ready]', { state: 'attached', timeout: 60_000 });
  return { service, app, all };
}

/** Runs a screenshot script's main: exit 0, or 1 with the reason. */
export function runScript(name: string, main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`${name} failed: ${error instanceof Error ? error.stack : error}`);
      process.exit(1);
    },
  );
}

async function serviceShots(): Promise<void> {
  const { service, app, all } = await openSignedIn({ customers: CUSTOMERS, seed: SEED });
  try {
    const { page } = app;
    await mapIdle(page);

    // The map: a route inside a territory at street-block zoom (pins no longer clustered),
    // framed to include the territory's corner nearest the route so its outline shows. A
    // larger window for this one shot gives the map room for both.
    await page.setViewportSize(MAP_VIEWPORT);
    await fitMap(page, mapFrame(service));
    await mapIdle(page);
    await page.locator('main.map').screenshot({ path: join(DOCS, 'screenshot-map.png') });
    await page.setViewportSize(VIEWPORT);

    // The list: a search term typed and a color filter.
    await page.click('[data-tab=customers]');
    await page.click('.fm-map-fit'); // the whole account behind the list
    await page.fill('input[aria-label="Search customers"]', SEARCH_TERM);
    await page.selectOption('select[aria-label="Filter by color"]', FILTER_COLOR);
    await page.waitForSelector(`.customer-list .count:not([data-count="${all.length}"])`);
    await mapIdle(page);
    await page.screenshot({ path: join(DOCS, 'screenshot-list.png') });

    // The detail panel of a customer with most fields set, reached by a search and a click.
    const shown = showcase(all);
    await page.selectOption('select[aria-label="Filter by color"]', '');
    await page.fill('input[aria-label="Search customers"]', shown.name);
    await page.click(`[aria-label="Customers"] >> text="${shown.name}" >> nth=0`);
    await page.waitForSelector(`.detail-panel[data-id="${shown.id}"]`);
    await page.fill('input[aria-label="Search customers"]', '');
    await page.click('.detail-panel button:has-text("Show on map")');
    await mapIdle(page);
    // "Show on map" goes to street level; a little wider shows the customer among neighbours.
    await page
      .locator('.fm-map')
      .evaluate(
        (el, zoom) => (el as unknown as MapHost).fieldmapMap.map.jumpTo({ zoom }),
        DETAIL_ZOOM,
      );
    await mapIdle(page);
    await page.screenshot({ path: join(DOCS, 'screenshot-detail.png') });
  } finally {
    await app.close();
    await service.stop();
  }
}

async function main(): Promise<void> {
  buildIfNeeded();
  await appShot();
  await serviceShots();
  for (const name of ['app', 'map', 'list', 'detail']) {
    const { size } = await stat(join(DOCS, `screenshot-${name}.png`));
    const warn = size > LIMIT_BYTES ? '  (over 400 KB)' : '';
    console.log(`docs/screenshot-${name}.png  ${Math.round(size / 1024)} KB${warn}`);
  }
}

// Run as a script; imported (scripts/docs-bulk-screenshot.ts), it only lends its helpers.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runScript('docs-screenshots', main);
}
