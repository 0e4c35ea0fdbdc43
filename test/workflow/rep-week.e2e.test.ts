// The rep's week (issue 28) through the runner: the built app in Chromium against the reference
// service. Files from the real world: a CSV saved by Excel on Windows (Windows-1252, semicolons,
// decimal commas), a tab file and a UTF-16LE file with a BOM import with their names intact on
// the service, and a file that is no CSV is refused with a reason and queues nothing. Plans in
// the calendar: a 5-day, 40-visit week plan, one of its days and the route being built leave as
// .ics files through the app's download, read back by an independent parser (ical.js) with the
// times the panel shows; exporting again after a change keeps every UID. Navigate: a customer
// and a planned day go to the rep's navigation app as the links main's guard hands the system
// browser, the stops in the order the panel shows, split where the app takes one stop a link.
// The day sheet: a planned day as a PDF that an independent reader (pdf.js) finds the day's map
// and every stop in, in order, with times, address, phone and notes as typed.
import { readFile } from 'node:fs/promises';
import ICAL from 'ical.js';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Download, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import { cp1252, utf16leWithBom } from '../support/cp1252';
import { signIn, syncNow, waitRowsInHook } from '../support/app-steps';
import { until } from '../support/until';

const USER = 'rep';
const STOPS = 40;
const FIRST_DAY = '2026-11-23'; // a Monday: the plan's days are 23 to 27 November

let service: TestService;
let app: AppHandle;

beforeAll(async () => {
  service = await startTestService({ customers: 0, seed: 28 });
  // 40 customers within a few hundred metres of the start: nine fit in a morning of 15-minute
  // visits, so the plan needs all five days.
  for (let i = 0; i < STOPS; i++) {
    service.store.createCustomerDirect(USER, {
      name: `Week Stop ${String(i + 1).padStart(2, '0')}`,
      address: `${i + 1} High Street, Flat ${i}; rear`,
      city: 'London',
      phone: `+44 20 7946 ${String(i).padStart(4, '0')}`,
      notes: `Ask for Łukasz at the côté cour door (${i + 1})`,
      latitude: 51.5 + ((i % 7) - 3) * 0.0008,
      longitude: -0.1 + (Math.floor(i / 7) - 3) * 0.0012,
    });
  }
  app = await launchApp({ serviceUrl: service.url });
  app.page.on('pageerror', (error) => console.error('page error:', error.message));
  await signIn(app, service);
  await waitRowsInHook(app.page, 'Customers', STOPS);
});

afterAll(async () => {
  await app?.close();
  await service?.stop();
});

const changesCount = () => app.page.getAttribute('.views button >> nth=0', 'data-count');
const names = () => service.store.customers(USER).map((c) => c.name);

/** Picks `bytes` as `name` in the import dialog and waits for the preview or the refusal. */
async function pick(page: Page, name: string, bytes: Buffer): Promise<void> {
  await page.click('button:has-text("Import CSV")');
  await page.setInputFiles('input[aria-label="CSV or Excel file"]', {
    name,
    mimeType: 'text/csv',
    buffer: bytes,
  });
  await page.waitForSelector('[data-testid="csv-format"], dialog [role="alert"]');
}

async function importPicked(page: Page, rows: number): Promise<void> {
  await page.click(`button:has-text("Import ${rows} customers")`);
  await page.locator('dialog[open]').waitFor({ state: 'detached' });
}

/** The events of a downloaded .ics, as ical.js reads them. */
async function eventsOf(download: Download) {
  const text = await readFile((await download.path())!, 'utf8');
  const calendar = new ICAL.Component(ICAL.parse(text));
  return calendar.getAllSubcomponents('vevent').map((c) => new ICAL.Event(c));
}

async function save(page: Page, button: string): Promise<Download> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.click(button)]);
  return download;
}

/** No dialog or panel open: each test that needs one starts from the bare screen. */
function closePanels(): Promise<void> {
  return closePanelsOf(app.page);
}

