// Help > About and a crashed page, in the Electron shell (Electron itself is the fake module of
// fake-electron.ts: no Electron binary can run here) over the real main services on a temp dir,
// signed in to the reference service over loopback, with changes queued while the service is
// out of reach.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { IpcResult } from '../../src-shared/ipc-contract';
import type { Op } from '../../src-shared/outbox-types';
import { createMainServices, type MainServices } from '../../src-main/app/main-services';
import { ABOUT_LABEL } from '../../src-main/shell/app-menu';
import type { ShellMenuItem } from '../../src-main/shell/shell-deps';
import { startShell, type ShellHandle } from '../../src-main/shell/start-shell';
import { MemoryCredentialStore } from '../../scripts/browser-runner/credentials';
import { startService, type RunningService } from '../../src-service/index';
import { createFakeElectron, type FakeElectron } from './fake-electron';
import { APP_FRAME, FakeClock } from './shell-harness';

const REP = { username: 'rep-okonkwo', password: 'About-box-pw-8841' };
const LOOPBACK = ['127.0.0.1/8', '::1'];

let service: RunningService;
let dir: string;
let services: MainServices | null;
/** Main's network: cut to keep changes queued. */
const network = { offline: false };

beforeAll(async () => {
  service = await startService({ rate: 0, accounts: [{ ...REP, customers: 6, seed: 3 }] });
});
afterAll(async () => {
  await service.stop();
});
beforeEach(async () => {
  service.configure({ allow: LOOPBACK });
  dir = await mkdtemp(join(tmpdir(), 'fieldmap-shell-support-'));
  services = null;
  network.offline = false;
});
afterEach(async () => {
  await services?.dispose();
  await rm(dir, { recursive: true, force: true });
});

async function startSignedIn(): Promise<{ fake: FakeElectron; handle: ShellHandle }> {
  const fake = createFakeElectron({ dataDir: join(dir, 'userData') });
  fake.version.current = '1.4.2';
  const handle = startShell(fake.deps, {
    rendererDir: dir,
    preloadPath: '/app/out/preload/index.cjs',
    log: () => undefined,
    timers: { setInterval: () => 'poll', clearInterval: () => undefined },
    watchTimers: new FakeClock().api,
    env: {},
    async createServices({ dataDir, emit, openExternal, log }) {
      services = await createMainServices({
        dataDir,
        emit,
        openExternal,
        log,
        credentialStore: new MemoryCredentialStore(),
        demo: false,
        restore: false,
        syncPeriodMs: 600_000,
        limiterRate: 20,
        fetch: (input, init) =>
          network.offline
            ? Promise.reject(new TypeError('fetch failed'))
            : globalThis.fetch(input, init),
      });
      return {
        handlers: services.handlers,
        onOnline: () => undefined,
        onResume: () => undefined,
        dispose: () => undefined,
        about: () => services!.about(),
      };
    },
  })!;
  fake.fireReady();
  await handle.ready;
  expect(await call(fake, 'session:login', { baseUrl: service.url, ...REP })).toMatchObject({
    ok: true,
  });
  expect(await call(fake, 'sync:now')).toMatchObject({ ok: true, value: { kind: 'synced' } });
  return { fake, handle };
}

function call(fake: FakeElectron, channel: string, request?: unknown) {
  return fake.ipcHandlers.get(channel)!({ senderFrame: APP_FRAME }, request) as Promise<
    IpcResult<unknown>
  >;
}

/** Two edits queued while main cannot reach the service. */
async function queueTwoOffline(fake: FakeElectron): Promise<Op[]> {
  network.offline = true;
  for (const customer of service.store.customers(REP.username).slice(0, 2)) {
    const queued = await call(fake, 'outbox:enqueue', {
      kind: 'updateCustomer',
      target: customer.id,
      payload: { notes: 'left a catalogue' },
      base: customer,
    });
    expect(queued.ok).toBe(true);
  }
  const listed = await call(fake, 'outbox:list');
  return (listed as { ok: true; value: Op[] }).value;
}

function menuItem(template: ShellMenuItem[] | null, label: string): ShellMenuItem | undefined {
  for (const item of template ?? []) {
    if (item.label === label) return item;
    const inner = menuItem(item.submenu ?? null, label);
    if (inner) return inner;
  }
  return undefined;
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('Help > About Fieldmap', () => {
  it('says the version, the account’s user name and host, the queued changes and the data folder; never the password', async () => {
    const { fake, handle } = await startSignedIn();
    expect(await queueTwoOffline(fake)).toHaveLength(2);
    menuItem(fake.menu.template, ABOUT_LABEL)!.click!();
    expect(fake.boxes).toHaveLength(1);
    const box = fake.boxes[0]!;
    expect(box.window).toBe(fake.windows[0]);
    const host = new URL(service.url).host;
    expect(box.options).toMatchObject({
      type: 'info',
      title: 'About Fieldmap',
      message: 'Fieldmap 1.4.2',
      buttons: ['OK', 'Show logs'],
    });
    expect(box.options.detail).toBe(
      [
        `Account: ${REP.username} on ${host}`,
        'Changes waiting to be sent: 2',
        `Data folder: ${join(dir, 'userData')}`,
        `Logs: ${join(dir, 'userData', 'logs')}`,
      ].join('\n'),
    );
    expect(JSON.stringify(box.options)).not.toContain(REP.password);
    // "Show logs" in the box opens the logs folder.
    box.press(1);
    for (let i = 0; i < 100 && fake.files.opened.length === 0; i++) await settle();
    expect(fake.files.opened).toEqual([handle.appLog()!.dir]);
  });
});

describe('a crashed page', () => {
  it('is reloaded; main’s outbox is untouched, even mid-send, and the new page is told', async () => {
    const { fake } = await startSignedIn();
    // The edit's PUT waits at the service's gate: the op is in flight when the page crashes.
    const put = service.hold('PUT', /^\/api\/v1\/customers\/[^/]+$/);
    const customer = service.store.customers(REP.username)[0]!;
    const queued = await call(fake, 'outbox:enqueue', {
      kind: 'updateCustomer',
      target: customer.id,
      payload: { notes: 'left a catalogue' },
      base: customer,
    });
    expect(queued.ok).toBe(true);
    await put.arrived;
    const before = await call(fake, 'outbox:list');
    expect((before as { value: Op[] }).value.map((op) => op.state)).toEqual(['in-flight']);

    const window = fake.windows[0]!;
    window.webContents.emit('render-process-gone', {}, { reason: 'oom', exitCode: -1 });
    expect(window.loaded).toEqual(['app://fieldmap/index.html', 'app://fieldmap/index.html']);
    // The reloaded page asks what it asks on every start.
    expect(await call(fake, 'shell:take-notice')).toMatchObject({
      ok: true,
      value: { kind: 'crashed' },
    });
    expect(await call(fake, 'outbox:list')).toEqual(before);

    // The send goes on and lands once.
    put.release();
    expect(await call(fake, 'sync:now')).toMatchObject({ ok: true, value: { kind: 'synced' } });
    expect(service.store.customer(REP.username, customer.id)?.notes).toBe('left a catalogue');
    expect(service.customerPuts()).toEqual({ [customer.id]: 1 });
    expect(await call(fake, 'outbox:list')).toEqual({ ok: true, value: [] });
  });
});
