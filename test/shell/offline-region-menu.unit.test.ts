// File > Add offline region… and regions:pick in the Electron shell. Electron itself is the fake
// module of fake-electron.ts (no Electron binary can be installed or started here); behind it run
// the real main services on a temp dir, so a picked archive is really checked, copied and listed.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IpcResult } from '../../src-shared/ipc-contract';
import { createMainServices, type MainServices } from '../../src-main/app/main-services';
import { ADD_REGION_LABEL } from '../../src-main/shell/app-menu';
import type { ShellMenuItem } from '../../src-main/shell/shell-deps';
import { startShell } from '../../src-main/shell/start-shell';
import { MemoryCredentialStore } from '../../scripts/browser-runner/credentials';
import { regionArchive } from '../basemap/fixture-tiles';
import { createFakeElectron, type FakeElectron } from './fake-electron';
import { until } from '../support/until';

const APP_FRAME = { url: 'app://fieldmap/index.html', parent: null };

let dir: string;
let fixture: string;
let services: MainServices | null;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fieldmap-shell-regions-'));
  fixture = join(dir, 'Kansas fixture.pmtiles');
  await writeFile(fixture, regionArchive());
  services = null;
});

afterEach(async () => {
  await services?.dispose();
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
    async createServices({ dataDir, emit, pickFile, openExternal }) {
      services = await createMainServices({
        dataDir,
        emit,
        openExternal,
        credentialStore: new MemoryCredentialStore(),
        demo: false,
        restore: false,
        fetch: () => Promise.reject(new Error('no network in this test')),
        ...(pickFile ? { pickFile } : {}),
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

function menuItem(template: ShellMenuItem[] | null, label: string): ShellMenuItem | undefined {
  for (const item of template ?? []) {
    if (item.label === label) return item;
    const inner = menuItem(item.submenu ?? null, label);
    if (inner) return inner;
  }
  return undefined;
}

function invoke(fake: FakeElectron, channel: string, request?: unknown) {
  return fake.ipcHandlers.get(channel)!({ senderFrame: APP_FRAME }, request) as Promise<
    IpcResult<unknown>
  >;
}

/** Resolves once the window has been sent `count` basemap:changed events. */
async function changedEvents(fake: FakeElectron, count: number) {
  const sent = () =>
    fake.windows[0]!.webContents.sent.filter((s) => s.channel === 'basemap:changed');
  await until(() => sent().length >= count, `${count} basemap:changed events`);
  return sent().map((s) => s.args[0] as { regions: Array<{ name: string }> });
}

describe('File > Add offline region…', () => {
  it('is in the File menu; it opens the dialog on the app window, filtered to .pmtiles, and adds the pick', async () => {
    const fake = await startWithServices();
    const file = fake.menu.template?.find((m) => m.label === 'File');
    expect(file?.submenu?.[0]?.label).toBe(ADD_REGION_LABEL);
    const item = menuItem(fake.menu.template, ADD_REGION_LABEL)!;

    fake.dialogs.answer = fixture;
    item.click!();
    const [event] = await changedEvents(fake, 1);
    expect(event?.regions.map((r) => r.name)).toEqual(['Kansas fixture']);
    expect(fake.dialogs.opened).toHaveLength(1);
    expect(fake.dialogs.opened[0]!.window).toBe(fake.windows[0]);
    expect(fake.dialogs.opened[0]!.options).toEqual({
      title: 'Add offline region',
      properties: ['openFile'],
      filters: [{ name: 'PMTiles archives', extensions: ['pmtiles'] }],
    });
    expect(services!.basemap.regions.list().map((r) => r.name)).toEqual(['Kansas fixture']);
    expect(fake.dialogs.errors).toEqual([]);
  });

  it('shows why a picked file was refused, and adds nothing when the dialog is cancelled', async () => {
    const fake = await startWithServices();
    const item = menuItem(fake.menu.template, ADD_REGION_LABEL)!;
    const bogus = join(dir, 'bogus.pmtiles');
    await writeFile(bogus, 'not an archive, but long enough to hold a header. '.repeat(5));
    fake.dialogs.answer = bogus;
    item.click!();
    await until(() => fake.dialogs.errors.length > 0, 'an error dialog');
    expect(fake.dialogs.errors).toEqual([
      {
        title: 'Could not add the offline region',
        content: 'That file is not a usable offline region: not a PMTiles archive.',
      },
    ]);

    fake.dialogs.answer = null;
    expect(await invoke(fake, 'regions:pick')).toEqual({ ok: true, value: null });
    expect(fake.dialogs.opened).toHaveLength(2);
    expect(services!.basemap.regions.list()).toEqual([]);
  });

  it('the renderer picks through the same dialog; no channel takes a path from the page', async () => {
    const fake = await startWithServices();
    // Main handles no channel that would add a file the page names.
    expect(fake.ipcHandlers.has('regions:pick')).toBe(true);
    expect(fake.ipcHandlers.has('regions:add')).toBe(false);
    fake.dialogs.answer = fixture;
    const picked = await invoke(fake, 'regions:pick');
    expect(picked.ok && (picked.value as { name: string }).name).toBe('Kansas fixture');
    const settings = await invoke(fake, 'basemap:settings');
    expect(settings.ok && (settings.value as { filePicker: boolean }).filePicker).toBe(true);
  });

  it('macOS gets the app menu first and Close (not Quit) in File', async () => {
    const fake = await startWithServices('darwin');
    expect(fake.menu.template?.[0]).toEqual({ role: 'appMenu' });
    const file = fake.menu.template?.find((m) => m.label === 'File');
    expect(file?.submenu?.at(-1)).toEqual({ role: 'close' });
  });
});