describe('files from the real world', () => {
  beforeEach(closePanels);

  it('imports a Windows-1252 CSV from Excel with Müller, Søndergaard and García intact', async () => {
    const { page } = app;
    const people = ['Müller', 'Søndergaard', 'García'];
    const text =
      'Name;Company;Address;City;Latitude;Longitude\r\n' +
      people
        .map((n, i) => `${n};${n} & Söhne GmbH;Königstraße ${i + 1};Köln;50,9${i}3;6,95${i}`)
        .join('\r\n') +
      '\r\n';
    await pick(page, 'excel-export.csv', cp1252(text));
    expect(await page.textContent('[data-testid="csv-format"]')).toBe(
      'Read as Windows-1252 (Western European), separated by semicolons.',
    );
    await importPicked(page, 3);
    await expect.poll(() => people.filter((n) => names().includes(n)).length).toBe(3);
    const garcia = service.store.customers(USER).find((c) => c.name === 'García')!;
    expect(garcia).toMatchObject({
      company: 'García & Söhne GmbH',
      address: 'Königstraße 3',
      city: 'Köln',
      latitude: 50.923,
      longitude: 6.952,
    });
    expect(names().some((n) => n.includes('\uFFFD'))).toBe(false);
  });

  it('imports a tab-separated file as its columns', async () => {
    const { page } = app;
    const text = 'name\tcompany\tcity\r\nTab Ødegaard\tNord, Süd & Co\tÅrhus\r\n';
    await pick(page, 'tabs.txt.csv', Buffer.from(text));
    expect(await page.textContent('[data-testid="csv-format"]')).toBe(
      'Read as UTF-8, separated by tabs.',
    );
    await importPicked(page, 1);
    await expect.poll(() => names()).toContain('Tab Ødegaard');
    const c = service.store.customers(USER).find((x) => x.name === 'Tab Ødegaard')!;
    expect([c.company, c.city]).toEqual(['Nord, Süd & Co', 'Århus']);
  });

  it('imports a UTF-16LE file with a byte-order mark', async () => {
    const { page } = app;
    const text = 'name,city,notes\r\nŁukasz Wróbel,Łódź,"Żółć; 48,5 kg"\r\n';
    await pick(page, 'unicode.csv', utf16leWithBom(text));
    expect(await page.textContent('[data-testid="csv-format"]')).toBe(
      'Read as UTF-16 little-endian, separated by commas.',
    );
    await importPicked(page, 1);
    await expect.poll(() => names()).toContain('Łukasz Wróbel');
    const c = service.store.customers(USER).find((x) => x.name === 'Łukasz Wróbel')!;
    expect([c.city, c.notes]).toEqual(['Łódź', 'Żółć; 48,5 kg']);
  });

  it('refuses a file that is no CSV with what to do, and queues nothing', async () => {
    const { page } = app;
    // The imports before this one are all on the service: nothing waits in the outbox.
    await expect.poll(changesCount).toBe('0');
    const before = names().length;
    // The first bytes of an old Excel .xls (a compound file), saved with a .csv name.
    const xls = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0, 0x3e, 0]);
    await pick(page, 'customers.csv', xls);
    expect(await page.textContent('dialog [role="alert"]')).toBe(
      '"customers.csv" was not read. It is not a text CSV file (it holds binary data, or it is ' +
        'UTF-16 without a byte-order mark). Open it in Excel and save it as "CSV UTF-8" or ' +
        '"Unicode Text".',
    );
    expect(await page.isDisabled('button:has-text("Import 0 customers")')).toBe(true);
    await page.keyboard.press('Escape');
    expect(await changesCount()).toBe('0');
    expect(names()).toHaveLength(before);
  });
});

type ShownVisit = { id: string; day: number; start: number; depart: number };

/** The visits the week plan panel shows: day index and minutes of the day. */
function shownVisits(page: Page): Promise<ShownVisit[]> {
  return page.$$eval('.wp-day .wp-visit', (els) =>
    els.map((el) => ({
      id: el.getAttribute('data-id') ?? '',
      day: Number(el.closest('.wp-day')!.getAttribute('data-day')),
      start: Number(el.getAttribute('data-start')),
      depart: Number(el.getAttribute('data-depart')),
    })),
  );
}

/** The instant of `minutes` after local midnight of 23 November + `day`, as the page reckons it. */
function instants(page: Page, pairs: Array<[number, number]>): Promise<number[]> {
  return page.evaluate(
    (list) => list.map(([day, min]) => new Date(2026, 10, 23 + day, 0, Math.round(min)).getTime()),
    pairs,
  );
}

