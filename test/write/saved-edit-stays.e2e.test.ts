// A saved edit never flips back (issue 26): from Save until the service's version is in the
// cache, the detail panel, the list row, the popup and the pin show the rep's value. It used to
// flip to the old value as soon as the change was acknowledged (the outbox mirror dropped the
// op, and with it the overlay) until the next pull brought the new version.
// The flip is a matter of order, not of size: the service's gates hold the sync after the PUT
// was applied and before the pull's first GET, so the window is as wide as the test wants. The
// account has 2,000 customers, the issue's own visit case: enough that the map clusters and an
// edit goes through the pin patch and the data channel's pieces as a real account's does,
// small enough for a quick test. A recorder samples every view at each frame, so a value shown
// for a single frame counts too. Before the cache has the op at all (main's road held at the
// runner's gate, as a busy cache worker holds it), the views show the saved value from the frame
// the editor or dialog closes: the page lays what it saved over the rows it read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { PALETTE } from '../../src-shared';
import { RECENT_SOURCE } from '../../src-renderer/src/map/layers/customer-layer-specs';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import { heldKinds, signIn, untilMainSynced, waitRows, waitSync } from '../support/app-steps';
import { until } from '../support/until';

const COUNT = 2_000;
const USER = 'rep';
/** Customers a test already changed. */
const used: string[] = [];

let service: TestService;
let app: AppHandle;

/** What each view shows of the customer at one moment (null: the view is not showing it). */
type Views = {
  status: string;
  detail: { color: string; visits: string; pending: boolean } | null;
  row: { color: string; visit: string; pending: boolean } | null;
  popup: { color: string; pending: boolean } | null;
  pin: { color: string; age: string; pending: boolean } | null;
  /** The colours of its pin drawn by the map's source of changed pins. */
  drawn: string[];
};
type Sample = Views & { phase: string };

/** Installs the page's recorder of `id`'s views: one sample per frame, kept when it changed. */
async function record(page: Page, id: string): Promise<void> {
  await page.evaluate(
    ([customerId, recent]) => {
      type Pin = { properties: { color: string; age: string; pending: boolean } };
      type Layer = {
        featureIdOf(id: string): number | undefined;
        current(fid: number): Pin | null;
      };
      type Feature = { properties: Record<string, unknown> };
      const g = globalThis as unknown as {
        __views: () => unknown;
        __phase: string;
        __samples: unknown[];
        __recorder: number;
      };
      const text = (root: ParentNode, selector: string) =>
        root.querySelector(selector)?.textContent?.trim() ?? '';
      g.__views = () => {
        const detail = document.querySelector(
          `aside[aria-label="Customer details"][data-id="${customerId}"]`,
        );
        const row = document.querySelector(
          `[aria-label="Customers"] button.customer-row[data-id="${customerId}"]`,
        );
        const popup = document.querySelector('.fm-popup');
        const map = document.querySelector('.fm-map') as
          | (Element & {
              fieldmapMap?: {
                customers: Layer;
                map: { querySourceFeatures(source: string): Feature[] };
              };
            })
          | null;
        const layer = map?.fieldmapMap?.customers;
        const fid = layer?.featureIdOf(customerId);
        const pin = fid === undefined ? null : (layer?.current(fid) ?? null);
        return {
          status: text(document, '.sync-status .text'),
          detail: detail && {
            color: text(detail, 'dd[data-field="color"]'),
            visits: text(detail, 'dd[data-field="numVisits"]'),
            pending: detail.querySelector('.pending-note') !== null,
          },
          row: row && {
            color: row.querySelector('.dot')?.getAttribute('title') ?? '',
            visit: text(row, '.visit'),
            pending: row.querySelector('.pending') !== null,
          },
          popup: popup && {
            color: text(popup, '.fm-popup-color'),
            pending: popup.querySelector('.fm-popup-pending') !== null,
          },
          pin: pin && {
            color: pin.properties.color,
            age: String(pin.properties.age),
            pending: pin.properties.pending === true,
          },
          drawn: (map?.fieldmapMap?.map.querySourceFeatures(recent) ?? [])
            .filter((f) => f.properties['id'] === customerId)
            .map((f) => String(f.properties['color'])),
        };
      };
      g.__phase = 'before';
      g.__samples = [];
      // One recorder at a time: the one before stops at its next frame.
      const self = (g.__recorder = (g.__recorder ?? 0) + 1);
      let last = '';
      const frame = () => {
        if (g.__recorder !== self) return;
        // Save returned: main queued the change and the editor or the dialog closed.
        if (g.__phase === 'saving' && !document.querySelector('aside[data-editing], dialog[open]'))
          g.__phase = 'saved';
        const sample = { phase: g.__phase, ...(g.__views() as object) };
        const json = JSON.stringify(sample);
        if (json !== last) g.__samples.push(sample);
        last = json;
        requestAnimationFrame(frame);
      };
      frame();
    },
    [id, RECENT_SOURCE] as const,
  );
}

