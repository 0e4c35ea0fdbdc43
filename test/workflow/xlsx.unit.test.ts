// The .xlsx reader (main): real workbooks built in the test (test/support/xlsx-file.ts), read
// into the table a CSV file gives, then through the same checks as a CSV import. Bad input
// (too big, a zip bomb, a corrupt file, a DTD) is refused with a message a rep can act on.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { strToU8, Zip, ZipDeflate, ZipPassThrough, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autoMapColumns, checkRows } from '../../src-shared/csv-customers';
import { MAX_SPREADSHEET_BYTES, unreadableSpreadsheetMessage } from '../../src-shared/spreadsheet';
import { readXlsx } from '../../src-main/core/xlsx/read-xlsx';
import { readSpreadsheet } from '../../src-main/app/spreadsheet-import';
import { toAccountTime } from '../../src-shared/time-units';
import { buildXlsx, xlsxParts, type XlsxCell } from '../support/xlsx-file';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fieldmap-xlsx-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes the workbook to a real file and reads it back, as the dialog hands it over. */
async function roundTrip(bytes: Uint8Array, name = 'customers.xlsx'): Promise<Uint8Array> {
  const file = join(dir, name);
  await writeFile(file, bytes);
  return new Uint8Array(await readFile(file));
}

const one = (rows: XlsxCell[][], extra: Parameters<typeof buildXlsx>[0] = { sheets: [] }) =>
  buildXlsx({ ...extra, sheets: [{ name: 'Customers', rows }] });

