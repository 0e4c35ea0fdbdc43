// A working session with the service unreachable, end to end in the real UI: create three
// customers (one placed by clicking the map), edit two (one of them a new one), delete one,
// build a route through a new customer; restart still offline (all there, marked pending);
// restart the service on the same port and data: every change arrives exactly once, the
// route's points are the right customers, the pending marks clear.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src-service/index';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import { screenshot, signIn, syncNow, waitRows, waitSync } from '../support/app-steps';

const USER = 'rep';
let service: TestService;
let revived: RunningService | null = null;
let app: AppHandle;
let total = 0;
type Pick = { id: string; name: string; latitude: number; longitude: number };
let edited: Pick;
let deleted: Pick;
let stop: Pick;

/** Customers with a position and a name no other customer shares (found by search in the UI). */
function distinctMapped(): Pick[] {
  const all = service.store.customers(USER);
  const count = new Map<string, number>();
  for (const c of all) count.set(c.name, (count.get(c.name) ?? 0) + 1);
  return all
    .filter((c) => c.latitude !== null && c.latitude !== 0 && count.get(c.name) === 1)
    .filter((c) =>
      all.every((o) => o === c || !o.name.toLowerCase().includes(c.name.toLowerCase())),
    )
    .map((c) => ({ id: c.id, name: c.name, latitude: c.latitude!, longitude: c.longitude! }));
}

async function search(term: string): Promise<void> {
  await app.page.fill('input[aria-label="Search customers"]', term);
}

async function openCustomer(name: string): Promise<void> {
  await search(name);
  await waitRows(app.page, 'Customers', 1);
  await app.page.click('[aria-label="Customers"] button.customer-row');
  // The panel of the previous customer may still be up: wait until it shows this one.
  await expect
    .poll(() => app.page.textContent('aside[aria-label="Customer details"] h2'))
    .toBe(name);
}

async function saveChanges(): Promise<void> {
  await app.page.click('button:has-text("Save changes")');
  await app.page.waitForSelector('aside[data-editing]', { state: 'detached' });
}

async function createCustomer(fields: Record<string, string>, viaShortcut = false): Promise<void> {
  const { page } = app;
  await page.click('body', { position: { x: 5, y: 790 } }).catch(() => undefined);
  await page.keyboard.press('Escape');
  await page.click('button:has-text("New customer")');
  await page.waitForSelector('aside[data-editing="new"]');
  for (const [field, value] of Object.entries(fields)) await page.fill(`#ed-${field}`, value);
  if (viaShortcut) await page.keyboard.press('Control+s');
  else await page.click('button:has-text("Create customer")');
  await page.waitForSelector('aside[data-editing]', { state: 'detached' });
}

beforeAll(async () => {
  service = await startTestService({ customers: 40, seed: 71 });
  app = await launchApp({ serviceUrl: service.url });
});

afterAll(async () => {
  await app?.close();
  await revived?.stop();
  await service?.stop().catch(() => undefined);
});

