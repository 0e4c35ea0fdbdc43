// Every file main writes, over Windows' file system as test/support/windows-fs.ts plays it (no
// directory fsync, scanners holding new files, names Windows refuses or reserves, MAX_PATH from
// a deep profile, case-insensitive names): sign in to two accounts whose user names differ only
// by case, import, sync, edit, restart. Nothing is refused, no name collides, no change is lost.
import { readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { emptyCustomerFields } from '../../src-shared/domain';
import { startService, type RunningService } from '../../src-service/index';
import { playWindows, type WindowsPlayer } from '../support/windows-fs';
import { HAS_KEYCHAIN, startApp, type AppUnderTest } from '../support/main';

const LOWER = { username: 'rep', password: 'windows-rep-pw-61' };
const UPPER = { username: 'Rep', password: 'windows-rep-pw-62' };
const IMPORT_ID = '0f3c9a4e-8b7d-4c3a-9e2f-1a2b3c4d5e6f';

describe.skipIf(!HAS_KEYCHAIN)('main files on Windows', () => {
  let service: RunningService;
  let app: AppUnderTest;
  let windows: WindowsPlayer;

  beforeAll(async () => {
    service = await startService({
      rate: 0,
      accounts: [
        { ...LOWER, customers: 5, seed: 61 },
        { ...UPPER, customers: 5, seed: 62 },
      ],
    });
  });
  afterAll(async () => {
    await service.stop();
  });
  afterEach(async () => {
    await app.dispose();
  });

  it('two accounts differing by case, an import named in both cases, a restart', async () => {
    // The temp root stands for the profile folder, so the app's data dir counts towards MAX_PATH.
    windows = playWindows(tmpdir());
    app = await startApp({ fs: windows.fs });
    const rows = [{ ...emptyCustomerFields(), name: 'Imported on Windows' }];
    await app.ok('session:login', { baseUrl: service.url, ...LOWER });
    await app.ok('sync:now');
    const first = await app.ok('import:start', {
      importId: IMPORT_ID.toUpperCase(),
      fileName: 'customers.csv',
      rows,
    });
    // The same id in the other case is the same import, not a second one sharing its files.
    await app.ok('import:start', { importId: IMPORT_ID, fileName: 'customers.csv', rows });
    expect(first.importId).toBe(IMPORT_ID);
    // Each sync sends what the import queued so far; bounded by syncs, not by time.
    let created = 0;
    for (let syncs = 0; created < 1; syncs += 1) {
      if (syncs === 20) throw new Error('the import never reached the service');
      await app.ok('sync:now');
      const listed = await app.ok('import:list');
      expect(listed.map((s) => s.importId)).toEqual([IMPORT_ID]);
      created = listed[0]!.created;
    }

    const other = await app.ok('session:login', { baseUrl: service.url, ...UPPER });
    await app.ok('outbox:enqueue', {
      kind: 'updateCustomer',
      target: service.store.customers(UPPER.username)[0]!.id,
      payload: { city: 'Case-sensitive' },
      base: null,
    });
    await app.restart();
    expect((await app.ok('session:current'))?.accountKey).toBe(other.accountKey);
    expect((await app.ok('outbox:list')).map((op) => op.payload)).toEqual([
      { city: 'Case-sensitive' },
    ]);

    const accounts = await readdir(join(app.dataDir, 'accounts'));
    expect(accounts).toHaveLength(2);
    expect(new Set(accounts.map((a) => a.toLowerCase())).size).toBe(2);
    expect(service.store.customers(LOWER.username).map((c) => c.name)).toContain(
      'Imported on Windows',
    );
    expect(windows.dirSyncs).toEqual([]);
    expect(Object.values(windows.held).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });
});