async function planWeek(page: Page): Promise<void> {
  await page.fill('input[aria-label="Search customers"]', 'Week Stop');
  await expect
    .poll(() => page.getAttribute('[aria-label="Customers"]', 'data-rows'))
    .toBe(String(STOPS));
  await page.click('button:has-text("Plan the week")');
  await page.waitForSelector('aside.week-plan');
  await page.selectOption('select[aria-label="Customers to plan"]', 'list');
  await page.selectOption('select[aria-label="Start from"]', 'coords');
  await page.fill('input[aria-label="Start point"]', '51.5, -0.1');
  await page.fill('input[aria-label="First day"]', FIRST_DAY);
  await page.fill('input[aria-label="Number of days"]', '5');
  for (let d = 1; d <= 5; d++) {
    await page.fill(`input[aria-label="Day ${d} starts"]`, '09:00');
    await page.fill(`input[aria-label="Day ${d} ends"]`, '11:30');
  }
  await page.fill('input[aria-label="Visit minutes"]', '15');
  await page.click('button:has-text("Make the plan")');
  // Every row shown (a long plan's rows come a slice per frame: WeekPlanDays).
  await page.waitForSelector('.wp-result[aria-busy="false"]');
}

// One plan and its first export, made by whichever of these tests runs first (each also runs
// alone); the panel stays open for the tests after it.
describe('plans in the calendar', () => {
  let exported: ReturnType<typeof exportWeek> | null = null;
  async function exportWeek(page: Page) {
    await planWeek(page);
    const shown = await shownVisits(page);
    const download = await save(page, 'button:has-text("Add week to calendar (.ics)")');
    return { shown, filename: download.suggestedFilename(), events: await eventsOf(download) };
  }
  const exportedWeek = () => (exported ??= exportWeek(app.page));
  /** Each planned customer's event UID in the first export, by the event's summary. */
  async function firstUids(): Promise<Map<string, string>> {
    const { shown, events } = await exportedWeek();
    const names = new Map(service.store.customers(USER).map((c) => [c.id, c.name]));
    return new Map(
      shown.map((v) => [v.id, events.find((e) => e.summary === `Visit: ${names.get(v.id)}`)!.uid]),
    );
  }

  it('exports a 5-day, 40-visit week plan that ical.js reads with 40 events at the planned times', async () => {
    const { page } = app;
    const { shown, filename, events } = await exportedWeek();
    expect(shown).toHaveLength(STOPS);
    expect(new Set(shown.map((v) => v.day))).toEqual(new Set([0, 1, 2, 3, 4]));
    expect(filename).toBe(`week-plan-${FIRST_DAY}.ics`);
    expect(events).toHaveLength(STOPS);
    const starts = await instants(
      page,
      shown.map((v) => [v.day, v.start]),
    );
    const ends = await instants(
      page,
      shown.map((v) => [v.day, v.depart]),
    );
    const stops = new Map(service.store.customers(USER).map((c) => [c.id, c]));
    const weekUids = new Map<string, string>();
    shown.forEach((visit, i) => {
      const customer = stops.get(visit.id)!;
      const event = events.find((e) => e.summary === `Visit: ${customer.name}`);
      expect(event, customer.name).toBeDefined();
      expect(event!.startDate.toJSDate().getTime()).toBe(starts[i]);
      expect(event!.endDate.toJSDate().getTime()).toBe(ends[i]);
      expect(event!.location).toBe(`${customer.address}, London`);
      expect(event!.description).toContain(`Phone: ${customer.phone}`);
      expect(event!.component.getFirstPropertyValue('url')).toBe(`fieldmap://customer/${visit.id}`);
      weekUids.set(visit.id, event!.uid);
    });
    expect(new Set(weekUids.values()).size).toBe(STOPS);
  });

  it('keeps every UID when the plan is exported again after a change', async () => {
    const { page } = app;
    const weekUids = await firstUids();
    const before = await shownVisits(page);
    const first = before.find((v) => v.day === 0)!;
    // The first stop of Monday goes down one place: it and the next one get new times.
    await page.click(`.wp-visit[data-id="${first.id}"] button[aria-label$=" down"]`);
    await expect
      .poll(async () => (await shownVisits(page)).find((v) => v.day === 0)!.id)
      .not.toBe(first.id);
    const after = await shownVisits(page);
    const moved = after.find((v) => v.id === first.id)!;
    expect(moved.start).toBeGreaterThan(first.start);
    const events = await eventsOf(
      await save(page, 'button:has-text("Add week to calendar (.ics)")'),
    );
    expect(events).toHaveLength(STOPS);
    const uidOf = new Map(events.map((e) => [e.uid, e]));
    expect(new Set(uidOf.keys())).toEqual(new Set(weekUids.values()));
    const [movedStart] = await instants(page, [[0, moved.start]]);
    expect(uidOf.get(weekUids.get(first.id)!)!.startDate.toJSDate().getTime()).toBe(movedStart);

    // A stop moved to another day is the same event, moved: no second copy in the calendar.
    const friday = (await shownVisits(page)).find((v) => v.day === 4)!;
    const name = service.store.customers(USER).find((c) => c.id === friday.id)!.name;
    await page.selectOption(`select[aria-label="Move ${name} to"]`, '0');
    await expect
      .poll(async () => (await shownVisits(page)).find((v) => v.id === friday.id)?.day)
      .toBe(0);
    const onMonday = (await shownVisits(page)).find((v) => v.id === friday.id)!;
    const again = await eventsOf(
      await save(page, 'button:has-text("Add week to calendar (.ics)")'),
    );
    expect(new Set(again.map((e) => e.uid))).toEqual(new Set(weekUids.values()));
    const [mondayStart] = await instants(page, [[0, onMonday.start]]);
    const event = again.find((e) => e.uid === weekUids.get(friday.id))!;
    expect(event.startDate.toJSDate().getTime()).toBe(mondayStart);
  });

  it('exports one day from its own button, with the same UIDs as the week', async () => {
    const { page } = app;
    const weekUids = await firstUids();
    const shown = (await shownVisits(page)).filter((v) => v.day === 2);
    const label = await page.getAttribute('.wp-day[data-day="2"]', 'aria-label');
    const download = await save(page, `button[aria-label="Add ${label} to calendar"]`);
    expect(download.suggestedFilename()).toBe('day-plan-2026-11-25.ics');
    const events = await eventsOf(download);
    expect(events.map((e) => e.uid).sort()).toEqual(shown.map((v) => weekUids.get(v.id)!).sort());
    const starts = await instants(
      page,
      shown.map((v) => [2, v.start]),
    );
    expect(events.map((e) => e.startDate.toJSDate().getTime()).sort()).toEqual([...starts].sort());
  });

  it('exports the route being built on the day and from the time the rep picks', async () => {
    const { page } = app;
    await page.keyboard.press('Escape');
    await page.click('button:has-text("Build route")');
    await page.fill('#route-name', 'Tuesday, the north; loop');
    const picked = service.store.customers(USER).filter((c) => c.name.startsWith('Week Stop 0'));
    for (const c of picked.slice(0, 4)) {
      await page.fill('input[aria-label="Search customers"]', c.name);
      await page
        .locator(
          `[aria-label="Customers"] [role=option]:has([data-id="${c.id}"]) input[type=checkbox]`,
        )
        .check();
    }
    const order = await page
      .locator('.route-builder ol.stops li')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-id')!));
    expect(order).toHaveLength(4);
    await page.fill('input[aria-label="Route day"]', '2026-12-01');
    await page.fill('input[aria-label="Route starts at"]', '14:00');
    await page.fill('input[aria-label="Route visit minutes"]', '25');
    const download = await save(page, 'button:has-text("Add route to calendar (.ics)")');
    expect(download.suggestedFilename()).toBe('route-2026-12-01.ics');
    const text = await readFile((await download.path())!, 'utf8');
    expect(text).toContain('X-WR-CALNAME:Tuesday\\, the north\\; loop');
    const events = await eventsOf(download);
    expect(events).toHaveLength(4);
    const byId = new Map(picked.map((c) => [c.id, c]));
    expect(events.map((e) => e.summary)).toEqual(order.map((id) => `Visit: ${byId.get(id)!.name}`));
    const [two] = await page.evaluate(() => [new Date(2026, 11, 1, 14, 0).getTime()]);
    expect(events[0]!.startDate.toJSDate().getTime()).toBe(two);
    events.forEach((e, i) => {
      const start = e.startDate.toJSDate().getTime();
      expect(e.endDate.toJSDate().getTime() - start).toBe(25 * 60_000);
      // Each visit starts once the one before ended and the drive is done.
      if (i > 0) expect(start).toBeGreaterThanOrEqual(events[i - 1]!.endDate.toJSDate().getTime());
    });
  });
});

