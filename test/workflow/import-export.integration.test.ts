// CSV import and export through main's real services (IPC router, outbox, sync engine, import
// jobs) against the reference service over HTTP, with the real keychain and files.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  autoMapColumns,
  checkRows,
  exportTable,
  type CheckedRow,
} from '../../src-shared/csv-customers';
import {
  CUSTOMER_WRITABLE_FIELDS,
  PALETTE,
  type Customer,
  type CustomerFields,
} from '../../src-shared/domain';
import type { ImportStatus } from '../../src-shared/csv-customers';
import { accountDirOf } from '../../src-main/app/accounts-index';
import { normaliseFields } from '../../src-main/core/sync/merge';
import { parseCsv, toCsv } from '../../src-renderer/src/features/import-export/csv-io';
import { startService, type RunningService } from '../../src-service/index';
import { HAS_KEYCHAIN, startApp, type AppUnderTest } from '../support/main';
import { until } from '../support/until';

const REP = { username: 'importer', password: 'import-pw-77' };
const EMPTY = { username: 'fresh', password: 'fresh-pw-78' };
const SOURCE = { username: 'source', password: 'source-pw-79' };

const HEADER = [
  'Name',
  'Company',
  'Street',
  'City',
  'Zip',
  'E-mail',
  'Colour',
  'Lat',
  'Lng',
  'Deal',
  'Tags',
];

/** 300 rows; the rows at INVALID indexes are broken in one way each. */
const INVALID: Record<number, { cells: Partial<Record<string, string>>; reason: RegExp }> = {
  7: { cells: { Name: '  ' }, reason: /^name: required/ },
  31: { cells: { Lat: '91.5' }, reason: /^latitude: 91.5 is out of range/ },
  58: { cells: { Lng: 'east' }, reason: /^longitude: "east" is not a number/ },
  90: { cells: { Colour: 'chartreuse' }, reason: /^color: "chartreuse" is not one of/ },
  122: { cells: { 'E-mail': 'not-an-address' }, reason: /^email: "not-an-address" is not/ },
  150: { cells: { Deal: '12k' }, reason: /^dealAmount: "12k" is not a number/ },
  181: { cells: { Lat: '', Lng: '12.5' }, reason: /^position: latitude and longitude go together/ },
  222: { cells: { Name: '' }, reason: /^name: required/ },
  260: { cells: { Lng: '-181' }, reason: /^longitude: -181 is out of range/ },
  299: { cells: { Deal: '1.2.3' }, reason: /^dealAmount: "1.2.3" is not a number/ },
};

function importFile(): string {
  const rows: string[][] = [HEADER];
  for (let i = 0; i < 300; i++) {
    const cells: Record<string, string> = {
      Name: `Import Customer ${String(i).padStart(3, '0')}`,
      Company: i % 3 === 0 ? `Acme ${i}, "Ltd"` : '',
      Street: `${100 + i} Market Street`,
      City: 'Springfield',
      Zip: String(10_000 + i),
      'E-mail': i % 2 === 0 ? `buyer${i}@example.com` : '',
      Colour: PALETTE[i % PALETTE.length]!.toUpperCase(),
      Lat: i % 5 === 0 ? '' : (40 + i / 1000).toFixed(4),
      Lng: i % 5 === 0 ? '' : (-89 - i / 1000).toFixed(4),
      Deal: i % 4 === 0 ? '' : String(i * 10.5),
      Tags: i % 2 === 0 ? 'north; vip' : '',
      ...INVALID[i]?.cells,
    };
    rows.push(HEADER.map((h) => cells[h] ?? ''));
  }
  return toCsv(rows);
}

async function waitForImport(
  app: AppUnderTest,
  importId: string,
  done: (s: ImportStatus) => boolean,
): Promise<ImportStatus> {
  let status: ImportStatus | undefined;
  await until(async () => {
    status = (await app.ok('import:list')).find((s) => s.importId === importId);
    return status !== undefined && done(status);
  }, `import ${importId} there`);
  return status!;
}

