// Main's "allow a local address?" message box in the Electron shell (issue 30): an online style
// or map source on this computer or the LAN is used only after the rep allows it in a box main
// shows on the app window; the page cannot answer it. Electron itself is the fake module of
// fake-electron.ts (no Electron binary can be installed or started here); behind it run the real
// main services on a temp dir and real loopback servers.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IpcResult } from '../../src-shared/ipc-contract';
import { createMainServices, type MainServices } from '../../src-main/app/main-services';
import { startShell } from '../../src-main/shell/start-shell';
import { MemoryCredentialStore } from '../../scripts/browser-runner/credentials';
import { startRangeServer, type RangeServer } from '../basemap/range-server';
import { townArchive } from '../basemap/streets-fixture';
import { createFakeElectron, type FakeElectron } from './fake-electron';

const APP_FRAME = { url: 'app://fieldmap/index.html', parent: null };

let dir: string;
let services: MainServices | null;
let source: RangeServer;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fieldmap-shell-local-'));
  services = null;
  source = await startRangeServer(townArchive());
});

afterEach(async () => {
  await services?.dispose();
  await source.close();
  await rm(dir, { recursive: true, force: true });
});

async function startWithServices(platform = 'linux'): Promise<FakeElectron> {
  const fake = createFakeElectron({ dataDir: join(dir, 'userData') });
  fake.deps.platform = platform;
  const handle = startShell(fake.deps, {
    rendererDir: dir,
    preloadPath: '/app/out/preload/index.cjs',
    log: () => undefined,
    timers: { setInterval: () => 'poll', clearInterval: () => undefined },
    async createServices({ dataDir, emit, pickFile, confirmLocalAddress, openExternal }) {
      services = await createMainServices({
        dataDir,
        emit,
        openExternal,
        credentialStore: new MemoryCredentialStore(),
        demo: false,
        restore: false,
        ...(pickFile ? { pickFile } : {}),
        ...(confirmLocalAddress ? { confirmLocalAddress } : {}),
      });
      return {
        handlers: services.handlers,
        onOnline: () => undefined,
        onResume: () => undefined,
        dispose: () => undefined,
      };
    },
  });
  fake.fireReady();
  await handle!.ready;
  return fake;
}

function invoke(fake: FakeElectron, channel: string, request?: unknown) {
  return fake.ipcHandlers.get(channel)!({ senderFrame: APP_FRAME }, request) as Promise<
    IpcResult<unknown>
  >;
}

describe("main's box before a local address is used", () => {
  it('asks on the app window; Cancel (or closing the box) refuses and stores nothing', async () => {
    const fake = await startWithServices();
    fake.dialogs.button = 1;
    const style = 'http://127.0.0.1:8080/style.json';
    const refused = await invoke(fake, 'basemap:set-settings', { onlineStyleUrl: style });
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error).toMatchObject({
      kind: 'InvalidRequest',
      field: 'onlineStyleUrl',
    });
    expect(!refused.ok && refused.error.message).toMatch(/only once you confirm it/);
    expect(fake.dialogs.boxes).toHaveLength(1);
    expect(fake.dialogs.boxes[0]!.window).toBe(fake.windows[0]);
    expect(fake.dialogs.boxes[0]!.options).toMatchObject({
      type: 'question',
      message: 'Allow Fieldmap to use http://127.0.0.1:8080 as the online style?',
      buttons: ['Allow', 'Cancel'],
      defaultId: 1,
      cancelId: 1,
    });
    expect(services!.basemap.settings()).toMatchObject({
      onlineStyleUrl: null,
      confirmedOrigins: [],
    });
  });

  it('Allow stores the address and its confirmation, asked once per address', async () => {
    const fake = await startWithServices();
    fake.dialogs.button = 0;
    const style = 'http://127.0.0.1:8080/style.json';
    expect((await invoke(fake, 'basemap:set-settings', { onlineStyleUrl: style })).ok).toBe(true);
    expect((await invoke(fake, 'basemap:set-settings', { onlineStyleUrl: style })).ok).toBe(true);
    expect(fake.dialogs.boxes).toHaveLength(1);
    expect(services!.basemap.settings()).toMatchObject({
      onlineStyleUrl: style,
      confirmedOrigins: ['http://127.0.0.1:8080'],
    });
    // A public style needs no box, and the local confirmation goes with the address.
    await invoke(fake, 'basemap:set-settings', {
      onlineStyleUrl: 'https://tiles.example.com/s.json',
    });
    expect(fake.dialogs.boxes).toHaveLength(1);
    expect(services!.basemap.settings().confirmedOrigins).toEqual([]);
  });

  it('a map source on loopback is checked and used only once allowed', async () => {
    const fake = await startWithServices();
    fake.dialogs.button = 1;
    const refused = await invoke(fake, 'basemap:set-settings', { regionSourceUrl: source.url });
    expect(!refused.ok && refused.error.field).toBe('regionSourceUrl');
    expect(source.requests).toEqual([]);
    fake.dialogs.button = 0;
    expect((await invoke(fake, 'basemap:set-settings', { regionSourceUrl: source.url })).ok).toBe(
      true,
    );
    expect(fake.dialogs.boxes.map((b) => b.options.message)).toEqual([
      `Allow Fieldmap to use ${new URL(source.url).origin} as the map source?`,
      `Allow Fieldmap to use ${new URL(source.url).origin} as the map source?`,
    ]);
    const estimate = await invoke(fake, 'regions:estimate', {
      area: { kind: 'bbox', bounds: [-97.42, 37.68, -97.38, 37.72] },
    });
    expect(estimate.ok).toBe(true);
  });
});
