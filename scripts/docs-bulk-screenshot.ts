// `npx tsx scripts/docs-bulk-screenshot.ts`: docs/field-day-bulk-summary.png, the Selection
// panel with its summary over the map, made from the real app with the harness and helpers of
// ./docs-screenshots.ts: a reference service with the same seeded 2,000 customers (deal amounts
// sent as strings, as the PHP service may), signed into, and a lasso drawn with the mouse
// around the customers of one city.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  buildIfNeeded,
  DOCS,
  fitMap,
  mapIdle,
  openSignedIn,
  runScript,
  type MapHost,
} from './docs-screenshots';

const CUSTOMERS = 2_000;
const SEED = 7;
const CITY = 'Chicago';
const FILE = join(DOCS, 'field-day-bulk-summary.png');

async function main(): Promise<void> {
  buildIfNeeded();
  const { service, app, all } = await openSignedIn({
    customers: CUSTOMERS,
    seed: SEED,
    variants: { dealAmount: 'string' },
  });
  try {
    const { page } = app;

    // The city's customers fill the map beside the open panel.
    const city = all.filter((c) => c.city === CITY && c.latitude !== null && c.longitude !== null);
    if (city.length === 0) throw new Error(`no customers in ${CITY}`);
    const lats = city.map((c) => Number(c.latitude));
    const lngs = city.map((c) => Number(c.longitude));
    await page.click('button:has-text("Select on map")');
    await fitMap(page, [
      [Math.min(...lngs), Math.min(...lats)],
      [Math.max(...lngs), Math.max(...lats)],
    ]);
    await mapIdle(page);

    // A lasso by mouse: click, go round an ellipse over most of the map, click to finish.
    const box = (await page.locator('.fm-map-canvas').boundingBox())!;
    const [cx, cy] = [box.x + box.width * 0.45, box.y + box.height * 0.55];
    const [rx, ry] = [box.width * 0.3, box.height * 0.33];
    const at = (k: number) => ({
      x: cx + rx * Math.cos((2 * Math.PI * k) / 48),
      y: cy + ry * Math.sin((2 * Math.PI * k) / 48),
    });
    await page.mouse.click(at(0).x, at(0).y);
    for (let k = 1; k <= 47; k++) await page.mouse.move(at(k).x, at(k).y, { steps: 2 });
    await page.mouse.click(at(47).x, at(47).y);
    await page.waitForSelector('aside.selection [aria-label="Selection summary"]', {
      timeout: 60_000,
    });
    await page
      .locator('.fm-map')
      .evaluate((el) => (el as unknown as MapHost).fieldmapMap.map.triggerRepaint());
    await mapIdle(page);
    await page.screenshot({ path: FILE });
    const count = await page.getAttribute(
      'aside.selection [aria-label="Selection summary"]',
      'data-count',
    );
    const { size } = await stat(FILE);
    console.log(
      `docs/field-day-bulk-summary.png  ${Math.round(size / 1024)} KB, ${count} customers selected`,
    );
  } finally {
    await app.close();
    await service.stop();
  }
}

runScript('docs-bulk-screenshot', main);
