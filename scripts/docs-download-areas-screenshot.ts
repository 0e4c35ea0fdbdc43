// `npx tsx scripts/docs-download-areas-screenshot.ts`: docs/screenshot-download-areas.png, the
// Offline maps panel's "Download my area" list as a rep first sees it: areas named by their main
// city with the customers they hold, biggest first, and the one an offline region on this laptop
// already covers marked "Already on this laptop". Made from the real app with the harness of
// ./docs-screenshots.ts: a seeded account of 2,000 customers, signed into, and one region added
// by path: a small archive whose bounds take in the Chicago customers (one z15 tile, so it
// counts for the default max zoom). No source is set (the daily builds are the default, as
// installed) and no size is checked, so nothing is read from the internet.
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writePmtilesArchive } from './basemap/pmtiles-writer';
import { cutTiles, square } from '../test/basemap/fixture-tiles';
import { PROTOMAPS_DAILY_BUILDS } from '../src-main/core/basemap/daily-builds';
import { launchApp, startTestService } from '../test/support/app';
import { MemoryCredentialStore } from './browser-runner/credentials';
import { buildIfNeeded, DOCS, runScript, signIn, VIEWPORT, waitRows } from './docs-screenshots';

const CITY = 'Chicago';
/** Degrees around the city's customers that the region's bounds take in (beyond the margin). */
const AROUND = 0.6;
const FILE = join(DOCS, 'screenshot-download-areas.png');
const HELD = '[aria-label="Areas to download"] [data-held]';

async function main(): Promise<void> {
  buildIfNeeded();
  const service = await startTestService({ customers: 2_000, seed: 7 });
  // As installed: Protomaps' daily builds are the default source (nothing is read from them
  // unless a size is checked, which this script does not do).
  // The region archive this script writes, as the rep would pick it in main's file dialog.
  let region: string | null = null;
  const app = await launchApp({
    credentialStore: new MemoryCredentialStore(),
    dailyBuilds: PROTOMAPS_DAILY_BUILDS,
    pickFile: async () => region,
  });
  await app.page.setViewportSize(VIEWPORT);
  await signIn(app.page, service);
  const all = service.store.customers(service.account.username);
  await waitRows(app.page, 'Customers', all.length);
  const dir = await mkdtemp(join(tmpdir(), 'fieldmap-docs-areas-'));
  try {
    const { page } = app;
    const city = all.filter((c) => c.city === CITY && c.latitude !== null && c.longitude !== null);
    if (city.length === 0) throw new Error(`no customers in ${CITY}`);
    const lons = city.map((c) => Number(c.longitude));
    const lats = city.map((c) => Number(c.latitude));
    const bounds: [number, number, number, number] = [
      Math.min(...lons) - AROUND,
      Math.min(...lats) - AROUND,
      Math.max(...lons) + AROUND,
      Math.max(...lats) + AROUND,
    ];
    const [cx, cy] = [(bounds[0] + bounds[2]) / 2, (bounds[1] + bounds[3]) / 2];
    const earth = {
      type: 'FeatureCollection' as const,
      features: [
        {
          type: 'Feature' as const,
          properties: { kind: 'earth' },
          geometry: square(cx - 0.001, cy - 0.001, cx + 0.001, cy + 0.001),
        },
      ],
    };
    const tiles = cutTiles({ earth }, [cx - 0.001, cy - 0.001, cx + 0.001, cy + 0.001], 15, 15);
    const path = join(dir, `${CITY}.pmtiles`);
    await writeFile(path, writePmtilesArchive({ tiles, bounds }));
    region = path;
    await app.call('pickRegionFile');
    await page.click('button:has-text("Offline maps")');
    await page.waitForSelector(HELD);
    // The download list in view, the panel's own scroll at it.
    await page.locator('#om-download-title').scrollIntoViewIfNeeded();
    await page.screenshot({ path: FILE });
    const held = await page.locator(HELD).count();
    const { size } = await stat(FILE);
    console.log(
      `docs/screenshot-download-areas.png  ${Math.round(size / 1024)} KB, ${held} area(s) marked held`,
    );
  } finally {
    await app.close();
    await service.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

runScript('docs-download-areas-screenshot', main);
