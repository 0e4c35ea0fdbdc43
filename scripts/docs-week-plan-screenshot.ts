// `npx tsx scripts/docs-week-plan-screenshot.ts`: docs/field-day-week-plan.png, Plan the week
// over the map: five days, each drawn in its own colour with its stops numbered, and the panel's
// before/after table and timelines. Made from the real app with the harness and helpers of
// ./docs-screenshots.ts: a reference service with 40 customers of a seeded week instance
// (test/support/week-instances.ts) whose visit minutes and opening windows are custom fields,
// signed into, the list as the plan's customers, started from coordinates.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { launchApp, startTestService } from '../test/support/app';
import { weekInstance } from '../test/support/week-instances';
import { MemoryCredentialStore } from './browser-runner/credentials';
import {
  buildIfNeeded,
  DOCS,
  mapIdle,
  runScript,
  signIn,
  VIEWPORT,
  waitRows,
} from './docs-screenshots';

/** Minutes after midnight as the script's log shows them ("09:30"); the app's own is format.clock. */
const clock = (min: number): string =>
  `${String(Math.floor(min / 60)).padStart(2, '0')}:${String(min % 60).padStart(2, '0')}`;

const STOPS = 40;
const SEED = 7;
const FILE = join(DOCS, 'field-day-week-plan.png');

async function main(): Promise<void> {
  buildIfNeeded();
  const service = await startTestService({ customers: 0, seed: SEED });
  const user = service.account.username;
  // The custom fields' names, as the rep's web account would have set them.
  const auth = Buffer.from(`${user}:${service.account.password}`).toString('base64');
  await fetch(`${service.url}/api/v1/user/customfields`, {
    method: 'PUT',
    headers: { authorization: `Basic ${auth}`, 'content-type': 'application/json' },
    body: JSON.stringify({ 'Opening hours': 1, 'Visit minutes': 2 }),
  });
  weekInstance(STOPS, SEED).stops.forEach((stop, i) =>
    service.store.createCustomerDirect(user, {
      name: `Shop ${i + 1}`,
      latitude: stop.position[1],
      longitude: stop.position[0],
      custom1: stop.window ? `${clock(stop.window.openMin)}-${clock(stop.window.closeMin)}` : '',
      custom2: String(stop.serviceMin),
    }),
  );
  const app = await launchApp({ credentialStore: new MemoryCredentialStore() });
  try {
    const { page } = app;
    await page.setViewportSize(VIEWPORT);
    await signIn(page, service);
    await waitRows(page, 'Customers', STOPS);
    await page.waitForSelector('[data-ready]', { state: 'attached', timeout: 60_000 });
    await page.click('button:has-text("Plan the week")');
    await page.selectOption('select[aria-label="Customers to plan"]', 'list');
    await page.selectOption('select[aria-label="Start from"]', 'coords');
    await page.fill('input[aria-label="Start point"]', '51.5, -0.1');
    await page.fill('input[aria-label="First day"]', '2026-11-23');
    await page.fill('input[aria-label="Number of days"]', '5');
    await page.selectOption('select[aria-label="Visit minutes from field"]', 'custom2');
    await page.selectOption('select[aria-label="Time windows from field"]', 'custom1');
    await page.click('button:has-text("Make the plan")');
    await page.waitForSelector('.wp-result', { timeout: 120_000 });
    // The panel scrolled to the first day's timeline, under the before/after table.
    await page.locator('.wp-day').first().scrollIntoViewIfNeeded();
    await mapIdle(page);
    await page.screenshot({ path: FILE });
    const visits = await page.locator('.wp-visit').count();
    const { size } = await stat(FILE);
    console.log(`docs/field-day-week-plan.png  ${Math.round(size / 1024)} KB, ${visits} visits`);
  } finally {
    await app.close();
    await service.stop();
  }
}

runScript('docs-week-plan-screenshot', main);
