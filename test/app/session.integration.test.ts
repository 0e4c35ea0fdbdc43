// Sign-in, switch, sign-out and start-up through the IPC handlers, against the reference service
// over HTTP, the real keychain and real files.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ERROR_MESSAGES } from '../../src-shared/errors';
import type { AccountSummary } from '../../src-shared/ipc-contract';
import { accountDirOf } from '../../src-main/app/accounts-index';
import { startService, type RunningService } from '../../src-service/index';
import { filesUnder, HAS_KEYCHAIN, startApp, type AppUnderTest } from '../support/main';

// Each account closed asks V8 for a collection (main-heap.ts): counted here, not run.
const collections = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src-main/app/main-heap', async (original) => ({
  ...(await original<typeof import('../../src-main/app/main-heap')>()),
  collectAfterAccount: () => {
    collections.count++;
    return Promise.resolve();
  },
}));

const REP = { username: 'rep', password: 'S3cret-rep-PASSWORD-7q' };
const OTHER = { username: 'other', password: 'An0ther-PASSWORD-zz9' };

describe.skipIf(!HAS_KEYCHAIN)('sessions through the IPC handlers', () => {
  let service: RunningService;
  let app: AppUnderTest;

  beforeAll(async () => {
    service = await startService({
      rate: 0,
      accounts: [
        { ...REP, customers: 12, seed: 3 },
        { ...OTHER, customers: 4, seed: 4 },
      ],
    });
  });
  afterAll(async () => {
    await service.stop();
  });
  beforeEach(async () => {
    service.configure({ allow: ['127.0.0.1/8', '::1'] });
    app = await startApp();
  });
  afterEach(async () => {
    await app.dispose();
  });

  it('signs in, remembers the account without its password, and announces the session', async () => {
    const account = await app.ok('session:login', { baseUrl: `${service.url}/`, ...REP });
    expect(account).toEqual({
      accountKey: `${service.url}#rep`,
      baseUrl: service.url,
      username: 'rep',
      demo: false,
    });
    expect(await app.store.load(service.url, 'rep')).toBe(REP.password);
    expect(await app.ok('session:current')).toEqual(account);
    expect(await app.ok('accounts:list')).toEqual([account]);
    await app.waitForEvent<AccountSummary | null>(
      'session:changed',
      (a) => a?.accountKey === account.accountKey,
    );
    expect(existsSync(accountDirOf(app.dataDir, account.accountKey))).toBe(true);
  });

  it('refuses a wrong password with Unauthorized and stores nothing', async () => {
    const result = await app.call('session:login', {
      baseUrl: service.url,
      username: 'rep',
      password: 'wrong',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe('Unauthorized');
    expect(result.error.message).toBe(ERROR_MESSAGES.Unauthorized);
    expect(await app.store.list()).toEqual([]);
    expect(await app.ok('accounts:list')).toEqual([]);
    expect(existsSync(join(app.dataDir, 'accounts'))).toBe(false);
    expect(await app.ok('session:current')).toBeNull();
    expect(app.events.filter((e) => e.event === 'session:changed')).toEqual([]);
  });

  it('refuses plain http to another host and allows it on loopback', async () => {
    const refused = await app.call('session:login', { baseUrl: 'http://example.com', ...REP });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.kind).toBe('InvalidRequest');
    expect(refused.error.field).toBe('baseUrl');
    expect(refused.error.message).toMatch(/https/);
    expect(await app.store.list()).toEqual([]);

    const loopback = await app.call('session:login', {
      baseUrl: `http://127.0.0.1:${service.port}`,
      ...REP,
    });
    expect(loopback.ok).toBe(true);
  });

  it('asks before signing out with unsynced changes, then drops them when told to', async () => {
    const account = await app.ok('session:login', { baseUrl: service.url, ...REP });
    // Off the office network: the change stays queued.
    service.configure({ allow: ['10.0.0.0/8'] });
    const customer = service.store.customers('rep')[0]!;
    await app.ok('outbox:enqueue', {
      kind: 'deleteCustomer',
      target: customer.id,
      payload: null,
      base: customer,
    });

    const collected = collections.count;
    const asked = await app.ok('session:logout', {
      accountKey: account.accountKey,
      dropUnsynced: false,
    });
    expect(asked).toEqual({ signedOut: false, unsynced: 1 });
    expect(collections.count).toBe(collected);
    expect(await app.ok('session:current')).toEqual(account);
    expect(await app.store.load(service.url, 'rep')).toBe(REP.password);

    const done = await app.ok('session:logout', {
      accountKey: account.accountKey,
      dropUnsynced: true,
    });
    expect(done).toEqual({ signedOut: true, unsynced: 1 });
    expect(await app.ok('session:current')).toBeNull();
    expect(await app.ok('accounts:list')).toEqual([]);
    expect(await app.store.load(service.url, 'rep')).toBeNull();
    expect(existsSync(accountDirOf(app.dataDir, account.accountKey))).toBe(false);
    // What the account held is garbage now: V8 is told so once, not left to find it out.
    expect(collections.count).toBe(collected + 1);
    expect(app.events.at(-2)).toEqual({ event: 'session:changed', payload: null });
    // The dropped change never reached the service.
    service.configure({ allow: ['127.0.0.1/8', '::1'] });
    expect(service.store.customer('rep', customer.id)).toBeDefined();
  });

  it('switches between remembered accounts and asks to sign in again when the keychain lost one', async () => {
    const rep = await app.ok('session:login', { baseUrl: service.url, ...REP });
    const other = await app.ok('session:login', { baseUrl: service.url, ...OTHER });
    expect((await app.ok('accounts:list')).map((a) => a.username)).toEqual(['other', 'rep']);
    const collected = collections.count;
    expect(await app.ok('session:switch', { accountKey: rep.accountKey })).toEqual(rep);
    expect(await app.ok('session:current')).toEqual(rep);
    // The account switched from is closed: collected once. Quitting (a restart) collects nothing.
    expect(collections.count).toBe(collected + 1);
    await app.restart();
    expect(collections.count).toBe(collected + 1);
    expect(await app.ok('session:current')).toEqual(rep);

    await app.store.delete(service.url, 'other');
    const lost = await app.call('session:switch', { accountKey: other.accountKey });
    expect(lost.ok).toBe(false);
    if (!lost.ok) expect(lost.error.kind).toBe('Unauthorized');
    expect(await app.ok('session:current')).toEqual(rep);
  });

  it('reopens the last used account at start-up without the network', async () => {
    const account = await app.ok('session:login', { baseUrl: service.url, ...REP });
    const refused: typeof fetch = async () => {
      throw new TypeError('fetch failed', {
        cause: Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }),
      });
    };
    await app.restart({ fetch: refused });
    expect(await app.ok('session:current')).toEqual(account);
    // The engine found out on its own that the service is unreachable; the account stays open.
    await app.waitForEvent<{ kind: string }>('sync:state', (s) => s.kind === 'offline');
    expect(await app.ok('session:current')).toEqual(account);
  });

  it('never lets a password out: not in any answer, event or file', async () => {
    const rep = await app.ok('session:login', { baseUrl: service.url, ...REP });
    await app.call('session:login', {
      baseUrl: service.url,
      username: 'other',
      password: `${OTHER.password}-wrong`,
    });
    const other = await app.ok('session:login', { baseUrl: service.url, ...OTHER });
    await app.ok('sync:now');
    await app.ok('session:switch', { accountKey: rep.accountKey });
    await app.ok('sync:now');
    await app.ok('accounts:list');
    await app.ok('session:current');
    await app.restart();
    await app.ok('session:current');
    await app.ok('session:logout', { accountKey: other.accountKey, dropUnsynced: false });

    const secrets = [REP.password, OTHER.password, `${OTHER.password}-wrong`];
    const files = await filesUnder(app.dataDir);
    expect(files.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      for (const file of files) expect(file.content.includes(secret), file.path).toBe(false);
      for (const answer of app.answers) expect(answer).not.toContain(secret);
      for (const event of app.events) expect(JSON.stringify(event)).not.toContain(secret);
      // Basic auth on the wire is base64 of user:password: that must not leak either.
      const basic = Buffer.from(`rep:${secret}`).toString('base64');
      for (const file of files) expect(file.content.includes(basic), file.path).toBe(false);
    }
  });
});
