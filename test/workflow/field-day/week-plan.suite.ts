// Plan the week in the app (issue 15, item 3), in Chromium against the reference service: a
// seeded week instance (test/support/week-instances.ts) becomes customers with a visit length
// and an opening window in custom fields; the plan the panel shows must keep every day inside
// its working hours and every visit inside its window (read back from the timeline's numbers),
// bad input must say what is wrong next to the input it concerns, a stop moved to another day
// changes both days, and saving three days queues three routes that reach the service once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchApp, startTestService, type AppHandle, type TestService } from '../../support/app';
import { customerRecord } from '../../support/customer-record';
import { isTempId } from '../../../src-shared/outbox-types';
import { weekInstance } from '../../support/week-instances';
import type { CustomerView } from '../../../src-renderer/src/types';
import {
  defaultSettings,
  fieldOfMessage,
  readForm,
  resolvePoint,
} from '../../../src-renderer/src/features/plan/week-plan-form';
import { signIn, syncNow, waitRows } from '../../support/app-steps';
import { testBoundMs } from '../../support/until';

const USER = 'rep';
const STOPS = 24;
// Each test's bound is its lane's (test/support/lanes.ts): a busy machine makes it slower, not red.
const WAIT = testBoundMs();
const hhmm = (min: number) =>
  `${String(Math.floor(min / 60)).padStart(2, '0')}:${String(min % 60).padStart(2, '0')}`;

let service: TestService;
let app: AppHandle;
/** Seeded stops by customer id: the window and visit minutes written into their custom fields. */
const seeded = new Map<string, { openMin: number; closeMin: number } | null>();
const serviceOf = new Map<string, number>();

type ShownVisit = { id: string; arrive: number; start: number; depart: number };
type ShownDay = { start: number; end: number; back: number; fits: boolean; visits: ShownVisit[] };

/** The timeline as the panel shows it: each day's hours, return and visits (minutes of the day). */
async function shownDays(page: Page): Promise<ShownDay[]> {
  return page.$$eval('.wp-day', (days) =>
    days.map((day) => {
      const n = (el: Element, name: string) => Number(el.getAttribute(name));
      return {
        start: n(day, 'data-start-min'),
        end: n(day, 'data-end-min'),
        back: n(day, 'data-return-min'),
        fits: day.getAttribute('data-fits') === 'true',
        visits: [...day.querySelectorAll('.wp-visit')].map((v) => ({
          id: v.getAttribute('data-id') ?? '',
          arrive: n(v, 'data-arrive'),
          start: n(v, 'data-start'),
          depart: n(v, 'data-depart'),
        })),
      };
    }),
  );
}

async function openPanel(page: Page): Promise<void> {
  if (!(await page.isVisible('aside.week-plan')))
    await page.click('button:has-text("Plan the week")');
  await page.waitForSelector('aside.week-plan');
}

async function search(page: Page, term: string, rows: number): Promise<void> {
  await page.fill('input[aria-label="Search customers"]', term);
  await waitRows(page, 'Customers', rows);
}

