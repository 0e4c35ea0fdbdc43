// One filter for every view, colour-by and the popup's actions (issue 15, items 1 and 5), in
// Chromium against the reference service. The expected set of each filter is computed here from
// the service's own records (the service's search rule, colour, group, visit age and reminder
// due); the list's count, the "N of M shown" line and the map must all show exactly that set.
// The map's set is read from what MapLibre drew: every unclustered pin in view plus the leaves of
// every cluster in view (getClusterLeaves), with the whole account fitted into view, so a pin the
// filter removed but a cluster still counted would fail the test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { matchesSearch, type Customer } from '../../../src-shared';
import { isReminderDue, visitAgeBucket } from '../../../src-shared/visits';
import { launchApp, startTestService, type AppHandle, type TestService } from '../../support/app';
import { signIn } from '../../support/app-steps';
import { testBoundMs } from '../../support/until';

const USER = 'rep';
const COUNT = 400;
// Each test's bound is its lane's (test/support/lanes.ts): a busy machine makes it slower, not red.
const WAIT = testBoundMs();
const DAY_MS = 86_400_000;

let service: TestService;
let app: AppHandle;

type Filter = {
  term?: string;
  color?: string;
  group?: string;
  visit?: 'due' | 'age:week' | 'age:month' | 'age:quarter' | 'age:older' | 'age:never';
};

function mapped(c: Customer): boolean {
  return c.latitude !== null && c.longitude !== null && String(c.latitude) !== '';
}

/** The ids a filter keeps, from the service's records. */
function expected(f: Filter): string[] {
  const now = Date.now();
  return service.store
    .customers(USER)
    .filter(
      (c) =>
        (f.term === undefined || matchesSearch(c, f.term)) &&
        (f.color === undefined || c.color === f.color) &&
        (f.group === undefined || c.groups.includes(f.group)) &&
        (f.visit === undefined ||
          (f.visit === 'due'
            ? isReminderDue(c.remindAt, now)
            : visitAgeBucket(c.lastVisit, now) === f.visit.slice(4))),
    )
    .map((c) => c.id)
    .sort();
}

function mappedIds(ids: string[]): string[] {
  const byId = new Map(service.store.customers(USER).map((c) => [c.id, c]));
  return ids.filter((id) => mapped(byId.get(id)!));
}

type Host = {
  fieldmapMap: {
    map: {
      fitBounds(b: unknown, o: unknown): void;
      jumpTo(o: { center: [number, number]; zoom: number }): void;
      once(e: string, f: () => void): void;
      triggerRepaint(): void;
      getLayer(id: string): unknown;
      getSource(id: string): {
        getClusterLeaves(
          id: number,
          limit: number,
          offset: number,
        ): Promise<Array<{ properties: { id: string } }>>;
      };
      queryRenderedFeatures(o: { layers: string[] }): Array<{
        id?: number;
        layer: { id: string; paint?: Record<string, unknown> };
        properties: Record<string, unknown>;
      }>;
    };
    customers: {
      bounds: unknown;
      customerIdAt(layer: string, fid: number): string | undefined;
    };
  };
};

/**
 * The customers the map draws: the whole account fitted into view, then every pin in view
 * (hidden replaced pins left out) and every leaf of every cluster in view.
 */
function drawnIds(page: Page): Promise<string[]> {
  return page.locator('.fm-map').evaluate(async (el) => {
    const c = (el as unknown as Host).fieldmapMap;
    c.map.fitBounds(c.customers.bounds, { padding: 48, animate: false });
    await new Promise<void>((done) => {
      c.map.once('idle', () => done());
      c.map.triggerRepaint();
    });
    const layers = ['fm-customers-clusters', 'fm-customers-pins', 'fm-customers-recent-pins'];
    const ids = new Set<string>();
    const clusters = new Set<number>();
    for (const f of c.map.queryRenderedFeatures({
      layers: layers.filter((l) => c.map.getLayer(l)),
    })) {
      if (f.layer.id === 'fm-customers-clusters')
        clusters.add(f.properties['cluster_id'] as number);
      else {
        const id = c.customers.customerIdAt(f.layer.id, f.id as number);
        if (id !== undefined) ids.add(id);
      }
    }
    const source = c.map.getSource('fm-customers');
    try {
      for (const cluster of clusters) {
        for (const leaf of await source.getClusterLeaves(cluster, Infinity, 0))
          ids.add(leaf.properties.id);
      }
    } catch (error) {
      // The source changed since the query (a cluster id of the old data): the poll asks again.
      return [`cluster leaves: ${String(error)}`];
    }
    return [...ids].sort();
  });
}

