// Import from Excel (issue 15, item 6), in Chromium against the reference service: the rep picks
// an .xlsx in the import dialog (the file input, driven by Playwright), main reads it, and the
// CSV path does the rest. 200 rows, 5 of them invalid in ways only a workbook has (a formula
// never calculated, an #N/A cell) or any file has; 195 must reach the service exactly once,
// counted by the service's own POST counter, across a restart of the app while the first create
// was committed but its answer lost (the service dropped the connection and came back).
// Bad files (50 MB, damaged) get the reader's message and queue nothing.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PALETTE } from '../../../src-shared';
import { fromAccountTime } from '../../../src-shared/time-units';
import { startService, type RunningService } from '../../../src-service/index';
import { launchApp, startTestService, type AppHandle, type TestService } from '../../support/app';
import { buildXlsx, type XlsxCell } from '../../support/xlsx-file';
import { screenshot, signIn, syncNow, waitRows, waitRowsInHook } from '../../support/app-steps';
import { testBoundMs } from '../../support/until';

const USER = 'rep';
// Each test's bound is its lane's (test/support/lanes.ts): a busy machine makes it slower, not red.
const WAIT = testBoundMs();
const SEEDED = 20;
const ROWS = 200;
const CUSTOMERS = /^\/api\/v1\/customers$/;
const DAY_MS = 86_400_000;
/** Serial day of 2024-01-01 in Excel's 1900 date system. */
const JAN_1_2024 = 45_292;

/** Data row index → the cell that breaks it and the reason the dialog must give. */
const INVALID: Record<number, { col: string; cell: XlsxCell; reason: string }> = {
  17: { col: 'Name', cell: null, reason: 'name: required' },
  58: {
    col: 'Lat',
    cell: 95,
    reason: 'latitude: 95 is out of range (±90); position: latitude and longitude go together',
  },
  99: {
    col: 'Deal',
    cell: { f: 'H100*2' },
    reason:
      'dealAmount: H101 has a formula (=H100*2) with no saved value; open the file in Excel, let it calculate and save it again',
  },
  140: {
    col: 'Lng',
    cell: { t: 'e', v: '#N/A', f: 'VLOOKUP(A142,Other!A:B,2,FALSE)' },
    reason:
      'longitude: G142 shows the error #N/A in Excel; position: latitude and longitude go together',
  },
  181: {
    col: 'Colour',
    cell: 'chartreuse',
    reason: 'color: "chartreuse" is not one of the account\'s colors',
  },
};
const HEADER = 'Name,Company,Street,City,Zip,Lat,Lng,Deal,Last visit,Colour'.split(',');
const nameOf = (i: number) => `Sheet Customer ${String(i).padStart(3, '0')}`;

/** The workbook: 200 customers on the first sheet (styles: 1 = "00000" zip, 2 = a date). */
function workbook(): Uint8Array {
  const rows: XlsxCell[][] = [HEADER];
  for (let i = 0; i < ROWS; i++) {
    const cells: Record<string, XlsxCell> = {
      Name: nameOf(i),
      // Every 4th company is a formula with its saved result.
      Company: i % 4 === 0 ? { f: `CONCAT("Acme ",${i})`, t: 'str', v: `Acme ${i}` } : `Co ${i}`,
      Street: `${100 + i} Elm Street`,
      // Rows 10-12 share one merged City cell (D12:D14).
      City: i >= 11 && i <= 12 ? null : i === 10 ? 'Mergetown' : 'Townville',
      Zip: { v: 2134 + i, s: 1 },
      Lat: 40 + i / 1000,
      Lng: -89 - i / 1000,
      Deal: i * 10,
      'Last visit': { v: JAN_1_2024 + i, s: 2 },
      Colour: PALETTE[i % PALETTE.length]!,
    };
    const broken = INVALID[i];
    if (broken) cells[broken.col] = broken.cell;
    rows.push(HEADER.map((h) => cells[h] ?? null));
  }
  return buildXlsx({
    sheets: [
      { name: 'Customers', rows, merges: ['D12:D14'] },
      { name: 'Notes', rows: [['Call Ann first']] },
    ],
    numFmts: [{ id: 164, code: '00000' }],
    styles: [164, 14],
  });
}

let service: TestService;
let revived: RunningService | null = null;
let app: AppHandle;
let dir: string;

const chipText = () => app.page.textContent('.job[data-import]');
const dialog = () => app.page.locator('.fm-dialog');

async function openImport(): Promise<void> {
  await app.page.click('button:has-text("Import CSV or Excel")');
  await dialog().waitFor();
}

