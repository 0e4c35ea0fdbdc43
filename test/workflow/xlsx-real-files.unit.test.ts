// Workbooks as real office suites save them (test/fixtures/xlsx/, origins in its README), read
// through the import's real path: the reader in its worker thread (readSpreadsheet), then the
// CSV import's mapping and checks. Each asserts the cells a rep would see in the preview.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSpreadsheet } from '../../src-main/app/spreadsheet-import';
import { autoMapColumns, checkRows } from '../../src-shared/csv-customers';

const FIXTURES = join(__dirname, '../fixtures/xlsx');

async function read(fileName: string) {
  const bytes = await readFile(join(FIXTURES, fileName));
  return readSpreadsheet({ fileName, base64: bytes.toString('base64') });
}

const utc = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / 1000;

describe('real workbooks', () => {
  it('LibreOffice Calc: accented and Chinese names, dates, currency, a formula, an empty row', async () => {
    const table = await read('libreoffice-customers.xlsx');
    expect(table.sheetName).toBe('Kunden');
    expect(table.notes[0]).toMatch(/^Read the sheet "Kunden" .* of 2 sheets: "Kunden", "Notizen"/);
    expect(table.headers).toEqual([
      'Name',
      'Street',
      'City',
      'Zip',
      'Last visit',
      'Visits',
      'Deal',
      'Deal per visit',
    ]);
    expect(table.rows).toEqual([
      [
        'Müller GmbH',
        'Hauptstraße 5',
        'München',
        '80331',
        '2024-03-15',
        '4',
        '12500.5',
        '3125.125',
      ],
      ['Søndergaard ApS', 'Østergade 12', 'København', '1100', '2024-01-02', '2', '800', '400'],
      [
        'García y Hijos',
        'Calle Mayor 1',
        'Sevilla',
        '41001',
        '2023-12-31',
        '5',
        '1999.99',
        '399.998',
      ],
      ['Łukasz Żółć', 'ul. Długa 3', 'Gdańsk', '80-831', '2024-02-29', '1', '450', '450'],
      ['北京贸易有限公司', '长安街 1号', '北京', '100000', '2024-06-01', '3', '30000', '10000'],
    ]);
    // The empty row 4 is skipped; the numbers are the sheet's rows.
    expect(table.rowNumbers).toEqual([2, 3, 5, 6, 7]);
    expect(table.cellIssues).toEqual([]);

    const mapping = autoMapColumns(table.headers);
    expect(mapping).toEqual([
      'name',
      'address',
      'city',
      'zip',
      'lastVisit',
      'numVisits',
      'dealAmount',
      null,
    ]);
    const checked = checkRows(table.rows, mapping, [], undefined, undefined, {
      cellIssues: table.cellIssues,
    });
    expect(checked.map((r) => r.errors)).toEqual([[], [], [], [], []]);
    expect(
      checked.map((r) => [
        r.fields?.name,
        r.fields?.city,
        r.fields?.lastVisit,
        r.fields?.dealAmount,
      ]),
    ).toEqual([
      ['Müller GmbH', 'München', utc('2024-03-15'), 12500.5],
      ['Søndergaard ApS', 'København', utc('2024-01-02'), 800],
      ['García y Hijos', 'Sevilla', utc('2023-12-31'), 1999.99],
      ['Łukasz Żółć', 'Gdańsk', utc('2024-02-29'), 450],
      ['北京贸易有限公司', '北京', utc('2024-06-01'), 30000],
    ]);
  });

  it('LibreOffice Calc, 1904 date system: dates and a date-time', async () => {
    const table = await read('libreoffice-1904-dates.xlsx');
    expect(table.headers).toEqual(['2021-01-01', '15']);
    expect(table.rows).toEqual([
      ['2021-01-02', '16'],
      ['1904-01-11T15:10:10', '17'],
    ]);
  });

  it('Excel 2016 (Windows): a line break saved as _x000D_ and a raw CR LF is one CR LF', async () => {
    const table = await read('excel-win-line-break.xlsx');
    expect(table.headers).toEqual(['ABC\r\nDEF']);
    expect(table.rows).toEqual([]);
  });

  it('Excel for Mac: a shared formula gives each cell its saved value', async () => {
    const table = await read('excel-mac-shared-formula.xlsx');
    expect(table.headers).toEqual(['1', '2']);
    expect(table.rows).toEqual([
      ['2', '4'],
      ['3', '6'],
    ]);
    expect(table.cellIssues).toEqual([]);
  });

  it('Excel Online: t="str" formula results in Korean, data from column B', async () => {
    const table = await read('excel-online-korean.xlsx');
    expect(table.headers).toEqual(['', '영어']);
    expect(table.rows.length).toBe(18);
    expect(table.rows.slice(0, 5)).toEqual([
      ['', '영어'],
      ['', '영어'],
      ['', '영어'],
      ['', '한글'],
      ['', '한글'],
    ]);
    expect(table.cellIssues).toEqual([]);
  });

  it('Google Sheets: shared strings and a decimal number', async () => {
    const table = await read('google-sheets-temperature.xlsx');
    expect(table.notes).toEqual(['Read the sheet "Sheet1".']);
    expect(table.headers).toEqual(['label', 'value']);
    expect(table.rows).toEqual([
      ['celsius', '22.2222'],
      ['fahrenheit', '72'],
    ]);
  });

  it('Numbers: a table placed mid-sheet, styled empty cells around it', async () => {
    const table = await read('numbers-temperature-in-middle.xlsx');
    expect(table.headers).toEqual(['', 'label', 'value']);
    expect(table.rows).toEqual([
      ['', 'celsius', '22.2222'],
      ['', 'fahrenheit', '72'],
    ]);
    // The empty styled rows 1-3 above the table are no header.
    expect(table.rowNumbers).toEqual([5, 6]);
  });
});