/** "lat,lng" of a stored customer, as the navigation links carry it. */
function pointOf(id: string): string {
  const c = service.store.customer(USER, id)!;
  return `${Number(c.latitude).toFixed(6)},${Number(c.longitude).toFixed(6)}`;
}

const linkParams = (url: string) => Object.fromEntries(new URL(url).searchParams);

describe('navigate', () => {
  beforeEach(closePanels);

  it('opens a customer in the chosen navigation app, and keeps the choice', async () => {
    const { page } = app;
    const customer = service.store.customers(USER).find((c) => c.name === 'Week Stop 05')!;
    await page.fill('input[aria-label="Search customers"]', customer.name);
    await page.click(`[aria-label="Customers"] .customer-row[data-id="${customer.id}"]`);
    const panel = page.locator(`aside.detail-panel[data-id="${customer.id}"]`);
    await panel.waitFor();
    await panel.locator('select[aria-label="Navigation app"]').selectOption('waze');
    const before = app.externalLinks.length;
    await panel.locator(`button[aria-label="Navigate to ${customer.name}"]`).click();
    await expect.poll(() => app.externalLinks.length).toBe(before + 1);
    expect(app.externalLinks.at(-1)).toBe(
      `https://waze.com/ul?ll=${encodeURIComponent(pointOf(customer.id))}&navigate=yes`,
    );
    // The choice is the rep's, kept on this computer: it is there after a reload.
    await page.reload();
    await page.fill('input[aria-label="Search customers"]', customer.name);
    await page.click(`[aria-label="Customers"] .customer-row[data-id="${customer.id}"]`);
    await expect
      .poll(() => panel.locator('select[aria-label="Navigation app"]').inputValue())
      .toBe('waze');
  });

  it("hands a planned day's stops to Google Maps in order, and to Apple Maps one leg a stop", async () => {
    const { page } = app;
    await planWeek(page);
    const monday = (await shownVisits(page)).filter((v) => v.day === 0);
    expect(monday.length).toBeGreaterThan(1);
    const day = page.locator('.wp-day[data-day="0"]');
    const label = await day.getAttribute('aria-label');
    await day.locator('select[aria-label="Navigation app"]').selectOption('google');
    const before = app.externalLinks.length;
    await day.locator(`button[aria-label="Navigate ${label}"]`).click();
    await expect.poll(() => app.externalLinks.length).toBe(before + 1);
    const google = linkParams(app.externalLinks.at(-1)!);
    // From where the rep is, through every stop of the day in the order the panel shows.
    expect(google.origin).toBeUndefined();
    expect([...google.waypoints!.split('|'), google.destination]).toEqual(
      monday.map((v) => pointOf(v.id)),
    );

    // Apple Maps takes one destination a link: one button a leg, each from the stop before.
    await day.locator('select[aria-label="Navigation app"]').selectOption('apple');
    const legs = day.locator(`[role=group][aria-label="Navigate ${label}"] button`);
    await expect.poll(() => legs.count()).toBe(monday.length);
    await legs.nth(2).click();
    await expect.poll(() => app.externalLinks.length).toBe(before + 2);
    expect(linkParams(app.externalLinks.at(-1)!)).toEqual({
      saddr: pointOf(monday[1]!.id),
      daddr: pointOf(monday[2]!.id),
      dirflg: 'd',
    });
  });
});

