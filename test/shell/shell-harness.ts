// Starting the Electron shell on the fake electron module (fake-electron.ts: no Electron binary
// can be installed or started here) with stand-in services, and calling its IPC as the page would.
import type { IpcResult } from '../../src-shared/ipc-contract';
import { createOpenExternalHandler } from '../../src-main/app/open-external';
import { startShell, type MainServices, type ShellHandle } from '../../src-main/shell/start-shell';
import type { ShellDataPorts } from '../../src-main/shell/shell-deps';
import { createFakeElectron, type FakeElectron } from './fake-electron';
import { handlerTable } from './handler-table';

export const APP_FRAME = { url: 'app://fieldmap/index.html', parent: null };

export interface Started {
  fake: FakeElectron;
  handle: ShellHandle;
  services: MainServices & {
    online: number;
    resumed: number;
    disposed: number;
    emit?: (e: never, p: never) => void;
  };
  log: string[];
  poll: { callback: (() => void) | null; ms: number | null; cleared: boolean };
}

/** Starts the shell on the fake electron module, serving `rendererDir`, and fires ready. */
export async function startWithFake(
  rendererDir: string,
  options: { lock?: boolean; online?: boolean; platform?: string; dataPorts?: ShellDataPorts } = {},
): Promise<Started> {
  const fake = createFakeElectron(options);
  if (options.platform) fake.deps.platform = options.platform;
  if (options.dataPorts) fake.deps.dataPorts = options.dataPorts;
  const log: string[] = [];
  const poll: Started['poll'] = { callback: null, ms: null, cleared: false };
  const services: Started['services'] = {
    handlers: handlerTable({ 'accounts:list': async () => [] }),
    online: 0,
    resumed: 0,
    disposed: 0,
    onOnline() {
      this.online += 1;
    },
    onResume() {
      this.resumed += 1;
    },
    dispose() {
      this.disposed += 1;
    },
  };
  const handle = startShell(fake.deps, {
    rendererDir,
    preloadPath: '/app/out/preload/index.cjs',
    createServices: ({ emit, openExternal }) => {
      services.emit = emit as never;
      // The real handler (app/open-external.ts) over the shell's opener, as createMainServices does.
      services.handlers['shell:open-external'] = createOpenExternalHandler(openExternal);
      return services;
    },
    log: (message) => log.push(message),
    timers: {
      setInterval: (callback, ms) => {
        poll.callback = callback;
        poll.ms = ms;
        return 'poll-timer';
      },
      clearInterval: () => {
        poll.cleared = true;
      },
    },
  });
  if (!handle) return { fake, handle: null as unknown as ShellHandle, services, log, poll };
  fake.fireReady();
  await handle.ready;
  return { fake, handle, services, log, poll };
}

/** Calls an IPC channel as the page would, from `frame` (default: the app's main frame). */
export function invoke(
  fake: FakeElectron,
  channel: string,
  request: unknown,
  frame: { url: string; parent: unknown } | null = APP_FRAME,
) {
  const listener = fake.ipcHandlers.get(channel);
  if (!listener) throw new Error(`no ipc handler for ${channel}`);
  return listener({ senderFrame: frame }, request) as Promise<IpcResult<unknown>>;
}