const views = (page: Page) =>
  page.evaluate(() => (globalThis as never as { __views: () => Views }).__views());
const samples = (page: Page) =>
  page.evaluate(() => (globalThis as never as { __samples: Sample[] }).__samples);
const phase = (page: Page, name: string) =>
  page.evaluate((n) => ((globalThis as never as { __phase: string }).__phase = n), name);

/** Waits until every view shows the customer, and `test` holds of what they show. */
async function viewsWhen(page: Page, what: string, test: (v: Views) => boolean): Promise<Views> {
  let seen: Views | null = null;
  await until(async () => {
    const v = await views(page);
    seen = v;
    return v.detail !== null && v.row !== null && v.popup !== null && v.pin !== null && test(v);
  }, what);
  return seen!;
}

/**
 * The frames from the first after Save in which every view shows the rep's value (`shows`): the
 * views are drawn again one after another, so a frame before that may show part of it.
 */
function sinceShown(all: Sample[], shows: (s: Sample) => boolean): Sample[] {
  const from = all.findIndex((s) => s.phase !== 'before' && s.phase !== 'saving' && shows(s));
  expect(from).toBeGreaterThanOrEqual(0);
  return all.slice(from);
}

const pendingEverywhere = (v: Views) =>
  v.detail!.pending && v.row!.pending && v.popup!.pending && v.pin!.pending;
const pendingNowhere = (v: Views) =>
  !v.detail!.pending && !v.row!.pending && !v.popup!.pending && !v.pin!.pending;

/** A mapped customer whose name no other customer's contains (a search finds it alone). */
function pickCustomer() {
  const all = service.store.customers(USER);
  const found = all.find(
    (c) =>
      !used.includes(c.id) &&
      c.latitude !== null &&
      c.longitude !== null &&
      c.name.trim() !== '' &&
      all.filter((o) => o.name.toLowerCase().includes(c.name.toLowerCase())).length === 1,
  )!;
  used.push(found.id);
  return found;
}

/** Opens a customer's details (and its popup) from the list. */
async function open(page: Page, id: string, name: string): Promise<void> {
  await page.fill('input[aria-label="Search customers"]', name);
  await page.click(`[aria-label="Customers"] button.customer-row[data-id="${id}"]`);
  await page.waitForSelector(`aside[aria-label="Customer details"][data-id="${id}"]`);
}

/**
 * Takes a change saved offline through its sync, one held step at a time, and returns the views
 * at each: queued, sent (the service applied it, its answer held), acknowledged (the push is
 * over, the pull held before its first GET) and pulled (the service's version in the cache).
 */
async function throughSync(page: Page, id: string): Promise<Record<string, Views>> {
  const steps: Record<string, Views> = {};
  await phase(page, 'queued');
  steps['queued'] = await viewsWhen(page, 'the change shows as queued', pendingEverywhere);
  const before = service.store.customer(USER, id)!.updatedAt;
  const put = service.hold('PUT', new RegExp(`^/api/v1/customers/${id}$`), 'after-commit');
  const pull = service.hold('GET', /^\/api\/v1\/user$/);
  await app.setOffline(false);
  await put.arrived;
  await phase(page, 'sent');
  steps['sent'] = await views(page);
  put.release();
  await pull.arrived;
  await phase(page, 'acknowledged');
  // The op left the queue: every view has heard (nothing marks it pending any more).
  steps['acknowledged'] = await viewsWhen(page, 'the op is done in every view', pendingNowhere);
  pull.release();
  await waitSync(page, 'synced');
  // The pull brought the service's version (its updatedAt is the PUT's).
  expect(service.store.customer(USER, id)!.updatedAt).not.toEqual(before);
  await phase(page, 'pulled');
  steps['pulled'] = await viewsWhen(page, 'the pulled version shows', pendingNowhere);
  return steps;
}

