// `npx tsx scripts/docs-keyboard-screenshot.ts`: docs/screenshot-keyboard-focus.png, the keyboard
// path of issue 29 on the seeded 2,000-customer account of ./docs-screenshots.ts: `/` to the
// search, one Tab into the list, a few rows down with the arrows and Page Down, the active row
// drawn with the focus ring.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { buildIfNeeded, DOCS, mapIdle, openSignedIn, runScript } from './docs-screenshots';

const FILE = join(DOCS, 'screenshot-keyboard-focus.png');

async function main(): Promise<void> {
  buildIfNeeded();
  const { service, app } = await openSignedIn({ customers: 2_000, seed: 7 });
  try {
    const { page } = app;
    await page.keyboard.press('/');
    await page.keyboard.press('Tab');
    for (const key of ['PageDown', 'ArrowDown', 'ArrowDown', 'ArrowDown']) {
      await page.keyboard.press(key);
    }
    await page.waitForSelector('[aria-label="Customers"]:focus-visible [role=option].active');
    await mapIdle(page);
    await page.screenshot({ path: FILE });
    console.log(`${FILE}  ${Math.round((await stat(FILE)).size / 1024)} KB`);
  } finally {
    await app.close();
    await service.stop();
  }
}

runScript('docs-keyboard-screenshot', main);