describe('Import from Excel (.xlsx)', () => {
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'fieldmap-xlsx-e2e-'));
    service = await startTestService({ customers: SEEDED, seed: 61 });
    app = await launchApp({ serviceUrl: service.url, limiterRate: 30 });
    await signIn(app, service);
    await waitRowsInHook(app.page, 'Customers', SEEDED);
    await app.page.waitForSelector('.sync-status[data-sync="synced"]');
  });

  afterAll(async () => {
    await app?.close();
    await revived?.stop();
    await service?.stop().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  });

  it(
    'refuses a 50 MB spreadsheet and a damaged one with a clear message, queuing nothing',
    async () => {
      const { page } = app;
      const big = join(dir, 'everyone.xlsx');
      await writeFile(big, randomBytes(50 * 1024 * 1024));
      const damaged = join(dir, 'damaged.xlsx');
      await writeFile(damaged, randomBytes(4096));

      await openImport();
      const input = 'input[aria-label="CSV or Excel file"]';
      await page.setInputFiles(input, big);
      await expect
        .poll(() => dialog().locator('[role="alert"]').textContent())
        .toBe(
          '"everyone.xlsx" was not read. This spreadsheet is 50 MB; Fieldmap imports files up to 20 MB. Save the customers you need as a smaller file or CSV.',
        );
      await page.setInputFiles(input, damaged);
      await expect
        .poll(() => dialog().locator('[role="alert"]').textContent())
        .toBe(
          '"damaged.xlsx" was not read. This file is not an Excel workbook (.xlsx) Fieldmap can read. Open it in Excel and save it as .xlsx or CSV.',
        );
      expect(await dialog().locator('button:has-text("Import 0 customers")').isDisabled()).toBe(
        true,
      );
      await dialog().locator('button:has-text("Cancel")').click();
      expect(await app.call<unknown[]>('listOps')).toEqual([]);
    },
    WAIT,
  );

  it(
    'imports 200 rows with 5 invalid: 195 created exactly once across a restart mid-import',
    async () => {
      const { page } = app;
      await openImport();
      await page.setInputFiles('input[aria-label="CSV or Excel file"]', {
        name: 'customers.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: Buffer.from(workbook()),
      });
      const summary = dialog().locator('p[role="status"]:has-text("to import")');
      await expect
        .poll(() => summary.textContent())
        .toMatch(/^195 to import, 5 invalid, 0\s+duplicates skipped\.$/);
      // The same reasons as a CSV import, each with the sheet's row number.
      expect(await dialog().locator('details[open] .problems li').allTextContents()).toEqual(
        Object.entries(INVALID).map(([i, { reason }]) => `Row ${Number(i) + 2}: ${reason}`),
      );
      const notes = await dialog().locator('.note').allTextContents();
      expect(notes).toEqual([
        'Read the sheet "Customers" (the first one Excel shows) of 2 sheets: "Customers", "Notes". To import another sheet, move it to the front in Excel, or save it as its own file.',
        'Merged cells D12:D14: the value of D12 was used for every cell of the range.',
      ]);
      // The preview shows the zip codes with their leading zeros and the dates as dates.
      const preview = dialog().locator('tr:has(td:text-is("Zip")) .preview');
      expect(await preview.textContent()).toContain('02134 · 02135 · 02136');
      await dialog().locator('details[open]').scrollIntoViewIfNeeded();
      await screenshot(page, 'import-xlsx');

      // The first create is committed on the service and its answer held...
      const post = service.hold('POST', CUSTOMERS, 'after-commit');
      await dialog().locator('button:has-text("Import 195 customers")').click();
      await post.arrived;
      await expect.poll(chipText).toContain('of 195 on the service');
      expect(await chipText()).not.toContain('Imported');
      // ...then the service drops the connection and is gone while the app restarts.
      const postsBefore = service.customerPosts();
      await service.stop();
      post.release();
      await app.restart();
      revived = await startService({ port: service.port, store: service.store, rate: 0 });
      await syncNow(app.page);
      await waitRows(app.page, 'Customers', SEEDED + 195);
      await expect.poll(chipText).toMatch(/^Imported 195 of 195 from customers\.xlsx/);

      // Exactly once: 195 new records, every one POSTed once over both service lifetimes.
      const added = service.store.customers(USER).filter((c) => c.name.startsWith('Sheet '));
      const valid = [...Array(ROWS).keys()].filter((i) => !INVALID[i]);
      expect(added.map((c) => c.name).sort()).toEqual(valid.map(nameOf));
      const posts: Record<string, number> = { ...postsBefore };
      for (const [name, n] of Object.entries(revived.customerPosts())) {
        posts[name] = (posts[name] ?? 0) + n;
      }
      expect(Object.values(posts).reduce((a, b) => a + b, 0)).toBe(195);
      expect(valid.filter((i) => posts[nameOf(i)] !== 1)).toEqual([]);

      // The values as the sheet showed them.
      const byName = new Map(added.map((c) => [c.name, c]));
      const first = byName.get(nameOf(0))!;
      expect(first).toMatchObject({ company: 'Acme 0', zip: '02134', city: 'Townville' });
      expect(fromAccountTime(Number(first.lastVisit))).toBe(Date.UTC(2024, 0, 1));
      expect(fromAccountTime(Number(byName.get(nameOf(30))!.lastVisit))).toBe(
        Date.UTC(2024, 0, 1) + 30 * DAY_MS,
      );
      expect([10, 11, 12].map((i) => byName.get(nameOf(i))!.city)).toEqual([
        'Mergetown',
        'Mergetown',
        'Mergetown',
      ]);
      expect(await app.call<unknown[]>('listOps')).toEqual([]);
    },
    WAIT,
  );
});
