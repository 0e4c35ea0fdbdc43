// The workflow UI end to end: the real main services and the built renderer in Chromium
// (test/support/app.ts) against the reference service. Log a visit from the detail panel,
// optimise a route's order in the route builder, and export the filtered list as CSV.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { routeLength } from '../../src-shared/route-optimizer';
import { positionOf } from '../../src-shared/geo';
import { colorHex } from '../../src-shared/palette';
import { parseCsv } from '../../src-renderer/src/features/import-export/csv-io';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';

let service: TestService;
let app: AppHandle;

beforeAll(async () => {
  service = await startTestService({ customers: 60, seed: 41 });
  app = await launchApp({ serviceUrl: service.url });
  const { username, password } = service.account;
  await app.call('login', { baseUrl: service.url, username, password });
  await app.page.waitForFunction(
    () => document.querySelector('[aria-label="Customers"]')?.getAttribute('data-rows') === '60',
    undefined,
  );
});

afterAll(async () => {
  await app?.close();
  await service?.stop();
});

// Each test starts from the same screen, whatever the one before it left open: no dialog, no
// panel (the route builder hides the details), the whole list.
beforeEach(async () => {
  const builder = app.page.locator('button:has-text("Build route")');
  for (let i = 0; i < 3; i++) {
    const open =
      (await app.page.locator('dialog[open], aside[aria-label="Customer details"]').count()) > 0 ||
      (await builder.getAttribute('aria-pressed')) === 'true';
    if (!open) break;
    await app.page.keyboard.press('Escape');
  }
  expect(await builder.getAttribute('aria-pressed')).toBe('false');
  await app.page.fill('input[aria-label="Search customers"]', '');
  await app.page.waitForFunction(
    () => document.querySelector('[aria-label="Customers"]')?.getAttribute('data-rows') === '60',
  );
});

describe('workflow UI', () => {
  it('logs a visit with a note from the detail panel', async () => {
    const target = service.store.customers('rep').find((c) => c.name.trim() !== '')!;
    await app.page.fill('input[aria-label="Search customers"]', target.name);
    await app.page.locator('[aria-label="Customers"] [role=option] button').first().click();
    const panel = app.page.locator('aside[aria-label="Customer details"]');
    const id = await panel.getAttribute('data-id');
    const before = service.store.customer('rep', id!)!;
    await panel.locator('button', { hasText: 'Log visit' }).click();
    const dialog = app.page.locator('dialog[open]');
    await dialog.locator('textarea').fill('Demoed the new range');
    await dialog.locator('button', { hasText: 'Log visit' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expect
      .poll(() => service.store.customer('rep', id!)!.numVisits)
      .toBe(before.numVisits + 1);
    const after = service.store.customer('rep', id!)!;
    expect(after.notes).toContain('visit: Demoed the new range');
    // The demo account keeps seconds.
    expect(after.lastVisit).toBeLessThan(1e11);
    expect(after.lastVisit).toBeGreaterThan(Date.now() / 1000 - 600);
    // The panel shows the visit's age bucket once the pull brought it back.
    await expect
      .poll(() => panel.locator('[data-bucket]').textContent())
      .toContain('Visited today');
  });

  it('optimises the order of a route in the builder, never making it longer', async () => {
    const mapped = service.store
      .customers('rep')
      .filter((c) => positionOf(c) !== null)
      .slice(0, 12);
    await app.page.click('button:has-text("Build route")');
    for (const c of mapped) {
      await app.page.fill('input[aria-label="Search customers"]', c.name);
      const row = app.page.locator(
        `[aria-label="Customers"] [role=option]:has([data-id="${c.id}"]) input[type=checkbox]`,
      );
      if ((await row.count()) > 0) await row.first().check();
    }
    await app.page.fill('input[aria-label="Search customers"]', '');
    const stops = app.page.locator('.route-builder ol.stops li');
    const ids = await stops.evaluateAll((els) => els.map((e) => e.getAttribute('data-id')!));
    expect(ids.length).toBeGreaterThan(3);
    const positions = new Map(mapped.map((c) => [c.id, positionOf(c)!]));
    const lengthOf = (order: string[]) =>
      routeLength(order.map((id) => ({ id, position: positions.get(id)! })));
    await app.page.click('button:has-text("Optimise order")');
    await app.page.locator('.planner [role=status]').waitFor();
    await app.page.click('button:has-text("Use this order")');
    const optimised = await stops.evaluateAll((els) => els.map((e) => e.getAttribute('data-id')!));
    expect([...optimised].sort()).toEqual([...ids].sort());
    expect(optimised[0]).toBe(ids[0]);
    expect(lengthOf(optimised)).toBeLessThanOrEqual(lengthOf(ids) + 1e-6);
  });

  it('exports the list after the search as CSV with every field', async () => {
    const target = service.store.customers('rep')[5]!;
    await app.page.fill('input[aria-label="Search customers"]', target.name);
    // With a filter on, Export says how many it exports: the list's rows, no more.
    const exportShown = app.page.locator('button', { hasText: /^Export [\d,]+ shown$/ });
    await exportShown.waitFor();
    const rows = Number((await exportShown.textContent())!.replace(/\D/g, ''));
    expect(Number(await app.page.getAttribute('[aria-label="Customers"]', 'data-rows'))).toBe(rows);
    const [download] = await Promise.all([app.page.waitForEvent('download'), exportShown.click()]);
    const csv = parseCsv(await readFile((await download.path())!, 'utf8'));
    expect(csv.headers).toContain('custom9');
    expect(csv.headers).toContain('lastVisit');
    expect(csv.rows).toHaveLength(rows);
    expect(csv.rows.map((r) => r[0])).toContain(target.id);
  });

  it('shows each customer in one colour: list dot, details and pin alike', async () => {
    // The pins' colours (asserted in pixels by map.test.ts) come from the same table.
    const rgb = (hex: string) =>
      `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
    const dots = await app.page
      .locator('[aria-label="Customers"] [role=option] .dot')
      .evaluateAll((els) =>
        els.slice(0, 30).map((e) => ({
          color: e.getAttribute('title')!,
          shown: getComputedStyle(e).backgroundColor,
        })),
      );
    expect(new Set(dots.map((d) => d.color)).size).toBeGreaterThan(3);
    for (const d of dots) expect(d).toEqual({ color: d.color, shown: rgb(colorHex(d.color)) });
    await app.page.locator('[aria-label="Customers"] [role=option] button').first().click();
    const panel = app.page.locator('aside[aria-label="Customer details"]');
    const id = (await panel.getAttribute('data-id'))!;
    const color = service.store.customer('rep', id)!.color;
    expect(
      await panel
        .locator('.dot')
        .first()
        .evaluate((e) => getComputedStyle(e).backgroundColor),
    ).toBe(rgb(colorHex(color)));
  });
});
