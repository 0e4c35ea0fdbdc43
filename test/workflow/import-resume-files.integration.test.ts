// The resume files of an import (src-main/app/import-jobs.ts) are read strictly after a restart
// (issue 30): a damaged progress file makes every row be checked against the outbox and the
// service before it is queued again, so no customer is created twice; a rows file that is not
// exactly what start() writes (another import's id, extra keys) is queued from never, and left
// on disk. Main's real services against the reference service, real files.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ImportStatus } from '../../src-shared/csv-customers';
import { emptyCustomerFields } from '../../src-shared/domain';
import { accountDirOf } from '../../src-main/app/accounts-index';
import { startService, type RunningService } from '../../src-service/index';
import { HAS_KEYCHAIN, startApp, type AppUnderTest } from '../support/main';
import { until } from '../support/until';

const REP = { username: 'resumer', password: 'resume-pw-31' };
const IMPORT = '0b6c7e1a-3d2f-4a5b-8c9d-0e1f2a3b4c5d';
const OTHER = '7a8b9c0d-1e2f-4a3b-9c4d-5e6f7a8b9c0d';
const FORGED = 'c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f';

const rows = Array.from({ length: 25 }, (_, i) => ({
  ...emptyCustomerFields(),
  name: `Resume Customer ${i}`,
  address: `${i} Quay Street`,
}));

describe.skipIf(!HAS_KEYCHAIN)('import resume files', () => {
  let service: RunningService;
  let app: AppUnderTest | null = null;

  beforeAll(async () => {
    service = await startService({ rate: 0, accounts: [{ ...REP, customers: 0 }] });
  });
  afterAll(async () => {
    await service.stop();
  });
  afterEach(async () => {
    await app?.dispose();
    app = null;
  });

  const status = async (a: AppUnderTest, importId: string) =>
    (await a.ok('import:list')).find((s: ImportStatus) => s.importId === importId);

  const syncUntilEmpty = async (a: AppUnderTest) => {
    await until(
      async () => {
        await a.ok('sync:now');
        return (await a.ok('outbox:list')).length === 0;
      },
      'the outbox to empty',
      60_000,
    );
  };

  it('damaged progress: every row is checked, none is created twice; forged rows files are ignored', async () => {
    const a = (app = await startApp({ limiterRate: 60 }));
    await a.ok('session:login', { baseUrl: service.url, ...REP });
    await a.ok('sync:now');
    await a.ok('import:start', { importId: IMPORT, fileName: 'customers.csv', rows });
    await until(
      async () => (await status(a, IMPORT))?.queued === rows.length,
      'every row queued',
      60_000,
    );
    await syncUntilEmpty(a);
    expect(service.store.customers(REP.username)).toHaveLength(rows.length);

    await a.services.dispose();
    const dir = join(accountDirOf(a.dataDir, `${service.url}#${REP.username}`), 'imports');
    // Progress a crash or a hand left damaged: out of bounds, and a key start() never writes.
    await writeFile(
      join(dir, `${IMPORT}.progress.json`),
      JSON.stringify({ version: 1, queued: 0, intent: 0, resumeFrom: -1 }),
    );
    // A rows file under one import's name holding another's, and one with a key too many.
    const rowsFile = JSON.parse(await readFile(join(dir, `${IMPORT}.rows.json`), 'utf8')) as {
      importId: string;
    };
    await writeFile(
      join(dir, `${OTHER}.rows.json`),
      JSON.stringify({ ...rowsFile, importId: FORGED }),
    );
    const extra = JSON.stringify({ ...rowsFile, importId: FORGED, admin: true });
    await writeFile(join(dir, `${FORGED}.rows.json`), extra);

    await a.restart();
    await until(
      async () => (await status(a, IMPORT))?.queued === rows.length,
      'the import resumed',
      60_000,
    );
    await syncUntilEmpty(a);
    expect(service.store.customers(REP.username)).toHaveLength(rows.length);
    expect((await a.ok('import:list')).map((s: ImportStatus) => s.importId)).toEqual([IMPORT]);
    // Nothing of a refused file is lost: it stays as it was.
    expect(await readFile(join(dir, `${FORGED}.rows.json`), 'utf8')).toBe(extra);
  });
});