beforeAll(async () => {
  service = await startTestService({ customers: COUNT, seed: 26 });
  app = await launchApp({ serviceUrl: service.url });
  await signIn(app, service);
});

afterAll(async () => {
  await app?.close();
  await service?.stop();
});

describe('a saved change on a 2,000-customer account', () => {
  it('shows the new colour in every view from Save until the pull, never the old one', async () => {
    const { page } = app;
    await waitRows(page, 'Customers', COUNT);
    await waitSync(page, 'synced');
    const target = pickCustomer();
    const color = PALETTE.find((p) => p !== target.color)!;
    await open(page, target.id, target.name);
    await record(page, target.id);
    await viewsWhen(page, 'the old colour shows', (v) => v.pin!.color === target.color);

    // Offline, so the change stays queued until the test lets it go.
    await app.setOffline(true);
    await page.click('aside[aria-label="Customer details"] button:has-text("Edit")');
    await page.waitForSelector(`aside[data-editing="${target.id}"]`);
    await page.check(`input[name="color"][value="${color}"]`);
    await phase(page, 'saving');
    await page.click('button:has-text("Save changes")');
    await page.waitForSelector('aside[data-editing]', { state: 'detached' });
    const steps = await throughSync(page, target.id);
    expect(service.store.customer(USER, target.id)!.color).toBe(color);

    const colours = (v: Views) => [v.detail?.color, v.row?.color, v.popup?.color, v.pin?.color];
    for (const [step, v] of Object.entries(steps)) {
      expect({ step, colours: colours(v) }).toEqual({
        step,
        colours: [color, color, color, color],
      });
    }
    // Every frame from the one where Save's colour showed: that colour, or the view not showing
    // the customer at all.
    const old = sinceShown(await samples(page), (s) => colours(s).every((c) => c === color)).filter(
      (s) => colours(s).some((c) => c !== undefined && c !== color),
    );
    expect(old).toEqual([]);
  });

  it('never shows fewer visits than the rep logged', async () => {
    const { page } = app;
    await waitSync(page, 'synced');
    const target = pickCustomer();
    const visits = service.store.customer(USER, target.id)!.numVisits;
    await open(page, target.id, target.name);
    await record(page, target.id);
    const first = await viewsWhen(page, 'the details show', (v) => v.detail!.visits !== '');
    expect(first.detail!.visits).toBe(String(visits));

    await app.setOffline(true);
    await page.click('aside[aria-label="Customer details"] button:has-text("Log visit")');
    const dialog = page.locator('dialog[open]');
    await phase(page, 'saving');
    await dialog.locator('button', { hasText: 'Log visit' }).click();
    await dialog.waitFor({ state: 'detached' });
    const steps = await throughSync(page, target.id);
    expect(service.store.customer(USER, target.id)!.numVisits).toBe(visits + 1);

    const logged = (v: Views) => ({
      visits: v.detail?.visits,
      age: v.pin?.age,
      visit: v.row?.visit,
    });
    const after = logged(steps['pulled']!);
    for (const [step, v] of Object.entries(steps)) {
      expect({ step, ...logged(v) }).toEqual({ step, ...after });
    }
    expect(after.visits).toBe(String(visits + 1));
    const same = (s: Sample) => JSON.stringify(logged(s)) === JSON.stringify(after);
    const back = sinceShown(await samples(page), same).filter(
      (s) =>
        (s.detail !== null && s.detail.visits !== after.visits) ||
        (s.row !== null && s.row.visit !== after.visit) ||
        (s.pin !== null && s.pin.age !== after.age),
    );
    expect(back).toEqual([]);
  });
});

