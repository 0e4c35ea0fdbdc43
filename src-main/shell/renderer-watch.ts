// A window whose page crashed or hung is given a fresh page; the rep is told why once it has
// loaded (shell:take-notice). Only the page is restarted: the outbox, the sync engine and every
// other service live in main and are not touched. A page that crashes again and again is not
// reloaded in a loop: after CRASH_LIMIT crashes within CRASH_WINDOW_MS the rep is asked.
import type { ShellNotice } from '../../src-shared/support';
import type { AppLogPort } from '../core/log/app-log';
import { APP_ENTRY_URL } from './app-protocol';
import type { ShellBrowserWindow, ShellDialog } from './shell-deps';

export const CRASH_LIMIT = 3;
export const CRASH_WINDOW_MS = 60_000;
/** How long a page may stay unresponsive before the rep is offered a restart. */
export const UNRESPONSIVE_GRACE_MS = 10_000;

/** Time for the watch: a clock and one-shot timers (injected, so tests need no waiting). */
export interface WatchTimers {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realWatchTimers: WatchTimers = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface RendererWatchOptions {
  log: AppLogPort;
  dialog: ShellDialog | undefined;
  timers: WatchTimers;
  /** What the next page is told (it asks once it has loaded). */
  notify(notice: ShellNotice): void;
  quit(): void;
  /** Free-text diagnostics for the console (never the log file). */
  say(message: string): void;
}

export function watchRenderer(window: ShellBrowserWindow, options: RendererWatchOptions): void {
  const { log, dialog, timers } = options;
  const contents = window.webContents;
  let crashes: number[] = [];
  /** The shell ended a hung page itself: its 'render-process-gone' is no crash. */
  let ending = false;
  let hung = false;
  let grace: unknown = null;
  let asking = false;

  const load = () =>
    window.loadURL(APP_ENTRY_URL).catch((error: unknown) => {
      options.say(`[shell] could not reload the app: ${error instanceof Error ? error.name : ''}`);
    });
  const stopGrace = () => {
    if (grace !== null) timers.clearTimeout(grace);
    grace = null;
  };
  const startGrace = () => {
    stopGrace();
    grace = timers.setTimeout(() => {
      grace = null;
      void offerRestart();
    }, UNRESPONSIVE_GRACE_MS);
  };

  const restartHung = () => {
    hung = false;
    ending = true;
    options.notify({ kind: 'unresponsive', at: timers.now() });
    log.record('renderer.reloaded', { after: 'unresponsive' });
    // Electron's documented way out of 'unresponsive': end the process, reload in a new one.
    contents.forcefullyCrashRenderer();
    contents.reload();
  };

  const offerRestart = async () => {
    if (!hung || asking || window.isDestroyed()) return;
    if (!dialog) return restartHung();
    asking = true;
    const { response } = await dialog
      .showMessageBox(window, {
        type: 'warning',
        title: 'Fieldmap',
        message: 'Fieldmap’s window is not responding',
        detail:
          'Restart the window? Your changes waiting to be sent are safe on this laptop; a form you were filling in may be lost.',
        buttons: ['Restart the window', 'Keep waiting'],
        defaultId: 0,
        cancelId: 1,
        noLink: true,
      })
      .finally(() => {
        asking = false;
      });
    // It may have recovered (or closed) while the box was open.
    if (!hung || window.isDestroyed()) return;
    if (response === 0) restartHung();
    else startGrace();
  };

  const askAfterCrashes = async (count: number) => {
    if (!dialog) return;
    const { response } = await dialog.showMessageBox(window, {
      type: 'error',
      title: 'Fieldmap',
      message: 'Fieldmap’s window keeps stopping',
      detail: `It stopped ${count} times in a minute. Your changes waiting to be sent are safe on this laptop. Try again, or quit and send your administrator the log (Help > Show logs).`,
      buttons: ['Try again', 'Quit'],
      defaultId: 0,
      cancelId: 1,
      noLink: true,
    });
    if (window.isDestroyed()) return;
    if (response !== 0) return options.quit();
    crashes = [];
    options.notify({ kind: 'crashed', at: timers.now() });
    log.record('renderer.reloaded', { after: 'crashed' });
    void load();
  };

  contents.on('render-process-gone', (_event, details) => {
    stopGrace();
    hung = false;
    log.record('renderer.gone', {
      reason: details.reason as never,
      exitCode: details.exitCode,
    });
    if (ending) {
      ending = false;
      return;
    }
    if (window.isDestroyed()) return;
    const now = timers.now();
    crashes = [...crashes.filter((at) => now - at < CRASH_WINDOW_MS), now];
    if (crashes.length >= CRASH_LIMIT) {
      log.record('renderer.crashLoop', { crashes: crashes.length });
      void askAfterCrashes(crashes.length);
      return;
    }
    options.notify({ kind: 'crashed', at: now });
    log.record('renderer.reloaded', { after: 'crashed' });
    void load();
  });
  contents.on('unresponsive', () => {
    if (hung) return;
    hung = true;
    log.record('renderer.unresponsive', {});
    startGrace();
  });
  contents.on('responsive', () => {
    if (!hung) return;
    hung = false;
    stopGrace();
    log.record('renderer.responsive', {});
  });
}