/** Fills the form for the seeded stops (the list filtered to them) and plans. */
async function planSeeded(page: Page, days: Array<[string, string]>): Promise<void> {
  await search(page, 'Week Stop', STOPS);
  await openPanel(page);
  await page.selectOption('select[aria-label="Customers to plan"]', 'list');
  await page.selectOption('select[aria-label="Start from"]', 'coords');
  await page.fill('input[aria-label="Start point"]', '51.5, -0.1');
  await page.fill('input[aria-label="First day"]', '2026-11-23');
  await page.fill('input[aria-label="Number of days"]', String(days.length));
  for (const [i, [from, to]] of days.entries()) {
    await page.fill(`input[aria-label="Day ${i + 1} starts"]`, from);
    await page.fill(`input[aria-label="Day ${i + 1} ends"]`, to);
  }
  await page.fill('input[aria-label="Visit minutes"]', '20');
  await page.selectOption('select[aria-label="Visit minutes from field"]', 'custom2');
  await page.selectOption('select[aria-label="Time windows from field"]', 'custom1');
  // Speed and road factor are folded under Advanced (it stays open once opened).
  const advanced = '[data-advanced="week-plan"]';
  if (!(await page.$eval(advanced, (d) => (d as HTMLDetailsElement).open)))
    await page.click(`${advanced} > summary`);
  await page.fill('input[aria-label="Average speed (km/h)"]', '40');
  await page.fill('input[aria-label="Road factor"]', '1.3');
  await page.click('button:has-text("Make the plan")');
  // Every row shown (a long plan's rows come a slice per frame: WeekPlanDays).
  await page.waitForSelector('.wp-result[aria-busy="false"]').catch(async (error: unknown) => {
    // Name what the panel says instead of a bare timeout.
    throw new Error(
      `no plan shown; the panel reads: ${await page.textContent('aside.week-plan')}`,
      {
        cause: error,
      },
    );
  });
}

const minutes = (text: string) => {
  const [h, m] = text.split(':').map(Number);
  return h! * 60 + m!;
};

