// A restart with three changes queued, at 20,000 customers through the browser runner: from the
// page's first moment the status bar says that the changes wait (and, offline, that the machine
// is offline) beside what it is busy with (opening, reading the cache), and data-sync is never
// "synced" while they wait. It used to say "Opening…", then "Reading customers on this laptop…"
// over an empty list, and only named the changes once the list had read the cache (seconds at
// 100k): "did my edits vanish?". Every status change is recorded from the page's first moment
// (the harness's page probe, run again at each launch) with the Changes count beside it: the
// bar must name the changes whenever the page itself shows them queued. Before the page has
// read its outbox mirror (0.6-1.1 s at 100k) it knows no count: data-sync said 'signed-out' and
// the Changes view "0" then. Now nothing false: 'opening', no count, no "kept and sent later".
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { RequestGate } from '../../src-service/index';
import { MemoryCredentialStore } from '../../scripts/browser-runner/credentials';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import { editPhone, signIn, waitRows, waitSync } from '../support/app-steps';
import { STATUS_PROBE, statusLog, type StatusEntry } from '../support/status-probe';

const COUNT = 20_000;
const PHONES = ['555-0320', '555-0321', '555-0322'];
const WAITING = '3 changes waiting to be sent';
/** What the bar says the page is busy with before the list shows the cache (alone or beside). */
const BUSY = /(^|· )(opening|reading customers on this laptop)…$/i;

let service: TestService;
let app: AppHandle | undefined;
let dataDir: string;
/** Shared by both launches on the same data dir: the second one opens the saved sign-in. */
const credentialStore = new MemoryCredentialStore();
let put: RequestGate | null = null;

beforeAll(async () => {
  service = await startTestService({ customers: COUNT, seed: 32 });
  dataDir = await mkdtemp(join(tmpdir(), 'fieldmap-e2e-'));
  app = await launchApp({
    serviceUrl: service.url,
    dataDir,
    credentialStore,
    pageProbe: STATUS_PROBE,
  });
});

afterAll(async () => {
  // A held PUT keeps main's sync (and so its close) waiting.
  put?.release();
  await app?.close();
  await service?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const running = (): AppHandle => {
  if (!app) throw new Error('no app');
  return app;
};

const statusText = (page: Page) => page.textContent('.sync-status .text');

/** The entries of the bar (not those before it is on the page). */
const shown = (log: StatusEntry[]) => log.filter((e) => e.kind !== null);

/** What the bar says before the page has read its outbox mirror: only that it opens. */
const UNREAD = /^(Offline · )?(opening|reading customers on this laptop)…$/i;

/**
 * Nothing false before main's first word or the mirror's read: never signed out (the rep is
 * signed in), never a count but the 3 queued, and while the page shows no count, only 'opening'
 * (or, should main's mirror be there first, the 3 changes named).
 */
function expectNothingFalse(log: StatusEntry[]): void {
  expect(log.length).toBeGreaterThan(0);
  expect(log.filter((e) => e.kind === 'signed-out')).toEqual([]);
  expect(log.filter((e) => e.changes !== null && e.changes !== 3)).toEqual([]);
  const unread = log.filter((e) => e.changes === null);
  expect(
    unread.filter(
      (e) => !(e.kind === 'opening' && UNREAD.test(e.text)) && !e.text.includes(WAITING),
    ),
  ).toEqual([]);
}

describe('the status bar after a restart with 3 changes queued', () => {
  it('offline: says offline and the 3 changes from the first moment, beside the reading', async () => {
    const { page } = running();
    await signIn(running(), service);
    await waitRows(page, 'Customers', COUNT);
    await waitSync(page, 'synced');
    await running().setOffline(true);
    for (const [i, phone] of PHONES.entries()) await editPhone(page, i, phone);
    await waitSync(page, 'offline');
    await expect.poll(() => statusText(page)).toMatch(/^Offline — 3 changes waiting to be sent/);

    await running().restart();
    const after = running().page;
    await waitRows(after, 'Customers', COUNT);
    await waitSync(after, 'offline');
    await expect.poll(() => statusText(after)).toMatch(/^Offline — 3 changes waiting to be sent/);
    const log = shown(await statusLog(after));
    expectNothingFalse(log);
    // The machine has no network: said from the bar's first word on, never "Synced".
    expect(log.filter((e) => !e.text.startsWith('Offline'))).toEqual([]);
    expect(log.filter((e) => e.kind === 'synced' || e.text.includes('Synced'))).toEqual([]);
    // Once the page shows the changes queued, the bar names them, and data-sync says so.
    const known = log.filter((e) => e.changes === 3);
    expect(known.length).toBeGreaterThan(0);
    expect(known.filter((e) => !e.text.includes(WAITING))).toEqual([]);
    expect(
      known.filter((e) => e.kind !== 'queued' && e.kind !== 'offline' && e.kind !== 'syncing'),
    ).toEqual([]);
    // Over a list that does not show the cache yet, the bar says what the page is busy with.
    expect(log.filter((e) => e.rows < COUNT && !BUSY.test(e.text))).toEqual([]);
  });

  it('online: says the 3 changes are being sent while the list reads the cache', async () => {
    // The changes reach the service only when the test says: main's sync is under way meanwhile.
    put = service.hold('PUT', /\/customers\//);
    await running().close();
    app = undefined;
    app = await launchApp({
      serviceUrl: service.url,
      dataDir,
      credentialStore,
      pageProbe: STATUS_PROBE,
    });
    const { page } = app;
    await put.arrived;
    await waitRows(page, 'Customers', COUNT);
    await expect.poll(() => statusText(page)).toMatch(/^Sending 3 changes( · about .+ left)?$/);
    const log = shown(await statusLog(page));
    expectNothingFalse(log);
    expect(log.filter((e) => e.kind === 'synced' || e.text.includes('Synced'))).toEqual([]);
    const known = log.filter((e) => e.changes === 3);
    expect(known.length).toBeGreaterThan(0);
    expect(known.filter((e) => !/\b3 changes\b/.test(e.text))).toEqual([]);
    expect(known.filter((e) => e.kind !== 'queued' && e.kind !== 'syncing')).toEqual([]);
    expect(log.filter((e) => e.rows < COUNT && !BUSY.test(e.text))).toEqual([]);

    put.release();
    put = null;
    await waitSync(page, 'synced');
    const phones = service.store.customers('rep').map((c) => c.phone);
    expect(PHONES.filter((p) => phones.includes(p))).toEqual(PHONES);
  });
});
