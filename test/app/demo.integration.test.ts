// Demo mode: the reference service on loopback with a generated password kept in the keychain,
// its data persisted under the data dir, reopened on the same URL after a restart.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventOf } from '../../src-shared/ipc-contract';
import { createDemoLauncher, DEMO_KEYCHAIN_URL, DEMO_USERNAME } from '../../src-main/app/demo';
import { HAS_KEYCHAIN, filesUnder, startApp, type AppUnderTest } from '../support/main';

describe.skipIf(!HAS_KEYCHAIN)('demo mode', () => {
  let app: AppUnderTest;

  beforeEach(async () => {
    // A demo launcher on the fixture's own data dir and keychain namespace, without a rate
    // limit (the limiter is not what this suite tests).
    app = await startApp();
    await app.restart({
      demo: createDemoLauncher({
        dataDir: app.dataDir,
        credentialStore: app.store,
        rate: 0,
        customers: 40,
      }),
    });
  });
  afterEach(async () => {
    await app.dispose();
  });

  it('starts the demo account, keeps its password in the keychain only, and reopens it after a restart', async () => {
    const account = await app.ok('session:demo');
    expect(account).toMatchObject({ username: DEMO_USERNAME, demo: true });
    expect(account.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const password = await app.store.load(DEMO_KEYCHAIN_URL, DEMO_USERNAME);
    expect(password).toMatch(/^[\w-]{20,}$/);
    expect(await app.store.load(account.baseUrl, DEMO_USERNAME)).toBe(password);

    await app.ok('sync:now');
    const snapshot = await app.waitForEvent<EventOf<'data:snapshot'>>('data:snapshot');
    expect(snapshot.customers).toHaveLength(40);

    // A change the rep made survives a restart of the app and of the demo service.
    const target = snapshot.customers[0]!;
    await app.ok('outbox:enqueue', {
      kind: 'deleteCustomer',
      target: target.id,
      payload: null,
      base: target,
    });
    await app.ok('sync:now');
    expect(await app.ok('outbox:list')).toEqual([]);

    await app.restart({
      demo: createDemoLauncher({
        dataDir: app.dataDir,
        credentialStore: app.store,
        rate: 0,
        customers: 40,
      }),
    });
    expect(await app.ok('session:current')).toEqual(account);
    expect((await app.ok('sync:now')).kind).toBe('synced');
    expect(await app.ok('data:open', { accountKey: null, newerThan: null })).toBe(true);
    const after = app.events.filter((e) => e.event === 'data:snapshot').at(-1)!
      .payload as EventOf<'data:snapshot'>;
    expect(after.customers).toHaveLength(39);
    expect(after.customers.some((c) => c.id === target.id)).toBe(false);

    // The app's own files never hold the password; the demo service's database (which plays the
    // server) is the one file that does, as any server's account table would.
    for (const file of await filesUnder(app.dataDir)) {
      if (file.path === join(app.dataDir, 'demo-service.json')) continue;
      expect(file.content.includes(password!), file.path).toBe(false);
    }
    expect((await readFile(join(app.dataDir, 'demo.json'), 'utf8')).includes(password!)).toBe(
      false,
    );
  });
});
