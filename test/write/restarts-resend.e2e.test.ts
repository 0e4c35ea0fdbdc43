// Two restarts at 20,000 customers, the second one offline: when the network comes back, the
// first sync sends the cache only what changed, and its "Synced" is over data the cache took.
// It used to show "Synced", then "Receiving customers: 2,000 of 20,000 … Saving" as main sent
// the whole account again: after the online restart the page's road got main's "Synced" before
// the delta main resent on it, the test's restart at that "Synced" cut the delta's save short,
// and main's saved prints named a pull the cache never took, so the next delta was refused.
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { MemoryCredentialStore } from '../../scripts/browser-runner/credentials';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import { signIn, syncState, waitRows, waitSync } from '../support/app-steps';
import { STATUS_PROBE, statusLog } from '../support/status-probe';

const COUNT = 20_000;
/** What the bar says while a snapshot or delta is received and saved. */
const STREAM = /receiving customers|saving/i;

let service: TestService;
let app: AppHandle | undefined;
let dataDir: string;
const credentialStore = new MemoryCredentialStore();

beforeAll(async () => {
  service = await startTestService({ customers: COUNT, seed: 33 });
  dataDir = await mkdtemp(join(tmpdir(), 'fieldmap-e2e-'));
  app = await launchApp({
    serviceUrl: service.url,
    dataDir,
    credentialStore,
    pageProbe: STATUS_PROBE,
  });
});

afterAll(async () => {
  await app?.close();
  await service?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const running = (): AppHandle => {
  if (!app) throw new Error('no app');
  return app;
};

/** The pull main saved the prints of (what its next delta names as its base), or null. */
async function savedPull(): Promise<number | null> {
  const accounts = join(dataDir, 'accounts');
  for (const dir of await readdir(accounts).catch(() => [])) {
    const file = join(accounts, dir, 'sync', 'last-pull-prints.json');
    const text = await readFile(file, 'utf8').catch(() => null);
    if (text !== null) return (JSON.parse(text) as { pulledAt: number }).pulledAt;
  }
  return null;
}

/** The pull the page's cache holds (its meta 'lastSync'), read in the page. */
const cachedPull = (page: Page): Promise<number | null> =>
  page.evaluate(async () => {
    const names = (await indexedDB.databases()).map((d) => d.name ?? '');
    const name = names.find((n) => n.startsWith('fieldmap'));
    if (!name) return null;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open(name);
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    try {
      const row = await new Promise<{ value?: unknown } | undefined>((resolve, reject) => {
        const get = db.transaction('meta').objectStore('meta').get('lastSync');
        get.onsuccess = () => resolve(get.result as { value?: unknown } | undefined);
        get.onerror = () => reject(get.error);
      });
      return typeof row?.value === 'number' ? row.value : null;
    } finally {
      db.close();
    }
  });

describe('online again after an online restart, then an offline one', () => {
  it('sends only what changed, and says "Synced" over what the cache took', async () => {
    const first = running().page;
    await signIn(running(), service);
    await waitRows(first, 'Customers', COUNT);
    await waitSync(first, 'synced');

    await running().restart();
    await waitRows(running().page, 'Customers', COUNT);
    await waitSync(running().page, 'synced');

    await running().setOffline(true);
    await running().restart();
    const page = running().page;
    await waitRows(page, 'Customers', COUNT);
    await waitSync(page, 'offline');
    const before = (await statusLog(page)).length;

    await running().setOffline(false);
    await waitSync(page, 'synced');
    // The cache holds the pull main keeps prints of (after a resend, if one came, too).
    await expect
      .poll(async () => {
        const saved = await savedPull();
        return saved !== null && saved === (await cachedPull(page));
      })
      .toBe(true);
    await waitSync(page, 'synced');
    const since = (await statusLog(page)).slice(before);
    expect(since.filter((e) => STREAM.test(e.text))).toEqual([]);
  });
});

describe('a restart after main saved the prints of a pull the cache never took', () => {
  it('never says "Synced" over the delta the cache refused, only after the resend', async () => {
    // Main's next pull never reaches the cache (a quit while it was on its way): main has its
    // prints saved, the cache holds the pull before.
    running().holdData();
    const state = await running().call<{ kind: string }>('syncNow');
    expect(state.kind).toBe('synced');
    const held = await cachedPull(running().page);
    // The prints are saved after "synced".
    await expect.poll(savedPull).not.toBe(held);
    const saved = await savedPull();
    // The first pull after the restart waits until the page's road is open: its delta, over a
    // pull the cache does not hold, reaches the cache and is refused.
    const pull = service.hold('GET', /^\/api\/v1\/user$/);
    await running().restart();
    const page = running().page;
    await waitRows(page, 'Customers', COUNT);
    await pull.arrived;
    await expect.poll(() => syncState(page)).toBe('syncing');
    pull.release();

    await expect
      .poll(async () => {
        const now = await savedPull();
        return now !== saved && now === (await cachedPull(page));
      })
      .toBe(true);
    await waitSync(page, 'synced');
    const log = await statusLog(page);
    const lastStream = log.map((e) => STREAM.test(e.text)).lastIndexOf(true);
    expect(log.slice(0, lastStream + 1).filter((e) => e.kind === 'synced')).toEqual([]);
  });
});
