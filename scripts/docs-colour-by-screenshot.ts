// `npx tsx scripts/docs-colour-by-screenshot.ts`: docs/field-day-colour-by-visit-age.png, the
// map with its pins coloured by days since the last visit and the legend naming each band, made
// from the real app with the harness and helpers of ./docs-screenshots.ts: a reference service
// with a seeded account of 10,000 customers, signed into, "Colour pins by: Days since visit"
// chosen, routes and territories hidden, and the map framed on the customers
// nearest one city's centre (past most clustering, so the pins show their colours).
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { buildIfNeeded, DOCS, fitMap, mapIdle, openSignedIn, runScript } from './docs-screenshots';

const CUSTOMERS = 10_000;
const SEED = 7;
const CITY = 'Chicago';
/** The share of the city's customers nearest its centre that the frame holds. */
const CORE = 0.1;
const FILE = join(DOCS, 'field-day-colour-by-visit-age.png');

async function main(): Promise<void> {
  buildIfNeeded();
  const { service, app, all } = await openSignedIn({ customers: CUSTOMERS, seed: SEED });
  try {
    const { page } = app;
    const city = all
      .filter((c) => c.city === CITY && c.latitude !== null && c.longitude !== null)
      .map((c) => [Number(c.longitude), Number(c.latitude)] as const);
    if (city.length === 0) throw new Error(`no customers in ${CITY}`);
    const [mx, my] = [
      city.reduce((a, p) => a + p[0], 0) / city.length,
      city.reduce((a, p) => a + p[1], 0) / city.length,
    ];
    const core = [...city]
      .sort((a, b) => Math.hypot(a[0] - mx, a[1] - my) - Math.hypot(b[0] - mx, b[1] - my))
      .slice(0, Math.ceil(city.length * CORE));
    await page.selectOption('select[aria-label="Colour pins by"]', 'visit-age');
    for (const layer of ['routes', 'territories']) await page.uncheck(`input[name="${layer}"]`);
    await fitMap(page, [
      [Math.min(...core.map((p) => p[0])), Math.min(...core.map((p) => p[1]))],
      [Math.max(...core.map((p) => p[0])), Math.max(...core.map((p) => p[1]))],
    ]);
    await mapIdle(page);
    await page.screenshot({ path: FILE });
    const { size } = await stat(FILE);
    console.log(
      `docs/field-day-colour-by-visit-age.png  ${Math.round(size / 1024)} KB, ${core.length} customers framed`,
    );
  } finally {
    await app.close();
    await service.stop();
  }
}

runScript('docs-colour-by-screenshot', main);
