// The log after a real session: a wrong and a right password, a sync of customers with known
// names and emails, an edit, the page's errors. The file's bytes hold none of the secrets or the
// customers' data, and do hold the events support needs. Reference service over loopback, the
// real keychain, real files.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppLog } from '../../src-main/core/log/app-log';
import { startService, type RunningService } from '../../src-service/index';
import { HAS_KEYCHAIN, startApp, type AppUnderTest } from '../support/main';

const REP = { username: 'fieldrep-quillon', password: 'Pw-9f3kQ-secret-7731' };
const WRONG = 'Wrong-pw-4412-zz';
const LOOPBACK = ['127.0.0.1/8', '::1'];
const KNOWN = [
  { name: 'Zebediah Quornwell', email: 'zquornwell@example.net', phone: '+1 555 0199 7310' },
  { name: 'Philippa Anstruther', email: 'p.anstruther@example.org', phone: '+44 20 7946 0321' },
];
const NOTE = 'Buyer Marguerite prefers mornings';

describe.skipIf(!HAS_KEYCHAIN)('the log after a session', () => {
  let service: RunningService;
  let app: AppUnderTest;
  let log: AppLog;

  beforeAll(async () => {
    service = await startService({ rate: 0, accounts: [{ ...REP, customers: 10, seed: 5 }] });
    for (const customer of KNOWN) service.store.createCustomerDirect(REP.username, customer);
  });
  afterAll(async () => {
    await service.stop();
  });
  beforeEach(async () => {
    service.configure({ allow: LOOPBACK });
    app = await startApp();
    log = new AppLog({ dir: join(app.dataDir, 'logs'), clock: { now: () => Date.now() } });
    await app.restart({ log });
  });
  afterEach(async () => {
    await app.dispose();
  });

  it('holds the events and none of the password, the user name or the customers’ data', async () => {
    const refused = await app.call('session:login', {
      baseUrl: service.url,
      username: REP.username,
      password: WRONG,
    });
    expect(refused.ok).toBe(false);
    await app.ok('session:login', { baseUrl: service.url, ...REP });
    expect((await app.ok('sync:now')).kind).toBe('synced');
    const customer = service.store.customers(REP.username)[0]!;
    await app.ok('outbox:enqueue', {
      kind: 'updateCustomer',
      target: customer.id,
      payload: { notes: NOTE },
      base: customer,
    });
    expect((await app.ok('sync:now')).kind).toBe('synced');
    expect(service.store.customer(REP.username, customer.id)?.notes).toBe(NOTE);
    // The page's error: its class name and frames are kept; a message is refused by the contract.
    expect(
      await app.ok('log:renderer-error', {
        source: 'error',
        name: 'TypeError',
        frames: [{ file: 'index-abc.js', line: 3, column: 9 }],
      }),
    ).toBe(true);
    const withMessage = await app.call('log:renderer-error', {
      source: 'error',
      name: 'TypeError',
      frames: [],
      message: `${KNOWN[0]!.name} not found`,
    } as never);
    expect(withMessage.ok).toBe(false);
    await log.flush();

    const bytes = await readFile(join(app.dataDir, 'logs', 'fieldmap.log'));
    const text = bytes.toString('utf8');
    const events = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events).toContainEqual(
      expect.objectContaining({
        event: 'ipc.failed',
        channel: 'session:login',
        kind: 'Unauthorized',
      }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ event: 'session.changed', demo: false }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ event: 'sync.state', state: 'synced' }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ event: 'renderer.error', name: 'TypeError' }),
    );

    const secrets = [REP.password, WRONG, REP.username, NOTE, 'Marguerite'];
    for (const c of [...KNOWN, ...service.store.customers(REP.username)]) {
      secrets.push(c.name, c.email, c.phone);
    }
    for (const secret of secrets.filter((s) => s.length >= 6)) {
      expect(bytes.includes(Buffer.from(secret, 'utf8')), secret).toBe(false);
    }
  });
});
