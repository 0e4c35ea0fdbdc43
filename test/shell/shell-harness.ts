// Starting the Electron shell on the fake electron module (fake-electron.ts: no Electron binary
// can be installed or started here) with stand-in services, and calling its IPC as the page would.
import type { ShowNotification } from '../../src-main/core/reminders/reminder-schedule';
import { join } from 'node:path';
import type { IpcResult } from '../../src-shared/ipc-contract';
import { customerOfLink } from '../../src-shared/customer-link';
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
    /** Every link the shell handed main's services, in order. */
    links: string[];
    emit?: (e: never, p: never) => void;
    /** The OS notifications the shell handed main's services (reminders). */
    notify?: ShowNotification;
  };
  log: string[];
  poll: { callback: (() => void) | null; ms: number | null; cleared: boolean };
  /** The renderer watch's and the update checks' clock and timers, moved by the test. */
  clock: FakeClock;
}

/** A clock and one-shot timers that move only when the test says. */
export class FakeClock {
  now = Date.UTC(2026, 10, 2, 9);
  readonly timers: Array<{ at: number; callback: () => void; ms: number; cleared: boolean }> = [];
  readonly api = {
    now: () => this.now,
    setTimeout: (callback: () => void, ms: number) => {
      const timer = { at: this.now + ms, callback, ms, cleared: false };
      this.timers.push(timer);
      return timer;
    },
    clearTimeout: (handle: unknown) => {
      (handle as { cleared: boolean }).cleared = true;
    },
  };
  /** Timers still waiting. */
  pending() {
    return this.timers.filter((t) => !t.cleared);
  }
  /** Moves the clock by `ms`, running every timer that falls due, in order. */
  advance(ms: number): void {
    const until = this.now + ms;
    for (;;) {
      const due = this.pending()
        .filter((t) => t.at <= until)
        .sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      due.cleared = true;
      this.now = due.at;
      due.callback();
    }
    this.now = until;
  }
}

/** Starts the shell on the fake electron module, serving `rendererDir`, and fires ready. */
export async function startWithFake(
  rendererDir: string,
  options: {
    lock?: boolean;
    online?: boolean;
    platform?: string;
    dataPorts?: ShellDataPorts;
    env?: Record<string, string | undefined>;
    /** Electron's userData folder (default: a path that does not exist). */
    dataDir?: string;
    /** The app's command line (a link that started it). */
    argv?: string[];
    /** Before ready: e.g. give the deps the fake autoUpdater. */
    prepare?: (fake: FakeElectron) => void;
  } = {},
): Promise<Started> {
  const fake = createFakeElectron({ logsDir: join(rendererDir, 'logs'), ...options });
  options.prepare?.(fake);
  const clock = new FakeClock();
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
    links: [],
    // As main's services: a customer link opens, anything else is refused.
    openLink(url: string) {
      this.links.push(url);
      return customerOfLink(url) !== null;
    },
  };
  const handle = startShell(fake.deps, {
    rendererDir,
    preloadPath: '/app/out/preload/index.cjs',
    argv: options.argv ?? ['/opt/Fieldmap/fieldmap'],
    createServices: ({ emit, openExternal, notify }) => {
      services.emit = emit as never;
      if (notify) services.notify = notify;
      // The real handler (app/open-external.ts) over the shell's opener, as createMainServices does.
      services.handlers['shell:open-external'] = createOpenExternalHandler(openExternal);
      return services;
    },
    log: (message) => log.push(message),
    watchTimers: clock.api,
    env: options.env ?? {},
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
  if (!handle) return { fake, handle: null as unknown as ShellHandle, services, log, poll, clock };
  fake.fireReady();
  await handle.ready;
  // The log's first line is written by now, so a test's clean-up does not race its write.
  await handle.appLog()?.flush();
  return { fake, handle, services, log, poll, clock };
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