async function setFilter(page: Page, f: Filter): Promise<void> {
  await page.fill('input[aria-label="Search customers"]', f.term ?? '');
  await page.selectOption('select[aria-label="Filter by color"]', f.color ?? '');
  await page.selectOption('select[aria-label="Filter by group"]', f.group ?? '');
  // The visit filter is the toolbar's own list button (ui/ChoiceButton.svelte), not a <select>.
  const visit = f.visit ?? 'all';
  if ((await page.getAttribute(VISIT_FILTER, 'data-value')) !== visit) {
    await page.click(VISIT_FILTER);
    await page.click(`#visit-filter-list [role=option][data-value="${visit}"]`);
  }
}

const VISIT_FILTER = 'button[aria-controls="visit-filter-list"]';

async function countText(page: Page): Promise<string> {
  return ((await page.textContent('.customer-list .count')) ?? '').replace(/\s+/g, ' ').trim();
}

/** The most common value of a field among the records (ties: first seen). */
function mostCommon(values: string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]![0];
}

describe('Field day: one filter for every view', () => {
  beforeAll(async () => {
    service = await startTestService({ customers: COUNT, seed: 21 });
    // Whole days at midday (no customer on a band's edge while the test runs), and a third of
    // the reminders in the past (the seed's reminders are all ahead).
    const now = Date.now();
    service.store.customers(USER).forEach((c, i) => {
      const changes: Record<string, unknown> = {};
      if (c.lastVisit) changes['lastVisit'] = Math.floor((now - ((i % 150) + 0.5) * DAY_MS) / 1000);
      if (c.remindAt && i % 3 === 0)
        changes['remindAt'] = Math.floor((now - (i % 5) * DAY_MS - 3600_000) / 1000);
      if (Object.keys(changes).length > 0) service.store.updateCustomerDirect(USER, c.id, changes);
    });
    app = await launchApp({ serviceUrl: service.url });
    await signIn(app, service);
    await app.page.waitForFunction(
      (n) => document.querySelector('[aria-label="Customers"]')?.getAttribute('data-rows') === n,
      String(COUNT),
    );
  });

  afterAll(async () => {
    await app?.close();
    await service?.stop();
  });

  it(
    "the map draws exactly the list's filtered set for five filter combinations, and Reset shows all",
    async () => {
      const { page } = app;
      const all = service.store.customers(USER);
      const city = mostCommon(all.map((c) => c.city)).toLowerCase();
      const color = mostCommon(all.map((c) => c.color));
      const group = mostCommon(all.flatMap((c) => c.groups));
      const dueTerm = mostCommon(
        all.filter((c) => isReminderDue(c.remindAt, Date.now())).map((c) => c.city),
      )
        .slice(0, 3)
        .toLowerCase();
      const dueColor = mostCommon(
        all
          .filter((c) => isReminderDue(c.remindAt, Date.now()) && matchesSearch(c, dueTerm))
          .map((c) => c.color),
      );
      const combos: Filter[] = [
        { term: city },
        { color },
        { group },
        { visit: 'age:month' },
        { term: dueTerm, color: dueColor, visit: 'due' },
      ];
      for (const f of combos) {
        const want = expected(f);
        expect(want.length, JSON.stringify(f)).toBeGreaterThan(0);
        expect(want.length, JSON.stringify(f)).toBeLessThan(COUNT);
        await setFilter(page, f);
        await expect
          .poll(() => countText(page))
          .toBe(
            `${want.length.toLocaleString('en-US')} of ${COUNT.toLocaleString('en-US')} shown Reset filters`,
          );
        await expect.poll(() => drawnIds(page)).toEqual(mappedIds(want));
        await expect
          .poll(() => page.textContent('button.export-csv'))
          .toBe(`Export ${want.length.toLocaleString('en-US')} shown`);
      }
      await page.click('.customer-list button:has-text("Reset filters")');
      await expect.poll(() => countText(page)).toBe(`${COUNT} customers`);
      expect(await page.inputValue('input[aria-label="Search customers"]')).toBe('');
      expect(await page.getAttribute(VISIT_FILTER, 'data-value')).toBe('all');
      await expect.poll(() => drawnIds(page)).toEqual(mappedIds(expected({})));
      expect(await page.textContent('button.export-csv')).toBe('Export CSV');
    },
    WAIT,
  );

  it(
    'colours pins by days since the last visit, with a legend naming each band',
    async () => {
      const { page } = app;
      await page.selectOption('select[aria-label="Colour pins by"]', 'visit-age');
      const legend = await page.$$eval('.fm-map-legend li', (items) =>
        items.map((li) => li.textContent?.trim()),
      );
      expect(legend).toEqual([
        'Visited within 7 days',
        '8-30 days ago',
        '31-90 days ago',
        'Over 90 days ago',
        'Never visited',
      ]);
      const byId = new Map(service.store.customers(USER).map((c) => [c.id, c]));
      const now = Date.now();
      // Around the most common city, close enough that many of its pins are drawn alone.
      const city = mostCommon(
        service.store
          .customers(USER)
          .filter(mapped)
          .map((c) => c.city),
      );
      const there = service.store.customers(USER).filter((c) => mapped(c) && c.city === city);
      const centre: [number, number] = [
        there.reduce((a, c) => a + Number(c.longitude), 0) / there.length,
        there.reduce((a, c) => a + Number(c.latitude), 0) / there.length,
      ];
      // Each drawn single pin's colour (as MapLibre evaluated it) is its band's token colour.
      const pins = await page.locator('.fm-map').evaluate(async (el, at) => {
        const c = (el as unknown as Host).fieldmapMap;
        c.map.jumpTo({ center: at, zoom: 11 });
        await new Promise<void>((done) => {
          c.map.once('idle', () => done());
          c.map.triggerRepaint();
        });
        const css = getComputedStyle(document.documentElement);
        const tokens = Object.fromEntries(
          ['week', 'month', 'quarter', 'older', 'never'].map((b) => [
            b,
            css.getPropertyValue(`--fm-visit-${b}`).trim(),
          ]),
        );
        const hex = (v: unknown) => {
          const { r, g, b } = v as { r: number; g: number; b: number };
          return `#${[r, g, b]
            .map((x) =>
              Math.round(x * 255)
                .toString(16)
                .padStart(2, '0'),
            )
            .join('')}`;
        };
        return {
          tokens,
          pins: c.map.queryRenderedFeatures({ layers: ['fm-customers-pins'] }).map((f) => ({
            id: f.properties['id'] as string,
            color: hex(f.layer.paint?.['circle-color']),
          })),
        };
      }, centre);
      expect(pins.pins.length).toBeGreaterThan(0);
      for (const pin of pins.pins) {
        const bucket = visitAgeBucket(byId.get(pin.id)!.lastVisit, now);
        expect(pin.color, pin.id).toBe(pins.tokens[bucket]);
      }
      await page.selectOption('select[aria-label="Colour pins by"]', 'color');
    },
    WAIT,
  );

  it(
    'the popup logs a visit (one queued op) and adds the customer to the plan',
    async () => {
      const { page } = app;
      await setFilter(page, {});
      const target = service.store.customers(USER).find((c) => mapped(c) && c.name.length > 3)!;
      // The map looks at the customer, so its popup is in the window.
      await page
        .locator('.fm-map')
        .evaluate(
          (el, at) => (el as unknown as Host).fieldmapMap.map.jumpTo({ center: at, zoom: 15 }),
          [Number(target.longitude), Number(target.latitude)] as [number, number],
        );
      await page.fill('input[aria-label="Search customers"]', target.name);
      await page.click(`[aria-label="Customers"] .customer-row[data-id="${target.id}"]`);
      const popup = page.locator('.maplibregl-popup .fm-popup');
      await expect.poll(() => popup.locator('.fm-popup-name').textContent()).toBe(target.name);
      // Offline: the op stays queued, so the Changes count shows exactly what was queued.
      await app.setOffline(true);
      const changes = 'nav[aria-label="Sync views"] button.view >> nth=0';
      const queued = Number(await page.getAttribute(changes, 'data-count'));

      await popup.locator('button:has-text("Log visit")').click();
      const dialog = page.locator(`dialog:has-text("Log a visit to ${target.name}")`);
      await dialog.locator('button.primary:has-text("Log visit")').click();
      await expect.poll(() => dialog.count()).toBe(0);
      await expect.poll(() => page.getAttribute(changes, 'data-count')).toBe(String(queued + 1));
      await expect.poll(() => page.textContent('.fm-popup')).toContain('Changes not yet synced');

      const add = page.locator('.maplibregl-popup button.fm-popup-plan');
      await expect.poll(() => add.textContent()).toBe('Add to plan');
      await add.click();
      await expect.poll(() => add.textContent()).toBe('In plan');
      expect(await add.isDisabled()).toBe(true);
      // Reopened, the popup reads the plan again.
      await page.click('.maplibregl-popup-close-button');
      await expect.poll(() => page.locator('.maplibregl-popup').count()).toBe(0);
      await page.click(`[aria-label="Customers"] .customer-row[data-id="${target.id}"]`);
      await expect
        .poll(() => page.locator('.maplibregl-popup button.fm-popup-plan').textContent())
        .toBe('In plan');
      await app.setOffline(false);
    },
    WAIT,
  );
});
