// With no network, a change the rep saves reads "Offline — 1 change waiting to be sent" at once:
// main tries it before it learns the service cannot be reached, and the bar used to say
// "Sending 1 change" meanwhile. The state the page reports stays main's ('syncing' until main
// says offline), so a wait for the end of main's sync still waits for it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import { recordStatus, signIn, statusLog, waitRows, waitSync } from '../support/app-steps';

let service: TestService;
let app: AppHandle;

beforeAll(async () => {
  service = await startTestService({ customers: 10, seed: 29 });
  app = await launchApp({ serviceUrl: service.url });
});

afterAll(async () => {
  await app?.close();
  await service?.stop();
});

describe('a change saved with no network', () => {
  it('reads offline with the change waiting, never "Sending", while main tries it', async () => {
    const { page } = app;
    await signIn(app, service);
    await waitRows(page, 'Customers', 10);
    await waitSync(page, 'synced');
    await app.setOffline(true);
    await recordStatus(page);

    await page.click('button:has-text("New customer")');
    await page.waitForSelector('aside[data-editing="new"]');
    await page.fill('#ed-name', 'Saved Offline');
    await page.fill('#ed-latitude', '45.5');
    await page.fill('#ed-longitude', '4.75');
    await page.click('button:has-text("Create customer")');
    await page.waitForSelector('aside[data-editing]', { state: 'detached' });
    await waitSync(page, 'offline');

    const seen = await statusLog(page);
    // Main did try (its sync was reported), and the rep read only what is true meanwhile.
    const trying = seen.filter((s) => s.kind === 'syncing');
    expect(trying.length).toBeGreaterThan(0);
    for (const s of trying) expect(s.text).toBe('Offline — 1 change waiting to be sent');
    expect(seen.filter((s) => s.text.startsWith('Sending'))).toEqual([]);
    expect(seen.at(-1)?.text).toMatch(/^Offline — 1 change waiting to be sent/);
  });
});