/** Every frame from the one Save returned in (the editor or dialog closed) that fails `shows`. */
async function framesAfterSave(page: Page, shows: (s: Views) => boolean): Promise<Sample[]> {
  const after = (await samples(page)).filter((s) => !['before', 'saving'].includes(s.phase));
  return after.filter((s) => !shows(s));
}

/**
 * Holds main's road at the runner's gate (nothing of main's reaches the cache worker) while
 * `save` saves a change; waits until every view shows it as queued and `shows` holds, failing at
 * the first frame since Save that did not; lets main sync and hands the held messages on in
 * main's order. Returns the views while held.
 */
async function savedWhileHeld(
  page: Page,
  save: () => Promise<void>,
  shows: (v: Views) => boolean,
): Promise<Views> {
  await expect.poll(() => app.dataChannelOpen()).toBe(true);
  const gate = app.gateRoad();
  await phase(page, 'saving');
  await save();
  let held: Views | null = null;
  await until(async () => {
    expect(await framesAfterSave(page, shows)).toEqual([]);
    const v = (held = await views(page));
    return v.detail !== null && v.row !== null && v.pin !== null && pendingEverywhere(v);
  }, 'every view shows the saved change as queued');
  // The page showed it before the cache worker heard of it: main's mirror is still held.
  expect(heldKinds(gate)).toContain('outbox:changed');
  await untilMainSynced(app);
  gate.end();
  await phase(page, 'released');
  for (let i = 0; i < gate.held(); i++) await gate.release(i, 'socket');
  await waitSync(page, 'synced');
  await viewsWhen(page, 'the pulled version shows', pendingNowhere);
  // From the frame Save returned in, through the release, the send and the read-back.
  expect(await framesAfterSave(page, shows)).toEqual([]);
  return held!;
}

describe('a saved change while the cache worker has not applied it', () => {
  it('shows the new colour in every view from Save on, before the cache has it', async () => {
    const { page } = app;
    await waitSync(page, 'synced');
    const target = pickCustomer();
    const color = PALETTE.find((p) => p !== target.color)!;
    await open(page, target.id, target.name);
    await record(page, target.id);
    await viewsWhen(page, 'the old colour shows', (v) => v.pin!.color === target.color);
    await page.click('aside[aria-label="Customer details"] button:has-text("Edit")');
    await page.waitForSelector(`aside[data-editing="${target.id}"]`);
    await page.check(`input[name="color"][value="${color}"]`);
    const held = await savedWhileHeld(
      page,
      async () => {
        await page.click('button:has-text("Save changes")');
        await page.waitForSelector('aside[data-editing]', { state: 'detached' });
      },
      (v) =>
        [v.detail?.color, v.row?.color, v.popup?.color, v.pin?.color, ...v.drawn].every(
          (c) => c === undefined || c === color,
        ),
    );
    // Never "Synced" over a change the views show as queued.
    expect(held.status).not.toMatch(/^Synced/);
    expect(service.store.customer(USER, target.id)!.color).toBe(color);
  });

  it("shows the logged visit's count in every view from Save on, before the cache has it", async () => {
    const { page } = app;
    await waitSync(page, 'synced');
    const target = pickCustomer();
    const visits = service.store.customer(USER, target.id)!.numVisits;
    await open(page, target.id, target.name);
    await record(page, target.id);
    await viewsWhen(page, 'the details show', (v) => v.detail!.visits === String(visits));
    await page.click('aside[aria-label="Customer details"] button:has-text("Log visit")');
    const dialog = page.locator('dialog[open]');
    const held = await savedWhileHeld(
      page,
      async () => {
        await dialog.locator('button', { hasText: 'Log visit' }).click();
        await dialog.waitFor({ state: 'detached' });
      },
      (v) => v.detail === null || v.detail.visits === String(visits + 1),
    );
    expect(held.status).not.toMatch(/^Synced/);
    expect(service.store.customer(USER, target.id)!.numVisits).toBe(visits + 1);
  });
});