describe('Plan the week', () => {
  beforeAll(async () => {
    service = await startTestService({ customers: 0, seed: 15 });
    // The custom fields' names, as the rep's web account would have set them.
    const auth = Buffer.from(`${USER}:${service.account.password}`).toString('base64');
    const named = await fetch(`${service.url}/api/v1/user/customfields`, {
      method: 'PUT',
      headers: { authorization: `Basic ${auth}`, 'content-type': 'application/json' },
      body: JSON.stringify({ 'Opening window': 1, 'Visit minutes': 2 }),
    });
    expect(named.ok).toBe(true);
    const instance = weekInstance(STOPS, 15);
    instance.stops.forEach((stop, i) => {
      const c = service.store.createCustomerDirect(USER, {
        name: `Week Stop ${String(i + 1).padStart(2, '0')}`,
        latitude: stop.position[1],
        longitude: stop.position[0],
        custom1: stop.window ? `${hhmm(stop.window.openMin)}-${hhmm(stop.window.closeMin)}` : '',
        custom2: String(stop.serviceMin),
      });
      seeded.set(c.id, stop.window ?? null);
      serviceOf.set(c.id, stop.serviceMin!);
    });
    service.store.createCustomerDirect(USER, {
      name: 'Check Odd Window',
      latitude: 51.52,
      longitude: -0.12,
      custom1: 'after lunch',
    });
    service.store.createCustomerDirect(USER, {
      name: 'Check Early Window',
      latitude: 51.48,
      longitude: -0.08,
      custom1: '05:00-06:30',
    });
    service.store.createCustomerDirect(USER, { name: 'Depot Nowhere', city: 'Unknown' });
    app = await launchApp({ serviceUrl: service.url });
    app.page.on('pageerror', (error) => console.error('page error:', error.message));
    await signIn(app, service);
  });

  afterAll(async () => {
    await app?.close();
    await service?.stop();
  });

  it(
    "draws the plan with GL programs the map's own layers linked, none of its own",
    async () => {
      const { page } = app;
      // From before the plan: each plan layer's draw, and the GL programs linked while it drew
      // (MapLibre's painter keys them by which paint properties are data-driven; internal). A
      // program's first draw links it, a synchronous wait on the GPU process: a long task.
      await page.evaluate(() => {
        type Layer = { id: string };
        type Painter = {
          programCache: { programs: Record<string, unknown> };
          renderLayer(p: Painter, t: unknown, layer: Layer, coords: unknown[], c: unknown): void;
        };
        const { map } = (
          document.querySelector('.fm-map') as Element & {
            fieldmapMap: { map: { painter: Painter } };
          }
        ).fieldmapMap;
        const seen = { drawn: [] as string[], linked: [] as string[] };
        (globalThis as { __planDraws?: typeof seen }).__planDraws = seen;
        const painter = map.painter;
        const renderLayer = painter.renderLayer.bind(painter);
        painter.renderLayer = (p, t, layer, coords, c) => {
          if (!layer.id.startsWith('fm-week-plan') || coords.length === 0)
            return renderLayer(p, t, layer, coords, c);
          const before = new Set(Object.keys(painter.programCache.programs));
          renderLayer(p, t, layer, coords, c);
          seen.drawn.push(layer.id);
          for (const k of Object.keys(painter.programCache.programs))
            if (!before.has(k)) seen.linked.push(`${layer.id}: ${k}`);
        };
      });
      await planSeeded(page, [
        ['08:30', '17:30'],
        ['08:30', '17:30'],
      ]);
      const visits = (await shownDays(page)).flatMap((d) => d.visits).length;
      expect(visits).toBeGreaterThan(0);
      type Styled = {
        getStyle(): {
          sources: Record<string, { data: { features: unknown[] } }>;
          glyphs?: string;
        };
      };
      const stops = () =>
        page.locator('.fm-map').evaluate((el) => {
          const { map } = (el as unknown as { fieldmapMap: { map: Styled } }).fieldmapMap;
          return map.getStyle().sources['fm-week-plan-stops']?.data.features.length ?? 0;
        });
      // Every planned stop on the map.
      await expect.poll(stops).toBe(visits);
      const glyphs = await page
        .locator('.fm-map')
        .evaluate(
          (el) =>
            !!(el as unknown as { fieldmapMap: { map: Styled } }).fieldmapMap.map.getStyle().glyphs,
        );
      const draws = () =>
        page.evaluate(() => (globalThis as { __planDraws?: { drawn: string[] } }).__planDraws!);
      // Its lines, stops and (when the style has glyphs) numbers drawn...
      const kinds = glyphs
        ? ['fm-week-plan-lines', 'fm-week-plan-stops', 'fm-week-plan-numbers']
        : ['fm-week-plan-lines', 'fm-week-plan-stops'];
      await expect
        .poll(async () => {
          const { drawn } = await draws();
          return kinds.filter((kind) => drawn.some((id) => id.startsWith(kind)));
        })
        .toEqual(kinds);
      // ...with no program linked for them.
      const { linked } = await page.evaluate(
        () => (globalThis as { __planDraws?: { linked: string[] } }).__planDraws!,
      );
      expect(linked).toEqual([]);
    },
    WAIT,
  );

  it(
    'shows a plan that keeps every day inside its hours and every visit inside its window',
    async () => {
      const { page } = app;
      const hours: Array<[string, string]> = [
        ['08:30', '17:30'],
        ['10:00', '15:00'],
        ['08:30', '17:30'],
      ];
      await planSeeded(page, hours);
      const days = await shownDays(page);
      expect(days).toHaveLength(3);
      const planned = new Set<string>();
      days.forEach((day, d) => {
        expect(day.start).toBe(minutes(hours[d]![0]));
        expect(day.end).toBe(minutes(hours[d]![1]));
        expect(day.fits).toBe(true);
        expect(day.back).toBeLessThanOrEqual(day.end + 1e-6);
        let time = day.start;
        for (const v of day.visits) {
          expect(planned.has(v.id), `${v.id} planned twice`).toBe(false);
          planned.add(v.id);
          expect(v.arrive).toBeGreaterThanOrEqual(time);
          expect(v.start).toBeGreaterThanOrEqual(v.arrive);
          const window = seeded.get(v.id);
          expect(window, `${v.id} is a seeded stop`).not.toBeUndefined();
          if (window) {
            expect(v.start).toBeGreaterThanOrEqual(window.openMin);
            expect(v.start).toBeLessThanOrEqual(window.closeMin + 1e-6);
          }
          expect(v.depart - v.start).toBeCloseTo(serviceOf.get(v.id)!, 6);
          time = v.depart;
        }
        if (day.visits.length > 0) expect(day.back).toBeGreaterThan(time);
      });
      expect(planned.size).toBeGreaterThan(STOPS / 2);
      // Every stop is either planned or listed as left over, with its reason.
      const leftover = await page.$$eval('.wp-leftover', (els) =>
        els.map((el) => el.getAttribute('data-id') ?? ''),
      );
      expect(new Set([...planned, ...leftover]).size).toBe(STOPS);
      expect(planned.size + leftover.length).toBe(STOPS);
      // The timeline's text says the same times as its numbers.
      const first = days.find((d) => d.visits.length > 0)!.visits[0]!;
      const row = await page.textContent(`.wp-visit[data-id="${first.id}"]`);
      expect(row).toContain(hhmm(Math.round(first.start)));
      // Before and after optimising, and each day on the map in its own colour.
      await expect(page.textContent('.wp-compare')).resolves.toMatch(/Before optimising/);
      const colours = await page.locator('.fm-map').evaluate((el) => {
        type Src = { data: { features: Array<{ properties: { day: number; color: string } }> } };
        const map = (
          el as unknown as {
            fieldmapMap: { map: { getStyle(): { sources: Record<string, Src> } } };
          }
        ).fieldmapMap.map;
        const source = map.getStyle().sources['fm-week-plan-lines'];
        return source
          ? source.data.features.map((f) => [f.properties.day, f.properties.color])
          : [];
      });
      const drawn = days.flatMap((d, i) => (d.visits.length > 0 ? [i] : []));
      expect(colours.map(([day]) => day)).toEqual(drawn);
      expect(new Set(colours.map(([, colour]) => colour)).size).toBe(drawn.length);
    },
    WAIT,
  );

  it(
    'says why a plan cannot be made, next to the input concerned',
    async () => {
      const { page } = app;
      // Not a single stop fits: visits longer than the day.
      await planSeeded(page, [['08:30', '09:00']]);
      await expect.poll(() => page.textContent('#wp-fit-msg')).toMatch(/Not one visit fits/);
      // A start without a position: a customer who is not on the map.
      await page.selectOption('select[aria-label="Start from"]', 'customer');
      await page.fill('input[aria-label="Start point"]', 'Depot Nowhere');
      await page.click('button:has-text("Make the plan")');
      await expect
        .poll(() => page.textContent('#wp-start-msg'))
        .toMatch(/start point has no position/);
      // Windows outside the working hours, and one that cannot be read.
      await search(page, 'Check', 2);
      await page.selectOption('select[aria-label="Start from"]', 'coords');
      await page.fill('input[aria-label="Start point"]', '51.5, -0.1');
      await page.fill('input[aria-label="Day 1 ends"]', '17:30');
      await page.click('button:has-text("Make the plan")');
      const windows = () => page.textContent('#wp-windows-msg');
      await expect.poll(windows).toMatch(/outside the working hours.*Check Early Window/s);
      await expect.poll(windows).toMatch(/could not be read.*Check Odd Window.*after lunch/s);
      // Both are listed as left over, each with its reason (once the planner has answered).
      const reasons = () =>
        page.$$eval('.wp-leftover', (els) => els.map((el) => el.textContent).join('\n'));
      await expect.poll(reasons).toMatch(/Check Odd Window: its time window could not be read/);
      await expect.poll(reasons).toMatch(/Check Early Window: its time window is outside/);
    },
    WAIT,
  );

  it(
    'moves a stop to another day and recomputes both days',
    async () => {
      const { page } = app;
      await planSeeded(page, [
        ['08:30', '17:30'],
        ['08:30', '17:30'],
      ]);
      const before = await shownDays(page);
      const moved = before[0]!.visits[0]!;
      const totals = async () =>
        page.$$eval('.wp-day .wp-total', (els) => els.map((el) => el.textContent));
      const totalsBefore = await totals();
      const name = await page.getAttribute(`.wp-visit[data-id="${moved.id}"]`, 'data-name');
      await page.selectOption(`select[aria-label="Move ${name} to"]`, '1');
      await expect
        .poll(async () => (await shownDays(page))[1]!.visits.map((v) => v.id))
        .toContain(moved.id);
      const after = await shownDays(page);
      expect(after[0]!.visits.map((v) => v.id)).not.toContain(moved.id);
      expect(after[0]!.visits).toHaveLength(before[0]!.visits.length - 1);
      expect(after[1]!.visits).toHaveLength(before[1]!.visits.length + 1);
      const totalsAfter = await totals();
      expect(totalsAfter[0]).not.toBe(totalsBefore[0]);
      expect(totalsAfter[1]).not.toBe(totalsBefore[1]);
      // Day 2 is rescheduled: its visits follow one another from its start.
      let time = after[1]!.start;
      for (const v of after[1]!.visits) {
        expect(v.arrive).toBeGreaterThanOrEqual(time);
        time = v.depart;
      }
      // Up within a day: the order changes and the day is rescheduled.
      const second = after[1]!.visits[1]!;
      const secondName = await page.getAttribute(`.wp-visit[data-id="${second.id}"]`, 'data-name');
      await page.click(`button[aria-label="Move ${secondName} up"]`);
      await expect.poll(async () => (await shownDays(page))[1]!.visits[0]!.id).toBe(second.id);
      // Every visit of day 1 moved to day 2: day 2 no longer fits its hours, and says so.
      for (const visit of (await shownDays(page))[0]!.visits) {
        const n = await page.getAttribute(`.wp-visit[data-id="${visit.id}"]`, 'data-name');
        await page.selectOption(`select[aria-label="Move ${n} to"]`, '1');
      }
      await expect.poll(async () => (await shownDays(page))[0]!.visits).toHaveLength(0);
      const full = (await shownDays(page))[1]!;
      expect(full.visits).toHaveLength(after[0]!.visits.length + after[1]!.visits.length);
      expect(full.fits).toBe(false);
      expect(full.back).toBeGreaterThan(full.end);
      const problems = await page.$$eval('.wp-day[data-day="1"] .wp-problem', (els) =>
        els.map((el) => el.textContent).join('\n'),
      );
      expect(problems).toContain('after the working hours end at 17:30');
    },
    WAIT,
  );

  it(
    'saves three days as three routes, each reaching the service once',
    async () => {
      const { page } = app;
      await planSeeded(page, [
        ['08:30', '17:30'],
        ['08:30', '17:30'],
        ['08:30', '17:30'],
      ]);
      const days = await shownDays(page);
      expect(days.every((d) => d.visits.length > 0)).toBe(true);
      const save = page.locator('button:has-text("Save days as routes")');
      await save.click();
      await expect.poll(() => save.isDisabled()).toBe(true);
      await expect.poll(() => page.locator('.wp-saved').count()).toBe(3);
      await save.click({ force: true }).catch(() => undefined);
      const planRoutes = () => service.store.routes(USER).filter((r) => r.name.endsWith('– Plan'));
      await syncNow(page);
      await expect.poll(() => planRoutes().length).toBe(3);
      await syncNow(page);
      const routes = planRoutes();
      expect(routes.map((r) => r.name).sort()).toEqual([
        'Mon 23 Nov – Plan',
        'Tue 24 Nov – Plan',
        'Wed 25 Nov – Plan',
      ]);
      routes.forEach((r, i) => expect(r.points.length).toBe(days[i]!.visits.length));
    },
    WAIT,
  );

  it(
    'saves a day holding a customer created offline with the id the service gave it',
    async () => {
      const { page } = app;
      await app.setOffline(true);
      await page.keyboard.press('Escape');
      await page.click('button:has-text("New customer")');
      await page.waitForSelector('aside[data-editing="new"]');
      await page.fill('#ed-name', 'Newcomer Bakery');
      await page.fill('#ed-latitude', '51.51');
      await page.fill('#ed-longitude', '-0.11');
      await page.click('button:has-text("Create customer")');
      await page.waitForSelector('aside[data-editing]', { state: 'detached' });
      await search(page, 'Newcomer Bakery', 1);
      await openPanel(page);
      await page.selectOption('select[aria-label="Customers to plan"]', 'list');
      await page.selectOption('select[aria-label="Start from"]', 'coords');
      await page.fill('input[aria-label="Start point"]', '51.5, -0.1');
      await page.fill('input[aria-label="Number of days"]', '1');
      await page.fill('input[aria-label="Day 1 starts"]', '08:30');
      await page.fill('input[aria-label="Day 1 ends"]', '17:30');
      await page.click('button:has-text("Make the plan")');
      await page.waitForSelector('.wp-result');
      const planned = (await shownDays(page))[0]!.visits.map((v) => v.id);
      expect(planned).toHaveLength(1);
      expect(isTempId(planned[0]!)).toBe(true);

      // Back online, the create reaches the service and the app learns its id before the save.
      await app.setOffline(false);
      await syncNow(page);
      const created = () => service.store.customers(USER).find((c) => c.name === 'Newcomer Bakery');
      await expect.poll(() => created()?.id ?? null).not.toBeNull();
      await expect
        .poll(async () => (await shownDays(page))[0]!.visits.map((v) => v.id))
        .toEqual([created()!.id]);

      await page.fill('input[aria-label="Route name for day 1"]', 'Newcomer day');
      await page.click('button:has-text("Save days as routes")');
      await syncNow(page);
      const route = () => service.store.routes(USER).find((r) => r.name === 'Newcomer day');
      await expect.poll(() => route()?.points.length ?? 0).toBe(1);
      expect(
        service.store.customers(USER).filter((c) => c.name === 'Newcomer Bakery'),
      ).toHaveLength(1);
    },
    WAIT,
  );

  it(
    'shows a plan of 150 stops a slice of rows per task, and every stop in the end',
    async () => {
      const { page } = app;
      const CROWD = 150;
      for (let i = 0; i < CROWD; i++)
        service.store.createCustomerDirect(USER, {
          name: `Crowd Stop ${String(i + 1).padStart(3, '0')}`,
          latitude: 51.45 + (i % 15) * 0.007,
          longitude: -0.17 + Math.floor(i / 15) * 0.014,
        });
      await syncNow(page);
      await search(page, 'Crowd Stop', CROWD);
      await openPanel(page);
      await page.selectOption('select[aria-label="Customers to plan"]', 'list');
      await page.selectOption('select[aria-label="Start from"]', 'coords');
      await page.fill('input[aria-label="Start point"]', '51.5, -0.1');
      await page.fill('input[aria-label="Number of days"]', '2');
      for (const d of [1, 2]) {
        await page.fill(`input[aria-label="Day ${d} starts"]`, '08:30');
        await page.fill(`input[aria-label="Day ${d} ends"]`, '17:30');
      }
      await page.fill('input[aria-label="Visit minutes"]', '20');
      await page.selectOption('select[aria-label="Visit minutes from field"]', '');
      await page.selectOption('select[aria-label="Time windows from field"]', '');
      // The stops' rows each task adds (a MutationObserver hears a task's changes at its end).
      await page.evaluate(() => {
        const g = globalThis as { __rowsPerTask?: number[] };
        const seen = new Set<string>();
        const added: number[] = [];
        g.__rowsPerTask = added;
        new MutationObserver((records) => {
          let fresh = 0;
          for (const record of records)
            for (const node of record.addedNodes) {
              if (!(node instanceof Element)) continue;
              const rows = [...node.querySelectorAll('.wp-visit, .wp-leftover')];
              if (node.matches('.wp-visit, .wp-leftover')) rows.push(node);
              for (const row of rows) {
                const id = row.getAttribute('data-id') ?? '';
                if (!seen.has(id)) fresh++;
                seen.add(id);
              }
            }
          if (fresh > 0) added.push(fresh);
        }).observe(document.body, { childList: true, subtree: true });
      });
      await page.click('button:has-text("Make the plan")');
      await page.waitForSelector('.wp-result[aria-busy="false"]');
      const shown = await page.$$eval('.wp-visit, .wp-leftover', (els) =>
        els.map((el) => el.getAttribute('data-id')),
      );
      expect(new Set(shown).size).toBe(CROWD);
      expect(shown).toHaveLength(CROWD);
      expect(await page.locator('.wp-visit').count()).toBeGreaterThan(0);
      expect(await page.locator('.wp-leftover').count()).toBeGreaterThan(0);
      const perTask = await page.evaluate(
        () => (globalThis as { __rowsPerTask?: number[] }).__rowsPerTask ?? [],
      );
      expect(perTask.reduce((a, b) => a + b, 0)).toBe(CROWD);
      expect(perTask.length).toBeGreaterThan(1);
      expect(Math.max(...perTask)).toBeLessThanOrEqual(20);
    },
    WAIT,
  );
});