/** Each page's text lines and image count, as pdf.js reads the downloaded file. */
async function readPdf(download: Download): Promise<Array<{ lines: string[]; images: number }>> {
  const data = new Uint8Array(await readFile((await download.path())!));
  const pdf = await getDocument({ data, isEvalSupported: false }).promise;
  const pages = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    const text = await page.getTextContent();
    const ops = await page.getOperatorList();
    pages.push({
      lines: text.items.flatMap((item) =>
        'str' in item && item.str.trim() !== '' ? [item.str] : [],
      ),
      images: ops.fnArray.filter((op) => op === OPS.paintImageXObject).length,
    });
  }
  await pdf.destroy();
  return pages;
}

describe('the day sheet', () => {
  beforeEach(closePanels);

  it('saves a planned day as a PDF with the day on the map and every stop in order', async () => {
    const { page } = app;
    await planWeek(page);
    const tuesday = (await shownVisits(page)).filter((v) => v.day === 1);
    expect(tuesday.length).toBeGreaterThan(1);
    const label = await page.getAttribute('.wp-day[data-day="1"]', 'aria-label');
    const download = await save(page, `button[aria-label="Day sheet of ${label}"]`);
    expect(download.suggestedFilename()).toBe('day-sheet-2026-11-24.pdf');
    const pages = await readPdf(download);
    expect(pages[0]!.images).toBe(1);
    const lines = pages.flatMap((p) => p.lines);
    expect(lines[0]).toBe(`Day sheet · ${label}`);
    expect(lines[1]).toMatch(new RegExp(`^${tuesday.length} visits · [0-9.]+ km · leave 09:00`));
    const clock = (min: number) => {
      const m = Math.round(min);
      return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    };
    let at = -1;
    for (const [i, visit] of tuesday.entries()) {
      const c = service.store.customer(USER, visit.id)!;
      const name = lines.indexOf(c.name);
      // In the order the panel shows, each with its number, times, address, phone and notes.
      expect(name, c.name).toBeGreaterThan(at);
      at = name;
      expect(lines.slice(at - 2, at)).toEqual([
        `${i + 1}.`,
        `${clock(visit.start)}–${clock(visit.depart)}`,
      ]);
      const details = lines.slice(at + 1, at + 6).join('\n');
      expect(details).toContain(`${c.address}, London`);
      expect(details).toContain(`Phone: ${c.phone}`);
      expect(details).toContain(`Notes: ${c.notes}`);
    }
  });
});

