// Lasso and box selection with a summary and bulk actions (issue 15, item 2), in Chromium against
// the reference service. 50 customers are placed in one small area with known colours, groups,
// deal amounts (sent as strings, as PHP may; some with none) and visits; a box drawn around them
// with the mouse must select exactly them and sum them up as computed here. A bulk colour change
// made offline, with the app closed while the service holds a PUT after ~20 and reopened on the
// same data, must end with exactly one PUT per customer on the service, each with the new colour.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryCredentialStore } from '../../../scripts/browser-runner/credentials';
import { LOOPBACK_ALLOW } from '../../../src-service/allow-list';
import type { Op } from '../../../src-shared';
import { readDealAmount, summarizeSelection } from '../../../src-shared/selection-summary';
import { launchApp, startTestService, type AppHandle, type TestService } from '../../support/app';
import { signIn, waitRows } from '../../support/app-steps';
import { AREA, drawBox, selectedCount } from './bulk-map';
// The bulk delete of 5,000 runs with these (its own service and app).
import './bulk-many.suite';
import { testBoundMs } from '../../support/until';

const USER = 'rep';
// Each test's bound is its lane's (test/support/lanes.ts): a busy machine makes it slower, not red.
const WAIT = testBoundMs();
const DAY_S = 86_400;
/** The 50 customers seeded in AREA, on a 10 × 5 grid. */
const PICKED = 50;
const NEW_COLOR = 'purple';

let service: TestService;
let app: AppHandle;
let dataDir: string;
const credentialStore = new MemoryCredentialStore();
let picked: string[] = [];
let groups: string[] = [];

// The product's own rate: the drain below is timed and told at the pace a rep's laptop sends.
const launch = () =>
  launchApp({ serviceUrl: service.url, dataDir, credentialStore, limiterRate: 3 });

/** The seeded fields of area customer i (see the expectations in the summary test). */
function fieldsOf(i: number, nowS: number): Record<string, unknown> {
  const visits = [
    { lastVisit: nowS - 5 * DAY_S, remindAt: 0 }, // visited this week
    { lastVisit: nowS - 45 * DAY_S, remindAt: 0 }, // overdue: over 30 days
    { lastVisit: 0, remindAt: 0 }, // never visited
    { lastVisit: nowS - 10 * DAY_S, remindAt: nowS - DAY_S }, // overdue: reminder due
  ];
  return {
    latitude: AREA.south + 0.005 + Math.floor(i / 10) * 0.01,
    longitude: AREA.west + 0.005 + (i % 10) * 0.01,
    color: ['blue', 'red', 'green'][i % 3],
    groups: [[groups[0]], [groups[0], groups[1]], [], []][i % 4],
    dealAmount: [1000, 1250.5, 300, null, null][i % 5],
    ...visits[i % 4],
  };
}

const listOps = (): Promise<Op[]> => app.call<Op[]>('listOps');

