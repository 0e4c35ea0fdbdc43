// The status bar, the Changes view and the import chip tell the same story while changes wait:
// the same count, never "Synced" or "Imported" while anything is queued, and a service that is
// down while the machine is online is named as such (not "Offline"), with its next try and a
// "Try now" that sends everything once it is back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src-service/index';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import { signIn, waitRows, waitSync } from '../support/app-steps';

const USER = 'rep';
const ROWS = 30;
let service: TestService;
let revived: RunningService | null = null;
let app: AppHandle;

const statusText = () => app.page.textContent('.sync-status .text');
const chipText = () => app.page.textContent('.job[data-import]');
const changesCount = () => app.page.getAttribute('.views button >> nth=0', 'data-count');

function csv(): string {
  const lines = ['Name,City,Lat,Lng'];
  for (let i = 0; i < ROWS; i++) lines.push(`Honest Import ${i},Lyon,45.${i + 10},4.${i + 10}`);
  return `${lines.join('\n')}\n`;
}

beforeAll(async () => {
  service = await startTestService({ customers: 10, seed: 91 });
  app = await launchApp({ serviceUrl: service.url });
});

afterAll(async () => {
  await app?.close();
  await revived?.stop();
  await service?.stop().catch(() => undefined);
});

describe('honest status while changes wait', () => {
  // One test in three steps: each needs the service and the queue as the step before left them.
  it('names a service that is down, counts the changes that wait, and says Synced only once sent', async () => {
    const { page } = app;
    // Step 1: a service that is down while the machine is online is named, with its next try.
    await signIn(app, service);
    await waitRows(page, 'Customers', 10);
    await waitSync(page, 'synced');
    expect(await statusText()).toMatch(/^Synced at/);

    await service.stop();
    await page.click('button.sync-now');
    await waitSync(page, 'offline');
    const text = await statusText();
    expect(text).toMatch(/^Service not reachable/);
    expect(text).not.toContain('Offline');
    expect(text).toMatch(/next try in \d+ (s|min)/);
    expect(await page.textContent('button.sync-now')).toBe('Try now');

    // Step 2: the same queued changes are counted everywhere; neither Synced nor Imported.
    await page.click('button:has-text("Import CSV")');
    await page.setInputFiles('input[aria-label="CSV or Excel file"]', {
      name: 'honest.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv()),
    });
    await page.click(`button:has-text("Import ${ROWS} customers")`);
    await expect.poll(changesCount).toBe(String(ROWS));
    await expect.poll(chipText).toContain(`${ROWS} waiting to be sent`);
    const chip = (await chipText()) ?? '';
    expect(chip).not.toContain('Imported');
    expect(chip).toContain(`0 of ${ROWS} on the service`);
    // A retry may be under way ("Sending 30 changes"); once it fails the count reads as waiting.
    await expect.poll(statusText).toContain(`${ROWS} changes waiting to be sent`);
    expect(await statusText()).not.toContain('Synced');

    await page.click('.views button >> nth=0');
    expect(await page.textContent('aside .hint')).toContain(
      `${ROWS} changes not yet on the service: ${ROWS} waiting to be sent`,
    );

    // Step 3: "Try now" sends everything once the service is back: Synced and Imported only then.
    revived = await startService({ port: service.port, store: service.store, rate: 0 });
    await page.click('button.sync-now');
    await expect.poll(() => service.store.customers(USER).length).toBe(10 + ROWS);
    await waitSync(page, 'synced');
    await expect.poll(changesCount).toBe('0');
    await expect.poll(statusText).toMatch(/^Synced at/);
    await expect.poll(chipText).toContain(`Imported ${ROWS} of ${ROWS} from honest.csv`);
  });
});