describe('xlsx reader', () => {
  it('reads cached formula values; a mapped formula without one makes its row invalid', async () => {
    const bytes = await roundTrip(
      one([
        ['Name', 'City', 'Deal'],
        [{ f: 'CONCAT("Acme ","One")', t: 'str', v: 'Acme One' }, 'Lyon', { f: '40+2', v: 42 }],
        ['Beta', { f: 'UPPER(B2)', t: 'str' }, { f: 'C2*2' }],
        ['Gamma', 'Nice', 7],
      ]),
    );
    const table = await readXlsx(bytes);
    expect(table.headers).toEqual(['Name', 'City', 'Deal']);
    expect(table.rows).toEqual([
      ['Acme One', 'Lyon', '42'],
      ['Beta', '', ''],
      ['Gamma', 'Nice', '7'],
    ]);
    expect(table.cellIssues).toEqual([
      { row: 1, col: 1, message: expect.stringMatching(/^B3 has a formula \(=UPPER\(B2\)\)/) },
      { row: 1, col: 2, message: expect.stringMatching(/^C3 has a formula \(=C2\*2\)/) },
    ]);
    expect(table.cellIssues[0]!.message).toMatch(/no saved value/);

    const checked = checkRows(table.rows, autoMapColumns(table.headers), [], undefined, undefined, {
      cellIssues: table.cellIssues,
    });
    expect(checked.map((r) => r.errors)).toEqual([
      [],
      [
        expect.stringMatching(/^city: B3 has a formula/),
        expect.stringMatching(/^dealAmount: C3 has a formula/),
      ],
      [],
    ]);
    // Not mapped: the same row imports (the formula's column is ignored).
    const unmapped = checkRows(table.rows, ['name', null, null], [], undefined, undefined, {
      cellIssues: table.cellIssues,
    });
    expect(unmapped.every((r) => r.errors.length === 0)).toBe(true);
  });

  it('gives every cell of a merged range the top-left value, and says so', async () => {
    const table = await readXlsx(
      one(
        [
          ['Name', 'City', 'Zip'],
          ['Ann', 'Springfield', '11111'],
          ['Bob', null, '22222'],
          ['Cy', null, '33333'],
          ['Dee', 'Shelbyville', '44444'],
        ],
        { sheets: [], extra: {} },
      ),
    );
    expect(table.notes).toEqual(['Read the sheet "Customers".']);
    const merged = await readXlsx(
      buildXlsx({
        sheets: [
          {
            name: 'Customers',
            rows: [
              ['Name', 'City', 'Zip'],
              ['Ann', 'Springfield', '11111'],
              ['Bob', null, '22222'],
              ['Cy', null, '33333'],
              ['Dee', 'Shelbyville', '44444'],
            ],
            merges: ['B2:B4'],
          },
        ],
      }),
    );
    expect(merged.rows.map((r) => r[1])).toEqual([
      'Springfield',
      'Springfield',
      'Springfield',
      'Shelbyville',
    ]);
    expect(table.rows.map((r) => r[1])).toEqual(['Springfield', '', '', 'Shelbyville']);
    expect(merged.notes).toContain(
      'Merged cells B2:B4: the value of B2 was used for every cell of the range.',
    );
  });

  it('converts date-formatted serial numbers, keeps other numbers as they are', async () => {
    const table = await readXlsx(
      one(
        [
          ['Name', 'Last visit', 'Remind at', 'Deal', 'Visits'],
          ['Ann', { v: 45292, s: 1 }, { v: 45292.5, s: 2 }, 45292, 3],
          ['Bob', { v: 45300, s: 3 }, '', 1234.5, 0],
        ],
        {
          sheets: [],
          numFmts: [{ id: 164, code: 'yyyy\\-mm\\-dd;@' }],
          styles: [14, 22, 164],
        },
      ),
    );
    expect(table.rows).toEqual([
      ['Ann', '2024-01-01', '2024-01-01T12:00:00', '45292', '3'],
      ['Bob', '2024-01-09', '', '1234.5', '0'],
    ]);
    const checked = checkRows(table.rows, autoMapColumns(table.headers), [], undefined, 'seconds');
    expect(checked[0]!.fields).toMatchObject({
      lastVisit: toAccountTime(Date.UTC(2024, 0, 1), 'seconds'),
      remindAt: toAccountTime(Date.UTC(2024, 0, 1, 12), 'seconds'),
      dealAmount: 45292,
      numVisits: 3,
    });
    // The 1904 date system (old Mac workbooks) counts from 1904-01-01.
    const mac = await readXlsx(
      one(
        [
          ['Name', 'Last visit'],
          ['Ann', { v: 43830, s: 1 }],
        ],
        { sheets: [], styles: [14], date1904: true },
      ),
    );
    expect(mac.rows).toEqual([['Ann', '2024-01-01']]);
  });

  it('keeps zip codes with leading zeros: text cells, "00000" formats, inline strings', async () => {
    const table = await readXlsx(
      one(
        [
          ['Name', 'Zip', 'Phone'],
          ['Ann', '02134', { t: 'inlineStr', text: '0049 30 1234' }],
          ['Bob', { v: 2134, s: 1 }, { v: 301234, s: 2 }],
          ['Cy', { v: 501, s: 1 }, { t: 'b', v: 1 }],
        ],
        { sheets: [], numFmts: [{ id: 165, code: '00000' }], styles: [165, 49] },
      ),
    );
    expect(table.rows).toEqual([
      ['Ann', '02134', '0049 30 1234'],
      ['Bob', '02134', '301234'],
      ['Cy', '00501', 'TRUE'],
    ]);
  });

  it('finds the header like a CSV import: first non-empty row; empty rows skipped; the first visible sheet named', async () => {
    const table = await readXlsx(
      buildXlsx({
        sheets: [
          { name: 'Old list', rows: [['x']], state: 'hidden' },
          {
            name: 'Reps list',
            firstRow: 3,
            rows: [
              ['Name', 'City'],
              [null, null],
              ['Ann', 'Lyon'],
              ['', ''],
              ['Bob', { v: 0.1 + 0.2 }],
            ],
          },
          { name: 'Notes', rows: [['y']] },
        ],
      }),
    );
    expect(table.sheetName).toBe('Reps list');
    expect(table.headers).toEqual(['Name', 'City']);
    expect(table.rows).toEqual([
      ['Ann', 'Lyon'],
      ['Bob', '0.3'],
    ]);
    expect(table.rowNumbers).toEqual([5, 7]);
    expect(table.notes[0]).toBe(
      'Read the sheet "Reps list" (the first one Excel shows) of 3 sheets: "Old list" (hidden), "Reps list", "Notes". ' +
        'To import another sheet, move it to the front in Excel, or save it as its own file.',
    );
  });

  it('marks error cells (#DIV/0!) as issues of their row', async () => {
    const table = await readXlsx(
      one([
        ['Name', 'Deal'],
        ['Ann', { t: 'e', v: '#DIV/0!', f: '1/0' }],
      ]),
    );
    expect(table.rows).toEqual([['Ann', '']]);
    expect(table.cellIssues).toEqual([
      { row: 0, col: 1, message: 'B2 shows the error #DIV/0! in Excel' },
    ]);
  });

  it('refuses a file just over the 20 MB cap with the size, the cap and what to do', async () => {
    const big = zipSync(
      {
        ...xlsxParts({ sheets: [{ name: 'S', rows: [['Name']] }] }),
        'xl/media/p.bin': randomBytes(21 * 1024 * 1024),
      },
      { level: 0 },
    );
    const bytes = await roundTrip(big, 'big.xlsx');
    expect(bytes.length).toBeGreaterThan(21 * 1024 * 1024);
    const message =
      'This spreadsheet is 21 MB; Fieldmap imports files up to 20 MB. Save the customers you need as a smaller file or CSV.';
    await expect(readXlsx(bytes)).rejects.toThrow(message);
    expect(bytes.length).toBeGreaterThan(MAX_SPREADSHEET_BYTES);
  });

  it('refuses a zip bomb: a sheet that unpacks past the cap', async () => {
    // 216 MB of spaces inside a valid sheet, deflated natively (fast), stored as the sheet's
    // part: just past the 200 MB cap, well under 1 MB zipped.
    const body = Buffer.alloc(216 * 1024 * 1024, 0x20);
    body.write('<worksheet><sheetData>', 0);
    body.write('</sheetData></worksheet>', body.length - 24);
    const deflated = deflateRawSync(body, { level: 1 });
    const chunks: Uint8Array[] = [];
    const zip = new Zip((err, chunk) => {
      if (err) throw err;
      chunks.push(chunk);
    });
    for (const [name, data] of Object.entries(xlsxParts({ sheets: [{ name: 'S', rows: [] }] }))) {
      // The sheet goes in as already-deflated bytes (method 8), the rest as fflate zips them.
      const entry =
        name === 'xl/worksheets/sheet1.xml' ? new ZipPassThrough(name) : new ZipDeflate(name);
      if (entry instanceof ZipPassThrough) entry.compression = 8;
      zip.add(entry);
      entry.push(name === 'xl/worksheets/sheet1.xml' ? deflated : (data as Uint8Array), true);
    }
    zip.end();
    const bytes = await roundTrip(
      new Uint8Array(Buffer.concat(chunks.map((c) => Buffer.from(c)))),
      'bomb.xlsx',
    );
    expect(bytes.length).toBeLessThan(2 * 1024 * 1024);
    await expect(readXlsx(bytes)).rejects.toThrow(
      /^This spreadsheet unpacks to more than 200 MB \(xl\/worksheets\/sheet1\.xml\)/,
    );
  });

  it('refuses a corrupt file, a truncated one and a DTD with a clear message', async () => {
    const notXlsx =
      'This file is not an Excel workbook (.xlsx) Fieldmap can read. Open it in Excel and save it as .xlsx or CSV.';
    await expect(readXlsx(new Uint8Array(randomBytes(4096)))).rejects.toThrow(notXlsx);
    const good = await roundTrip(one([['Name'], ['Ann']]));
    await expect(readXlsx(good.subarray(0, Math.floor(good.length / 2)))).rejects.toThrow(notXlsx);

    const broken = buildXlsx({
      sheets: [{ name: 'S', rows: [['Name']] }],
      extra: { 'xl/worksheets/sheet1.xml': strToU8('<worksheet><sheetData><row></sheetData>') },
    });
    await expect(readXlsx(broken)).rejects.toThrow(
      /^The spreadsheet is damaged \(xl\/worksheets\/sheet1\.xml: .+\)\. Open it in Excel and save it again, or save it as CSV\.$/,
    );
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>' +
      '<sst><si><t>&b;</t></si></sst>';
    const dtd = buildXlsx({
      sheets: [{ name: 'S', rows: [['Name']] }],
      extra: { 'xl/sharedStrings.xml': strToU8(laughs) },
    });
    await expect(readXlsx(dtd)).rejects.toThrow(
      /xl\/sharedStrings\.xml: a document type declaration/,
    );
  });

  it('names the formats it does not read (.xls, .ods...) and what to save them as', () => {
    expect(unreadableSpreadsheetMessage('Reps list 2019.XLS')).toBe(
      'Fieldmap reads Excel workbooks saved as .xlsx, and CSV files, not .xls. Open the file in your spreadsheet app and save it as .xlsx (Excel Workbook) or CSV.',
    );
    expect(unreadableSpreadsheetMessage('list.ods')).toMatch(/not \.ods\./);
    expect(unreadableSpreadsheetMessage('list.xlsx')).toBeNull();
    expect(unreadableSpreadsheetMessage('list.csv')).toBeNull();
  });

  it('main refuses the request itself for a file over the cap, before reading it', async () => {
    const bytes = Buffer.alloc(MAX_SPREADSHEET_BYTES + 1);
    await expect(
      readSpreadsheet({ fileName: 'x.xlsx', base64: bytes.toString('base64') }),
    ).rejects.toThrow(
      'This spreadsheet is over 20 MB; Fieldmap imports files up to 20 MB. Save the customers you need as a smaller file or CSV.',
    );
  });
});
