// A new customer stays listed and selected while its create is acknowledged, even when the
// network goes before the pull that would bring the record back from the service (it used to
// vanish until that pull: the outbox mirror dropped the create before the id was renamed).
// The pull is held at a service gate, so the cut falls exactly between push and pull.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import { signIn, waitRows, waitSync } from '../support/app-steps';

const USER = 'rep';
const NAME = 'Kept Through Ack';
let service: TestService;
let app: AppHandle;

beforeAll(async () => {
  service = await startTestService({ customers: 20, seed: 83 });
  app = await launchApp({ serviceUrl: service.url });
});

afterAll(async () => {
  await app?.close();
  await service?.stop();
});

describe('a new customer whose create is acknowledged', () => {
  it('stays listed and selected under its server id when the network goes before the pull', async () => {
    const { page } = app;
    await signIn(app, service);
    await waitRows(page, 'Customers', 20);
    await waitSync(page, 'synced');

    // A sync's pull starts with GET /user: hold it, so the push is over and the pull not begun.
    const pull = service.hold('GET', /^\/api\/v1\/user$/);
    await page.click('button:has-text("New customer")');
    await page.waitForSelector('aside[data-editing="new"]');
    await page.fill('#ed-name', NAME);
    await page.fill('#ed-latitude', '45.5');
    await page.fill('#ed-longitude', '4.75');
    await page.click('button:has-text("Create customer")');
    await page.waitForSelector('aside[data-editing]', { state: 'detached' });
    await pull.arrived;
    const created = service.store.customers(USER).find((c) => c.name === NAME);
    expect(created).toBeDefined();
    await app.setOffline(true);
    pull.release();
    await waitSync(page, 'offline');

    // Listed once, under the server id, still selected, its details still open.
    await page.fill('input[aria-label="Search customers"]', NAME);
    await waitRows(page, 'Customers', 1);
    const row = page.locator('[aria-label="Customers"] button.customer-row');
    expect(await row.getAttribute('data-id')).toBe(created!.id);
    expect(await row.getAttribute('aria-pressed')).toBe('true');
    expect(await page.textContent('aside[aria-label="Customer details"] h2')).toBe(NAME);
    // No duplicate create waits in Changes.
    expect(await app.call<unknown[]>('listOps')).toEqual([]);
  });
});