describe('Plan the week: reading the form', () => {
  const customer = (id: string, fields: Partial<CustomerView> = {}): CustomerView => ({
    ...customerRecord({ id, name: `Customer ${id}` }),
    pending: false,
    position: [-0.1, 51.5],
    ...fields,
  });

  it('reads windows, visit minutes and today pins; names what it cannot read', () => {
    const settings = {
      ...defaultSettings(new Date(2026, 10, 23)),
      source: 'plan' as const,
      startKind: 'coords' as const,
      startText: '51.5, -0.1',
      windowField: 'custom1' as const,
      visitField: 'custom2' as const,
    };
    const stops = [
      customer('a', { custom1: '9-12', custom2: '15' }),
      customer('b', { custom1: 'mornings' }),
      customer('c', { custom1: '05:00-06:00' }),
      customer('d', { position: null }),
    ];
    const form = readForm(settings, stops, stops, [], (id) => id === 'a');
    expect(form.input?.stops.map((s) => [s.id, s.window, s.serviceMin, s.pinnedDay])).toEqual([
      ['a', { openMin: 540, closeMin: 720 }, 15, 0],
      ['c', { openMin: 300, closeMin: 360 }, null, null],
    ]);
    expect(form.left).toEqual([
      { id: 'b', reason: 'window-unreadable', detail: '"mornings"' },
      { id: 'd', reason: 'no-position' },
    ]);
    expect(form.errors.windows).toMatch(/outside the working hours.*Customer c/);
    expect(form.errors.windows).toMatch(/could not be read.*Customer b \("mornings"\)/);
    // Pins to today come only from the plan.
    const fromList = readForm({ ...settings, source: 'list' }, stops, stops, [], () => true);
    expect(fromList.input?.stops.every((s) => s.pinnedDay === null)).toBe(true);
  });

  it('finds a start among the customers, and says there is no address search offline', () => {
    const shop = customer('s', {
      address: '12 High Street',
      city: 'Leeds',
      position: [-1.5, 53.8],
    });
    expect(resolvePoint('address', 'high street leeds', [shop])).toEqual({
      position: [-1.5, 53.8],
      label: '12 High Street, Leeds',
    });
    expect(resolvePoint('address', '1 Nowhere Road', [shop])).toMatchObject({
      error: expect.stringMatching(/no address search offline/),
    });
    expect(resolvePoint('home', '53.8, -1.5', [])).toEqual({
      position: [-1.5, 53.8],
      label: '53.8, -1.5',
    });
    expect(fieldOfMessage('The start point has no position: choose…')).toBe('start');
    expect(fieldOfMessage('The road factor must be between 1 and 5.')).toBe('road');
  });
});