describe('the week plan form', () => {
  beforeEach(closePanels);

  it('says next to "Make the plan" that nothing was planned, and takes the rep to the field', async () => {
    const { page } = app;
    await page.click('button:has-text("Plan the week")');
    await page.waitForSelector('aside.week-plan');
    // "My plan" holds nobody: the form refuses, with its message at the top of a long form.
    await page.selectOption('select[aria-label="Customers to plan"]', 'plan');
    await page.selectOption('select[aria-label="Start from"]', 'coords');
    await page.fill('input[aria-label="Start point"]', '51.5, -0.1');
    await page.click('button:has-text("Make the plan")');
    await expect
      .poll(() => page.textContent('[data-testid="wp-form-refused"]'))
      .toMatch(/^\s*No plan yet: one field above says\s+what to fix\.\s*$/);
    expect(await page.textContent('#wp-stops-msg')).toBe(
      'There are no customers to plan: choose where they come from.',
    );
    expect(
      await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null),
    ).toBe('Customers to plan');
  });
});

// Reminders: main's schedule raises them through the runner's notifications (the page's own
// Notification API, as Electron's Notification is the shell's), with the network cut; a click
// opens the customer; "Due today" lists them, and Snooze and Done reach the service as edits.
describe('reminders that remind', () => {
  let remindService: TestService;
  let rep: AppHandle;
  const HOUR = 60 * 60_000;

  beforeAll(async () => {
    remindService = await startTestService({ customers: 0, seed: 281 });
    const now = Date.now();
    const add = (name: string, remindAt: number, remindType: string) =>
      remindService.store.createCustomerDirect(USER, {
        name,
        address: `${name} Street 1`,
        city: 'Kraków',
        latitude: 50.06,
        longitude: 19.94,
        remindAt,
        remindType,
      });
    add('Kowalski Sp.', 0, '');
    add('Nowak i Syn', Math.floor((now - 2 * HOUR) / 1000), 'Visit');
    add('Later Ltd', Math.floor((now + 50 * HOUR) / 1000), 'Call');
    rep = await launchApp({ serviceUrl: remindService.url });
    rep.page.on('pageerror', (error) => console.error('page error:', error.message));
    await signIn(rep, remindService);
    await waitRowsInHook(rep.page, 'Customers', 3);
  });

  afterAll(async () => {
    await rep?.close();
    await remindService?.stop();
  });

  const customerNamed = (name: string) =>
    remindService.store.customers(USER).find((c) => c.name === name)!;

  /**
   * Sets a customer's reminder `fromNow` ms from the page's now, to the second, through the
   * editor (the field takes seconds when typed with them); returns when it is due.
   */
  async function setReminder(page: Page, name: string, fromNow: number, type: string) {
    const due = await page.evaluate((ms) => {
      const at = new Date(Date.now() + ms);
      at.setMilliseconds(0);
      const pad = (n: number) => String(n).padStart(2, '0');
      const day = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
      const time = `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`;
      return { at: at.getTime(), field: `${day}T${time}` };
    }, fromNow);
    await openCustomer(page, name);
    await page.click('aside[aria-label="Customer details"] button:has-text("Edit")');
    await page.fill('#ed-remindAt', due.field);
    await page.fill('#ed-remindType', type);
    await page.click('button:has-text("Save changes")');
    await page.locator('aside[aria-label="Customer details"]').waitFor();
    return due;
  }

  async function openCustomer(page: Page, name: string): Promise<void> {
    await page.fill('input[aria-label="Search customers"]', name);
    await page.click(`[aria-label="Customers"] .customer-row[data-id="${customerNamed(name).id}"]`);
    await page.locator('aside[aria-label="Customer details"]').waitFor();
  }

  it('raises a reminder set offline at its time, through the OS, and its click opens the customer', async () => {
    const { page } = rep;
    await rep.setOffline(true);
    // What the runner hands the page's Notification API, seen from the page.
    await page.evaluate(() => {
      const Shown = window.Notification;
      const seen: string[] = [];
      (globalThis as unknown as { __notified: string[] }).__notified = seen;
      window.Notification = class extends Shown {
        constructor(title: string, options?: NotificationOptions) {
          super(title, options);
          seen.push(`${title} | ${options?.body ?? ''}`);
        }
      } as typeof Notification;
    });
    const due = await setReminder(page, 'Kowalski Sp.', 45_000, 'Call');
    expect(rep.notifications).toEqual([]);

    await until(() => rep.notifications.length > 0, 'the reminder notified');
    expect(Date.now()).toBeGreaterThanOrEqual(due.at);
    expect(rep.notifications.map(({ click: _, ...notice }) => notice)).toEqual([
      {
        accountKey: expect.any(String),
        customerId: customerNamed('Kowalski Sp.').id,
        title: 'Call: Kowalski Sp.',
        body: 'Kowalski Sp. Street 1, Kraków',
      },
    ]);
    await until(
      () =>
        page.evaluate(
          () => (globalThis as unknown as { __notified: string[] }).__notified.length > 0,
        ),
      "the page's Notification shown",
    );
    expect(
      await page.evaluate(() => (globalThis as unknown as { __notified: string[] }).__notified),
    ).toEqual(['Call: Kowalski Sp. | Kowalski Sp. Street 1, Kraków']);

    // Elsewhere in the app when it is clicked: it opens the customer.
    await closePanelsOf(page);
    await page.click('button:has-text("Plan the week")');
    await page.waitForSelector('aside.week-plan');
    rep.notifications[0]!.click();
    await expect
      .poll(() => page.getAttribute('aside[aria-label="Customer details"]', 'data-id'))
      .toBe(customerNamed('Kowalski Sp.').id);
  });

  it('lists what is due today, and Snooze and Done reach the service as remindAt edits', async () => {
    const { page } = rep;
    // Offline, with Kowalski's call due 10 minutes ago (as the test above leaves it, once due).
    await rep.setOffline(true);
    await closePanelsOf(page);
    await setReminder(page, 'Kowalski Sp.', -10 * 60_000, 'Call');
    await closePanelsOf(page);
    const button = page.locator('button[title="Reminders due today, and those overdue"]');
    await expect.poll(() => button.textContent()).toBe('Due today (2)');
    await button.click();
    const panel = page.locator('aside.reminders');
    await expect
      .poll(() => panel.locator('.reminder strong').allTextContents())
      .toEqual(['Visit', 'Call']);
    expect(await panel.locator('.reminder .name').allTextContents()).toEqual([
      'Nowak i Syn',
      'Kowalski Sp.',
    ]);
    await expect.poll(() => panel.locator('.summary').textContent()).toBe('2 reminders, 2 overdue');

    await panel.locator('button[aria-label="Mark the reminder of Nowak i Syn done"]').click();
    await panel.locator('button[aria-label="Snooze the reminder of Kowalski Sp."]').click();
    await panel.locator('button:has-text("Tomorrow 09:00")').click();
    await expect.poll(() => panel.locator('.empty').textContent()).toBe('Nothing due today.');
    await expect.poll(() => button.textContent()).toBe('Due today');
    const tomorrowNine = await page.evaluate(() => {
      const day = new Date();
      day.setDate(day.getDate() + 1);
      day.setHours(9, 0, 0, 0);
      return day.getTime();
    });

    await rep.setOffline(false);
    await syncNow(page);
    await until(
      () =>
        customerNamed('Nowak i Syn').remindAt === 0 &&
        customerNamed('Kowalski Sp.').remindAt === Math.floor(tomorrowNine / 1000),
      'Done and Snooze on the service',
    );
    expect(customerNamed('Later Ltd').remindAt).toBeGreaterThan(0);
  });

  it("opens the customer of a calendar event's fieldmap:// link, and refuses another link", async () => {
    const { page } = rep;
    await closePanelsOf(page);
    const later = customerNamed('Later Ltd');
    // What the OS hands the app when the rep clicks the link in the calendar.
    expect(rep.services.openLink('fieldmap://customer/..%2Fsettings')).toBe(false);
    expect(rep.services.openLink(`fieldmap://customer/${later.id}`)).toBe(true);
    await expect
      .poll(() => page.getAttribute('aside[aria-label="Customer details"]', 'data-id'))
      .toBe(later.id);
  });
});