describe('an offline session', () => {
  const signInAndSync = async () => {
    await signIn(app, service);
    total = service.store.customers(USER).length;
    await waitRows(app.page, 'Customers', total);
    await waitSync(app.page, 'synced');
    [edited, deleted, stop] = distinctMapped() as [Pick, Pick, Pick];
    expect(stop).toBeDefined();
  };

  const queueWhileServiceDown = async () => {
    const { page } = app;
    await service.stop();
    await syncNow(page);
    await waitSync(page, 'offline');
    // The machine is online, only the service is down: the status says so, not "Offline".
    expect(await page.textContent('.sync-status')).toContain('Service not reachable');

    await createCustomer({ name: 'Offline One', latitude: '40.5', longitude: '-75.25' }, true);
    await createCustomer({ name: 'Offline Two', email: 'two@example.com', company: 'Two Co' });

    // The third is placed by clicking the map.
    await page.click('button:has-text("New customer")');
    await page.fill('#ed-name', 'Offline Three');
    await page.click('button:has-text("Pick on the map")');
    const box = (await page.locator('.fm-map-canvas').boundingBox())!;
    // Above the bottom-left corner, where the colour-by legend sits.
    await page.mouse.click(box.x + box.width / 2, box.y + box.height - 60);
    await expect.poll(() => page.inputValue('#ed-latitude')).not.toBe('');
    expect(Number(await page.inputValue('#ed-longitude'))).not.toBeNaN();
    await page.fill('#ed-email', 'not-an-email');
    await page.click('button:has-text("Create customer")');
    expect(await page.textContent('#ed-email-msg')).toContain('name@example.com');
    await page.fill('#ed-email', '');
    await screenshot(page, 'editor');
    await page.click('button:has-text("Create customer")');
    await page.waitForSelector('aside[data-editing]', { state: 'detached' });

    // Edit a server customer and a new one.
    await openCustomer(edited.name);
    await page.click('aside[aria-label="Customer details"] button:has-text("Edit")');
    await page.fill('#ed-phone', '555-0100');
    await saveChanges();
    await openCustomer('Offline Two');
    await page.click('aside[aria-label="Customer details"] button:has-text("Edit")');
    await page.fill('#ed-company', 'Two Edited Co');
    await saveChanges();

    // Delete one, through the confirmation dialog.
    await openCustomer(deleted.name);
    await page.click('aside[aria-label="Customer details"] button:has-text("Edit")');
    await page.click('button:has-text("Delete…")');
    await page.click('dialog button:has-text("Delete customer")');
    await search(deleted.name);
    await waitRows(page, 'Customers', 0);

    // A route through a new customer and a server customer, reordered.
    await page.click('button:has-text("Build route")');
    await page.fill('#route-name', 'Offline route');
    await search('Offline One');
    await waitRows(page, 'Customers', 1);
    await page.check('input[aria-label="Route stop: Offline One"]');
    await search(stop.name);
    await waitRows(page, 'Customers', 1);
    await page.check(`input[aria-label="Route stop: ${stop.name}"]`);
    await page.click(`button[aria-label="Move ${stop.name} up"]`);
    const order = await page.locator('.stops li .name').allTextContents();
    expect(order).toEqual([stop.name, 'Offline One']);
    await search('');
    await screenshot(page, 'route-builder');
    await page.click('button:has-text("Create route")');
    await page.waitForSelector('aside[aria-labelledby="route-title"]', { state: 'detached' });
    // Creating a route shows the Routes tab, with the new route pending.
    await page.waitForSelector('[aria-label="Routes"] button:has-text("Offline route")');
    await page.click('button[data-tab="customers"]');
    await waitRows(page, 'Customers', total + 2);
    await expect.poll(() => page.getAttribute('.views button >> nth=0', 'data-count')).toBe('6');
  };

  const keepAcrossRestartOffline = async () => {
    await app.restart();
    const { page } = app;
    await page.waitForSelector('.top-bar');
    await waitRows(page, 'Customers', total + 2);
    await waitSync(page, 'offline');
    await page.waitForSelector('.account-menu button.who');
    for (const name of ['Offline One', 'Offline Three', edited.name]) {
      await search(name);
      await waitRows(page, 'Customers', 1);
      expect(await page.locator('[aria-label="Customers"] .pending').count()).toBe(1);
    }
    await search('Offline Two');
    await page.click('[aria-label="Customers"] button.customer-row');
    expect(await page.textContent('dd[data-field="company"]')).toBe('Two Edited Co');
    await page.keyboard.press('Escape');
    await search('');
    await page.click('button[data-tab="routes"]');
    await expect
      .poll(() => page.locator('[aria-label="Routes"] button').allTextContents())
      .toEqual(expect.arrayContaining([expect.stringContaining('Offline route')]));
    await page.click('button[data-tab="customers"]');
    await page.click('.views button:has-text("Changes")');
    const kinds = await page
      .locator('.ops li')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')));
    expect(kinds.sort()).toEqual(
      [
        'createCustomer',
        'createCustomer',
        'createCustomer',
        'createRoute',
        'deleteCustomer',
        'updateCustomer',
      ].sort(),
    );
    await screenshot(page, 'changes');
  };

  const sendOnceWhenBack = async () => {
    const { page } = app;
    revived = await startService({ port: service.port, store: service.store, rate: 0 });
    await syncNow(page);
    await expect
      .poll(async () => {
        if ((await app.call<unknown[]>('listOps')).length > 0) await syncNow(page);
        return (await app.call<unknown[]>('listOps')).length;
      })
      .toBe(0);
    await waitSync(page, 'synced');

    const store = service.store;
    const customers = store.customers(USER);
    const named = (name: string) => customers.filter((c) => c.name === name);
    expect(named('Offline One')).toHaveLength(1);
    expect(named('Offline Two')).toHaveLength(1);
    expect(named('Offline Three')).toHaveLength(1);
    expect(customers).toHaveLength(total + 2);
    expect(named('Offline Two')[0]!.company).toBe('Two Edited Co');
    expect(named('Offline Two')[0]!.email).toBe('two@example.com');
    expect(named('Offline Three')[0]!.latitude).not.toBeNull();
    expect(store.customer(USER, edited.id)!.phone).toBe('555-0100');
    expect(store.customer(USER, deleted.id)).toBeUndefined();

    const routes = store.routes(USER).filter((r) => r.name === 'Offline route');
    expect(routes).toHaveLength(1);
    const one = named('Offline One')[0]!;
    const points = routes[0]!.points.map((p) => p.split(',').map(Number));
    expect(points).toEqual([
      [stop.latitude, stop.longitude],
      [one.latitude, one.longitude],
    ]);

    await search('');
    await waitRows(page, 'Customers', total + 2);
    await expect.poll(() => page.locator('[aria-label="Customers"] .pending').count()).toBe(0);
    expect(await page.getAttribute('.views button >> nth=0', 'data-count')).toBe('0');
  };

  // One story in steps: each step starts where the one before left the app and the service.
  it('queues creates, edits, a delete and a route offline; keeps them, pending, across a restart; sends each exactly once when the service is back', async () => {
    await signInAndSync();
    await queueWhileServiceDown();
    await keepAcrossRestartOffline();
    await sendOnceWhenBack();
  });
});
