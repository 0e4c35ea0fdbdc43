// `npx tsx scripts/docs-dark-screenshot.ts`: docs/screenshot-dark.png, the app in the system's
// dark appearance: the seeded 2,000-customer account of ./docs-screenshots.ts, signed into, one
// customer's detail panel open over the dark map. Chromium's emulated prefers-color-scheme is
// what Electron hands the page when Windows or macOS is set to dark.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { buildIfNeeded, DOCS, mapIdle, openSignedIn, runScript } from './docs-screenshots';

const FILE = join(DOCS, 'screenshot-dark.png');

async function main(): Promise<void> {
  buildIfNeeded();
  const { service, app, all } = await openSignedIn({ customers: 2_000, seed: 7 });
  try {
    const { page } = app;
    await page.emulateMedia({ colorScheme: 'dark' });
    const shown = all.find((c) => c.name.trim() !== '' && c.notes !== '') ?? all[0]!;
    await page.fill('input[aria-label="Search customers"]', shown.name);
    await page.click(`[aria-label="Customers"] >> text="${shown.name}" >> nth=0`);
    await page.waitForSelector(`.detail-panel[data-id="${shown.id}"]`);
    await page.fill('input[aria-label="Search customers"]', '');
    await mapIdle(page);
    await page.screenshot({ path: FILE });
    console.log(`${FILE}  ${Math.round((await stat(FILE)).size / 1024)} KB`);
  } finally {
    await app.close();
    await service.stop();
  }
}

runScript('docs-dark-screenshot', main);