describe('field day: lasso/box selection and bulk actions', () => {
  beforeAll(async () => {
    // The service sends deal amounts as strings ("1250.50"), as the PHP one may.
    service = await startTestService({
      customers: 80,
      seed: 15,
      variants: { dealAmount: 'string' },
    });
    groups = (service.store.user(USER) as { groups: string[] }).groups;
    const nowS = Math.floor(Date.now() / 1000);
    const all = service.store.customers(USER);
    picked = all.slice(0, PICKED).map((c) => c.id);
    picked.forEach((id, i) => service.store.updateCustomerDirect(USER, id, fieldsOf(i, nowS)));
    // The others are far away (or not on the map at all).
    for (const c of all.slice(PICKED)) {
      if (c.latitude !== null)
        service.store.updateCustomerDirect(USER, c.id, { latitude: 35, longitude: -80 });
    }
    dataDir = await mkdtemp(join(tmpdir(), 'fieldmap-bulk-'));
    app = await launch();
    await signIn(app, service);
  });

  afterAll(async () => {
    await app?.close();
    await service?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it(
    'a box drawn around 50 customers selects exactly them and sums them up',
    { timeout: WAIT },
    async () => {
      const { page } = app;
      await waitRows(page, 'Customers', 80);
      await drawBox(page, AREA);
      await expect.poll(() => selectedCount(page)).toBe(String(PICKED));
      const ids = await page.$$eval(
        'aside.selection [aria-label="Selected customers"] [data-id]',
        (els) => els.map((e) => e.getAttribute('data-id')),
      );
      expect(ids.every((id) => id !== null && picked.includes(id))).toBe(true);
      const summary = page.locator('aside.selection [aria-label="Selection summary"]');
      expect(await summary.getAttribute('data-count')).toBe(String(PICKED));
      // Colours: i % 3 → blue 17, red 17, green 16.
      const colors = await summary
        .locator('li[data-color]')
        .evaluateAll((els) =>
          els.map((e) => [e.getAttribute('data-color'), e.querySelector('.n')?.textContent]),
        );
      expect(colors).toEqual([
        ['blue', '17'],
        ['red', '17'],
        ['green', '16'],
      ]);
      // Groups: i % 4 == 0 → [g0], == 1 → [g0, g1], else none: g0 26, g1 13, none 24.
      const byGroup = await summary
        .locator('li[data-group]')
        .evaluateAll((els) =>
          els.map((e) => [e.getAttribute('data-group'), e.querySelector('.n')?.textContent]),
        );
      expect(byGroup).toEqual([
        [groups[0], '26'],
        [groups[1], '13'],
        ['', '24'],
      ]);
      // Deal amounts, sent as strings: 10 × "1000.00" + 10 × "1250.50" + 10 × "300.00"; 20 none.
      expect(await summary.locator('[data-deal-sum]').getAttribute('data-deal-sum')).toBe('25505');
      const deal = (await summary.locator('[data-deal-sum]').textContent()) ?? '';
      expect(deal).toContain('from 30 customers');
      expect(deal).toContain('20 with no amount');
      // Overdue: i % 4 == 1 (45 days ago, 13) and i % 4 == 3 (reminder due, 12); never: 12.
      expect(await summary.locator('[data-overdue]').getAttribute('data-overdue')).toBe('25');
      expect(await summary.locator('[data-overdue]').textContent()).toContain('12 never visited');
    },
  );

  it('an empty selection says so, and every bulk action is off', { timeout: WAIT }, async () => {
    const { page } = app;
    // West of the area, where no customer is: a view around both, and a box there.
    await drawBox(
      page,
      { west: -95.3, south: 39.0, east: -95.15, north: 39.05 },
      { west: -95.35, south: 38.95, east: -94.9, north: 39.1 },
    );
    await expect
      .poll(() => page.textContent('aside.selection [data-empty]'))
      .toContain('No customers in the drawn area');
    const buttons = page.locator('aside.selection [aria-label="Bulk actions"] button');
    expect(await buttons.count()).toBeGreaterThan(5);
    for (const enabled of await buttons.evaluateAll((els) =>
      els.map((e) => !(e as HTMLButtonElement).disabled),
    ))
      expect(enabled).toBe(false);
  });

  it(
    'a bulk colour change of 50 made offline, with a restart mid-way through sending, reaches the service exactly once each',
    { timeout: WAIT },
    async () => {
      let { page } = app;
      await app.setOffline(true);
      await drawBox(page, AREA);
      await expect.poll(() => selectedCount(page)).toBe(String(PICKED));
      await page.selectOption('aside.selection select[aria-label="New colour"]', NEW_COLOR);
      await page.click('aside.selection button:has-text("Set colour")');
      await expect
        .poll(() => page.textContent('aside.selection .message'))
        .toContain(`Colour ${NEW_COLOR} queued for 50 customers`);
      // One queued op per customer, none sent: the panel says they wait for the connection.
      const queued = await listOps();
      expect(queued.map((op) => op.target).sort()).toEqual([...picked].sort());
      expect(queued.every((op) => op.kind === 'updateCustomer' && op.state === 'pending')).toBe(
        true,
      );
      const sending = page.locator('aside.selection .sending');
      await expect.poll(() => sending.textContent()).toContain('no connection');
      expect(await sending.textContent()).toContain('50 changes of 50 waiting');
      expect(service.customerPuts()).toEqual({});

      // Back online: the changes drain at the service's pace, with the count and the time left.
      await app.setOffline(false);
      const puts = () => Object.values(service.customerPuts()).reduce((a, b) => a + b, 0);
      await expect
        .poll(() => sending.textContent())
        .toMatch(/Sending [1-9]\d* of 50 changes · about \d+ s left/);
      await expect.poll(puts, { interval: 20 }).toBeGreaterThanOrEqual(20);
      // The next PUT is held by the service; the app is closed while it waits (a request the
      // crash lost: refused when released), and the service is out of reach until reopening.
      const gate = service.hold('PUT', /^\/api\/v1\/customers\/[^/]+$/);
      await gate.arrived;
      const before = service.customerPuts();
      expect(Object.keys(before).length).toBeLessThan(PICKED);
      service.configure({ allow: ['192.0.2.0/24'], faults: { errorRate: 1 } });
      const closing = app.close();
      gate.release();
      await closing;
      expect(service.customerPuts()).toEqual(before);
      service.configure({ allow: LOOPBACK_ALLOW, faults: { errorRate: 0 } });

      app = await launch();
      page = app.page;
      await page.waitForSelector('.top-bar');
      await expect.poll(() => Object.keys(service.customerPuts()).length).toBe(PICKED);
      await expect.poll(async () => (await listOps()).length).toBe(0);
      // Exactly one PUT reached the service for each customer, and each has the new colour.
      expect(Object.keys(service.customerPuts()).sort()).toEqual([...picked].sort());
      expect(Object.values(service.customerPuts()).every((n) => n === 1)).toBe(true);
      for (const id of picked) expect(service.store.customer(USER, id)?.color).toBe(NEW_COLOR);
    },
  );

  it(
    'a bulk delete asks first, naming the count; Cancel queues nothing',
    { timeout: WAIT },
    async () => {
      const { page } = app;
      await waitRows(page, 'Customers', 80);
      await drawBox(page, AREA);
      await expect.poll(() => selectedCount(page)).toBe(String(PICKED));
      await page.click('aside.selection button:has-text("Delete 50 customers…")');
      const dialog = page.locator('dialog[open]');
      expect(await dialog.locator('h2').textContent()).toBe('Delete 50 customers?');
      // 50 is not many: no number to type.
      expect(await dialog.locator('input').count()).toBe(0);
      await dialog.locator('button:has-text("Cancel")').click();
      await page.waitForSelector('dialog[open]', { state: 'detached' });
      expect(await listOps()).toEqual([]);

      await page.click('aside.selection button:has-text("Delete 50 customers…")');
      await page.click('dialog[open] button:has-text("Delete 50 customers")');
      await expect
        .poll(() => page.textContent('aside.selection .message'))
        .toContain('50 customers deleted.');
      await expect.poll(() => service.store.customers(USER).length).toBe(30);
      await expect.poll(async () => (await listOps()).length).toBe(0);
      expect(picked.some((id) => service.store.customer(USER, id))).toBe(false);
    },
  );
});

describe('field day: the selection summary reads what PHP sends', () => {
  it('sums numbers and numeric strings, and counts empty and unreadable amounts apart', () => {
    const read = [1250, '1,250.00', ' 300 ', '$1,000.50', '-20', '.5', '', null, 'n/a', '1.2.3'];
    expect(read.map(readDealAmount)).toEqual([
      1250,
      1250,
      300,
      1000.5,
      -20,
      0.5,
      null,
      null,
      NaN,
      NaN,
    ]);
    const now = Date.UTC(2026, 5, 1);
    const day = 86_400;
    const at = (days: number) => Math.floor(now / 1000) - days * day;
    const c = (dealAmount: unknown, lastVisit: number, remindAt = 0) =>
      ({ color: 'red', groups: [], dealAmount, lastVisit, remindAt }) as Parameters<
        typeof summarizeSelection
      >[0][number];
    const summary = summarizeSelection(
      [c('0.10', at(30)), c('0.20', at(31)), c('x', 0), c(null, at(1), at(1)), c(null, at(1), 0)],
      now,
    );
    // 0.1 + 0.2 shown as 0.3; 30 days is not overdue, 31 is; a due reminder is.
    expect(summary.deal).toEqual({ sum: 0.3, counted: 2, none: 2, unreadable: 1 });
    expect(summary.overdue).toBe(2);
    expect(summary.neverVisited).toBe(1);
  });
});