async function syncUntilEmpty(app: AppUnderTest): Promise<void> {
  for (let i = 0; i < 10; i++) {
    await app.ok('sync:now');
    if ((await app.ok('outbox:list')).length === 0) return;
  }
  throw new Error('outbox not empty');
}

const writable = (c: Customer | CustomerFields) => {
  const n = normaliseFields(c) as Record<string, unknown>;
  return Object.fromEntries(CUSTOMER_WRITABLE_FIELDS.map((k) => [k, n[k]]));
};

describe.skipIf(!HAS_KEYCHAIN)('CSV import and export against the service', () => {
  let service: RunningService;
  let app: AppUnderTest | null = null;

  beforeAll(async () => {
    service = await startService({
      rate: 0,
      accounts: [
        { ...REP, customers: 20, seed: 21 },
        { ...EMPTY, customers: 0 },
        { ...SOURCE, customers: 40, seed: 22 },
      ],
    });
  });
  afterAll(async () => {
    await service.stop();
  });
  afterEach(async () => {
    await app?.dispose();
    app = null;
  });

  it('imports 300 rows with 10 invalid: 290 created exactly once across a restart mid-import and a crash-like resume', async () => {
    const existing = service.store.customers(REP.username);
    const parsed = parseCsv(importFile());
    expect(parsed.problems).toEqual([]);
    const mapping = autoMapColumns(parsed.headers);
    expect(mapping).toEqual([
      'name',
      'company',
      'address',
      'city',
      'zip',
      'email',
      'color',
      'latitude',
      'longitude',
      'dealAmount',
      'groups',
    ]);
    const checked = checkRows(parsed.rows, mapping, existing, PALETTE);
    const invalid = checked.filter((r) => r.errors.length > 0);
    expect(invalid.map((r) => r.index)).toEqual(Object.keys(INVALID).map(Number));
    for (const row of invalid) expect(row.errors[0]).toMatch(INVALID[row.index]!.reason);
    const valid = checked.filter(
      (r): r is CheckedRow & { fields: CustomerFields } => r.fields !== null && !r.duplicateOf,
    );
    expect(valid).toHaveLength(290);
    expect(valid[3]!.fields.color).toBe(PALETTE[3]);
    expect(valid[0]!.fields.groups).toEqual(['north', 'vip']);

    // Slow enough that the restart lands mid-import.
    app = await startApp({ limiterRate: 60 });
    await app.ok('session:login', { baseUrl: service.url, ...REP });
    await app.ok('sync:now');
    const importId = '6f1c2a4e-8b7d-4c3a-9e2f-1a2b3c4d5e6f';
    const rows = valid.map((r) => r.fields);
    const started = await app.ok('import:start', { importId, fileName: 'customers.csv', rows });
    expect(started.total).toBe(290);
    // Starting the same import again is the same import.
    expect(
      (await app.ok('import:start', { importId, fileName: 'customers.csv', rows })).total,
    ).toBe(290);

    const mid = await waitForImport(app, importId, (s) => s.created >= 30);
    expect(mid.state).not.toBe('done');
    expect(mid.etaSeconds).toBeGreaterThan(0);
    const createdBefore = service.store.customers(REP.username).length - existing.length;
    expect(createdBefore).toBeLessThan(290);

    await app.restart();
    const resumed = await waitForImport(app, importId, (s) => s.queued === 290);
    expect(resumed.total).toBe(290);
    await syncUntilEmpty(app);
    const done = await waitForImport(app, importId, (s) => s.state === 'done');
    expect(done).toMatchObject({ created: 290, waiting: 0, needsAttention: 0, etaSeconds: 0 });

    const expectOnceEach = () => {
      const added = service.store
        .customers(REP.username)
        .filter((c) => c.name.startsWith('Import Customer '));
      expect(added).toHaveLength(290);
      const byName = new Map(added.map((c) => [c.name, c]));
      for (const row of rows) expect(writable(byName.get(row.name)!)).toEqual(writable(row));
    };
    expectOnceEach();

    // A crash right after rows were handed over and sent, before the progress was written:
    // the resume finds them on the service and queues none of them again.
    await app.services.dispose();
    const dir = join(accountDirOf(app.dataDir, `${service.url}#${REP.username}`), 'imports');
    const progressFile = join(dir, `${importId}.progress.json`);
    expect(JSON.parse(await readFile(progressFile, 'utf8'))).toMatchObject({ queued: 290 });
    await writeFile(progressFile, JSON.stringify({ version: 1, queued: 280, intent: 290 }));
    await app.restart();
    await waitForImport(app, importId, (s) => s.queued === 290);
    await syncUntilEmpty(app);
    expectOnceEach();
    expect(await app.ok('import:dismiss', { importId })).toBe(true);
    expect(await app.ok('import:list')).toEqual([]);
  });

  it('finds duplicates against existing customers and within the file, case- and space-insensitively', () => {
    const existing = service.store.customers(REP.username).slice(0, 2);
    const [a, b] = existing as [Customer, Customer];
    const table = [
      ['name', 'address'],
      [a.name.toUpperCase(), `  ${a.address.replace(/ /g, '   ')} `],
      ['New One', '1 Main St'],
      ['new  one', '1 main st'],
      [b.name, 'elsewhere'],
    ];
    const checked = checkRows(table.slice(1), autoMapColumns(table[0]!), existing);
    expect(checked.map((r) => r.duplicateOf ?? null)).toEqual([
      { kind: 'customer', id: a.id },
      null,
      { kind: 'row', index: 1 },
      null,
    ]);
  });

  it('export then import into an empty account recreates the same customers', async () => {
    // Awkward values on top of the generated ones.
    service.store.createCustomerDirect(SOURCE.username, {
      name: '=HYPERLINK("x")',
      company: '\'quoted\', "double"',
      address: 'Line 1\nLine 2',
      notes: 'multi\r\nline, with "quotes" and ünïcode ✓',
      groups: ['a;b', ' padded ', '[x]'],
      dealAmount: 1234.56,
      custom9: '-neg',
      custom4: "'@at",
      email: 'a.b+c@example.co.uk',
      color: 'neon purple',
      latitude: -33.8688,
      longitude: 151.2093,
      lastVisit: 1_700_000_000,
      numVisits: 7,
      remindAt: 1_800_000_000,
      remindType: 'call',
    });
    const source = service.store.customers(SOURCE.username);
    const csv = toCsv(exportTable(source));
    expect(parseCsv(csv).headers).toContain('custom9');

    const parsed = parseCsv(csv);
    const checked = checkRows(parsed.rows, autoMapColumns(parsed.headers), []);
    expect(checked.filter((r) => r.errors.length > 0 || r.duplicateOf)).toEqual([]);

    app = await startApp({ limiterRate: 200 });
    await app.ok('session:login', { baseUrl: service.url, ...EMPTY });
    await app.ok('sync:now');
    const importId = '0d9e8f7a-6b5c-4d3e-8f1a-2b3c4d5e6f70';
    await app.ok('import:start', {
      importId,
      fileName: 'export.csv',
      rows: checked.map((r) => r.fields!),
    });
    await waitForImport(app, importId, (s) => s.queued === source.length);
    await syncUntilEmpty(app);
    await waitForImport(app, importId, (s) => s.state === 'done');

    const key = (c: Customer | CustomerFields) => `${c.name}\u0000${c.address}`;
    const recreated = service.store.customers(EMPTY.username);
    expect(recreated).toHaveLength(source.length);
    const sorted = (list: Customer[]) =>
      list.sort((x, y) => (key(x) < key(y) ? -1 : 1)).map(writable);
    expect(sorted(recreated)).toEqual(sorted(source));
  });
});