async function closePanelsOf(page: Page): Promise<void> {
  for (let i = 0; i < 3; i++) {
    if ((await page.locator('dialog[open], aside').count()) === 0) break;
    await page.keyboard.press('Escape');
  }
}

describe('units', () => {
  // Its own app on the same service: a rep whose computer is set to American English.
  it('shows an en-US rep miles, and kilometres at once and after a restart once chosen', async () => {
    const us = await launchApp({ serviceUrl: service.url, locale: 'en-US' });
    try {
      const { page } = us;
      await signIn(us, service);
      // Every customer of the account: the tests before may have imported some.
      const everyone = service.store.customers(USER).length;
      await waitRowsInHook(page, 'Customers', everyone);
      const id = service.store.customers(USER).find((c) => c.name === 'Week Stop 01')!.id;
      const escape = () => closePanelsOf(page);
      const nearby = async (): Promise<{ summary: string; first: string; radiusKm: string }> => {
        await page.click(`[aria-label="Customers"] .customer-row[data-id="${id}"]`);
        await page.click('aside.detail-panel button:has-text("Customers nearby")');
        await page.waitForSelector('aside.nearby[data-state="ready"] .nearby-distance');
        return {
          summary: (await page.textContent('aside.nearby .nearby-summary'))!.trim(),
          first: (await page.textContent('aside.nearby .nearby-distance'))!.trim(),
          radiusKm: (await page.getAttribute('aside.nearby', 'data-radius-km'))!,
        };
      };

      await planWeek(page);
      expect(await page.textContent('.wp-day[data-day="0"] .wp-total')).toMatch(/ · [0-9.]+ mi · /);
      await escape();
      const inMiles = await nearby();
      expect(inMiles.summary).toMatch(/ within 5 mi/);
      expect(inMiles.first).toMatch(/^[0-9.]+ mi$/);
      expect(Number(inMiles.radiusKm)).toBeCloseTo(5 * 1.609344); // the search's radius stays km

      await escape();
      await page.click('.account-menu button.who');
      await page.click('[role="menuitem"]:has-text("Account details")');
      await page.selectOption('select[data-testid="distance-unit"]', 'km');
      await escape();
      const inKm = await nearby();
      expect(inKm.first).toMatch(/^[0-9.]+ km$/);

      await us.restart();
      await waitRowsInHook(us.page, 'Customers', everyone);
      await us.page.fill('input[aria-label="Search customers"]', 'Week Stop');
      await us.page.click(`[aria-label="Customers"] .customer-row[data-id="${id}"]`);
      await us.page.click('aside.detail-panel button:has-text("Customers nearby")');
      await us.page.waitForSelector('aside.nearby[data-state="ready"] .nearby-distance');
      expect((await us.page.textContent('aside.nearby .nearby-distance'))!.trim()).toMatch(/ km$/);
    } finally {
      await us.close();
    }
  });
});
