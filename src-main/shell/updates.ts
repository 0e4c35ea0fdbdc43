// Updates from the feed the administrator sets (FIELDMAP_UPDATE_URL, app/admin-defaults.ts), read
// by electron-updater as a `generic` provider: the folder electron-builder's latest*.yml and
// installers were copied to. Nothing is downloaded without the rep's yes (a rep on a phone's
// data plan decides when 100 MB come down); once they said yes, the update installs when they
// restart now or, if they chose later, when they next quit (electron-updater's
// autoInstallOnAppQuit), so a consented update is not lost. A failed check or download is
// logged, never shown as a crash; the next check is UPDATE_CHECK_MS later.
import type { UpdateFeed } from '../app/admin-defaults';
import type { AppLogPort } from '../core/log/app-log';
import type { WatchTimers } from './renderer-watch';
import type { ShellAutoUpdater, ShellBrowserWindow, ShellDialog } from './shell-deps';

export const UPDATE_CHECK_MS = 6 * 60 * 60 * 1000;

export interface UpdatesOptions {
  updater: ShellAutoUpdater | undefined;
  feed: UpdateFeed;
  dialog: ShellDialog | undefined;
  window(): ShellBrowserWindow | null;
  log: AppLogPort;
  timers: WatchTimers;
}

export interface Updates {
  /** One check now (the shell runs one at start, then every UPDATE_CHECK_MS). */
  check(): Promise<void>;
  stop(): void;
}

const VERSION = /^\d{1,6}\.\d{1,6}\.\d{1,6}(-[0-9A-Za-z.]{1,32})?$/;

/** null when updates are off: no feed set, a feed refused, or no updater (the browser runner). */
export function startUpdates(options: UpdatesOptions): Updates | null {
  const { updater, feed, dialog, log, timers } = options;
  if (!updater) return null;
  if ('problem' in feed) {
    log.record('updates.disabled', { reason: feed.problem });
    return null;
  }
  updater.logger = null;
  updater.autoDownload = false;
  updater.autoInstallOnAppQuit = true;
  updater.setFeedURL({ provider: 'generic', url: feed.url });

  let asking = false;
  let timer: unknown = null;
  let stopped = false;
  const ask = async (message: string, detail: string, yes: string) => {
    if (!dialog || asking) return false;
    asking = true;
    try {
      const { response } = await dialog.showMessageBox(options.window(), {
        type: 'question',
        title: 'Fieldmap update',
        message,
        detail,
        buttons: [yes, 'Later'],
        defaultId: 0,
        cancelId: 1,
        noLink: true,
      });
      return response === 0;
    } finally {
      asking = false;
    }
  };
  // A version from the feed is shown to the rep, so only a plain version number is.
  const versionOf = (info: { version: string }) =>
    VERSION.test(info.version) ? info.version : 'a new version';

  updater.on('checking-for-update', () => log.record('updates.checking', {}));
  updater.on('update-not-available', () => log.record('updates.notAvailable', {}));
  updater.on('error', (error) => {
    const code = (error as { code?: unknown }).code;
    log.record('updates.failed', {
      name: /^[A-Z][A-Za-z0-9]{0,63}$/.test(error.name) ? error.name : 'Error',
      ...(typeof code === 'string' && /^[A-Z][A-Z0-9_]{0,63}$/.test(code) ? { code } : {}),
    });
  });
  updater.on('update-available', (info) => {
    const version = versionOf(info);
    if (version !== 'a new version') log.record('updates.available', { version });
    void (async () => {
      const yes = await ask(
        `Fieldmap ${version} is available`,
        'Download it now? It comes down in the background; you choose when to restart.',
        'Download',
      );
      log.record('updates.answer', { step: 'download', accepted: yes });
      // The promise rejects on failure after the 'error' event already logged it.
      if (yes) await updater.downloadUpdate().catch(() => undefined);
    })();
  });
  updater.on('update-downloaded', (info) => {
    const version = versionOf(info);
    if (version !== 'a new version') log.record('updates.downloaded', { version });
    void (async () => {
      const yes = await ask(
        `Fieldmap ${version} is ready to install`,
        'Restart Fieldmap now to install it? Your changes waiting to be sent are kept and sent after the restart. Otherwise it installs the next time you quit.',
        'Restart now',
      );
      log.record('updates.answer', { step: 'install', accepted: yes });
      if (yes) updater.quitAndInstall();
    })();
  });

  const check = async () => {
    if (stopped) return;
    await updater.checkForUpdates().catch(() => undefined);
  };
  const schedule = () => {
    if (stopped) return;
    timer = timers.setTimeout(() => {
      void check().finally(schedule);
    }, UPDATE_CHECK_MS);
  };
  void check().finally(schedule);
  return {
    check,
    stop: () => {
      stopped = true;
      if (timer !== null) timers.clearTimeout(timer);
    },
  };
}
