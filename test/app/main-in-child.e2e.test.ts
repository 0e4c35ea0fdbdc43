// The harness's mainInChild (scripts/browser-runner/child-process.ts): main's services in a
// Node process of their own, the page driven from this one over CDP, as the scale bench measures
// main's memory. The rep's path works through it: sign in (the password kept in this process's
// store), the list filled, the network cut and back, a restart that finds the session again.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryCredentialStore } from '../../scripts/browser-runner/credentials';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import { signIn, waitRows, waitSync } from '../support/app-steps';

/** VmRSS of a process, in bytes (Linux). */
async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

describe('main in a child process', () => {
  let service: TestService;
  let app: AppHandle;
  const store = new MemoryCredentialStore();

  beforeAll(async () => {
    service = await startTestService({ customers: 40, seed: 26 });
    app = await launchApp({ mainInChild: true, credentialStore: store });
  });
  afterAll(async () => {
    await app?.close();
    await service?.stop();
  });

  it('runs main apart from this process and the rep signs in, syncs and restarts through it', async () => {
    const first = app.mainPid();
    expect(first).not.toBe(process.pid);
    expect(await rssOf(first)).toBeGreaterThan(0);
    expect((await app.mainMemory()).rss).toBeGreaterThan(0);
    expect(() => app.services).toThrow(/child process/);

    await signIn(app, service);
    await waitRows(app.page, 'Customers', 40);
    await waitSync(app.page, 'synced');
    // The password crossed back to the store of this process, as the keychain is the OS's.
    expect((await store.list()).map((a) => a.username)).toEqual([service.account.username]);

    // Main's network is cut in the child (a sync fails there), the browser's from here.
    await app.setOffline(true);
    await app.call('syncNow');
    await waitSync(app.page, 'offline');
    await app.setOffline(false);
    await app.call('syncNow');
    await waitSync(app.page, 'synced');

    await app.restart();
    expect(app.mainPid()).not.toBe(first);
    await expect.poll(() => rssOf(first).catch(() => 0)).toBe(0);
    await waitRows(app.page, 'Customers', 40);
    await expect
      .poll(() => app.call<{ username: string } | null>('currentAccount'))
      .toMatchObject({ username: service.account.username });
  });
});
