// Composes the Electron shell: process-wide security switches, the app:// protocol, the IPC
// router, the window, and the connectivity signals the sync engine listens to. Every Electron
// API arrives through ShellDeps, so tests drive this with a fake electron module.
import { join, resolve } from 'node:path';
import { APP_LINK_SCHEME } from '../../src-shared/customer-link';
import { adminUpdateFeedOf } from '../app/admin-defaults';
import { shellNotifier } from './notifications';
import { createTray, type AppTray } from './tray';
import type { ShowNotification } from '../core/reminders/reminder-schedule';
import type { ConfirmLocalAddress, PickFile } from '../app/basemap-handlers';
import type { AccountAbout } from '../app/support';
import { AppLog } from '../core/log/app-log';
import type { EmitEvent } from '../core/ports';
import type { ShellNotice } from '../../src-shared/support';
import { Road, roadEmitter } from '../../src-shared/data-road';
import { attachDataChannel, type DataChannel } from './data-channel';
import { APP_ORIGIN, createIpcRouter, topFrameOfOrigins, type IpcHandlers } from '../ipc/handle';
import {
  APP_SCHEME,
  APP_SCHEME_PRIVILEGES,
  createAppProtocolHandler,
  type AppRequestHandler,
} from './app-protocol';
import { applicationMenuTemplate } from './app-menu';
import { buildContentSecurityPolicy, type CspOptions } from './csp';
import { registerIpcHandlers } from './ipc-wiring';
import type { ShellApp, ShellBrowserWindow, ShellDeps, ShellDialog } from './shell-deps';
import { shellFetch } from './network';
import { hardenWebContents } from './web-contents-guard';
import { createMainWindow } from './window';
import { keepWindowPlace, readWindowPlace, type WindowPlace } from './window-place';
import { nodeDurableFs, type DurableFs } from '../core/durable-fs';
import { showAbout, showLogs, type HelpContext } from './help';
import { realWatchTimers, watchRenderer, type WatchTimers } from './renderer-watch';
import { startUpdates, type Updates } from './updates';

export type { EmitEvent };

/** What the main-process services give the shell (built by src-main/app's createMainServices). */
export interface MainServices {
  handlers: IpcHandlers;
  onOnline(): void;
  onResume(): void;
  dispose(): Promise<void> | void;
  /** Dynamic app:// paths (the basemap's regions and tile cache); null falls through to files. */
  handleAppRequest?: AppRequestHandler;
  /** The signed-in account and its queued changes, for Help > About. */
  about?(): AccountAbout;
  /** A fieldmap:// link the OS handed the app; false when it names no customer. */
  openLink?(url: string): boolean;
}

export interface PollTimers {
  setInterval(callback: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

const realTimers: PollTimers = {
  setInterval: (callback, ms) => setInterval(callback, ms),
  clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
};

export interface ShellOptions {
  /** out/renderer: what app://fieldmap/ serves. */
  rendererDir: string;
  /** out/preload/index.cjs. */
  preloadPath: string;
  createServices(context: {
    dataDir: string;
    emit: EmitEvent;
    /** Electron's open-file dialog on the app window (when the deps have a dialog). */
    pickFile?: PickFile;
    /** Electron's message box on the app window, asking before a local address is used. */
    confirmLocalAddress?: ConfirmLocalAddress;
    /** Electron's shell.openExternal; app/open-external.ts checks the URL and the click first. */
    openExternal: (url: string) => Promise<void>;
    /** Main's log file, in Electron's logs folder. */
    log: AppLog;
    /** Chromium's network (shell/network.ts): every request main's services make. */
    fetch: typeof globalThis.fetch;
    /** Electron's Notification (when the deps have one): reminders. */
    notify?: ShowNotification;
  }): Promise<MainServices> | MainServices;
  csp?: CspOptions;
  /** How often to ask net.isOnline(); Electron has no online event in main. */
  onlinePollMs?: number;
  timers?: PollTimers;
  log?: (message: string) => void;
  /** The clock and one-shot timers of the renderer watch and the update checks. */
  watchTimers?: WatchTimers;
  /** Where the administrator's settings are read (the update feed); default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The files the shell itself keeps (the window's place); default this platform's. */
  fs?: DurableFs;
  /** The command line (a fieldmap:// link that started the app); default process.argv. */
  argv?: readonly string[];
}

export interface ShellHandle {
  /** Settles when the window is created (or start-up failed). */
  ready: Promise<void>;
  window(): ShellBrowserWindow | null;
  /** One connectivity check, as the poll timer runs it. */
  checkOnline(): void;
  /** Main's log (once ready). */
  appLog(): AppLog | null;
}

/** Returns null when another instance owns the lock (this one quits and focuses that one). */
export function startShell(deps: ShellDeps, options: ShellOptions): ShellHandle | null {
  const { app } = deps;
  const log = options.log ?? ((message: string) => console.warn(message));
  const timers = options.timers ?? realTimers;
  const watchTimers = options.watchTimers ?? realWatchTimers;

  // Sandbox every renderer, before any is created (must precede 'ready').
  app.enableSandbox();
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  deps.protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: APP_SCHEME_PRIVILEGES },
  ]);
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, log));

  let window: ShellBrowserWindow | null = null;
  let data: DataChannel | null = null;
  // One road for the app's life (its ids keep growing across windows and page loads).
  const road = new Road({
    direct: () => data?.direct() ?? null,
    viaPage: (message) => send('data:road', message),
    later: (fn, ms) => {
      const timer = setTimeout(fn, ms);
      return () => clearTimeout(timer);
    },
  });
  let services: MainServices | null = null;
  let wasOnline = true;
  let poll: unknown = null;
  let appLog: AppLog | null = null;
  let updates: Updates | null = null;
  /** Why the window's page was reloaded, until the new page asks (shell:take-notice). */
  let notice: ShellNotice | null = null;

  const focusWindow = () => {
    if (!window || window.isDestroyed()) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  };
  let place: WindowPlace | null = null;
  let tray: AppTray | null = null;
  let quitting = false;
  /** Reminders go through it once main's services exist (the tray's first-close notice too). */
  let notify: ShowNotification | null = null;
  const bringForward = () => {
    if (window && !window.isDestroyed()) {
      window.show();
      focusWindow();
    } else openWindow();
  };
  const openWindow = () => {
    window = createMainWindow(deps.BrowserWindow, options.preloadPath, log, place);
    const opened = window;
    opened.on('close', (event) => {
      if (!tray || quitting) return;
      // Hidden to the tray: main's schedule keeps reminding with the window closed.
      event.preventDefault();
      opened.hide();
      if (tray.hidden()) {
        notify?.(
          {
            accountKey: '',
            customerId: null,
            title: 'Fieldmap is still running',
            body: 'Your reminders still come. Quit from the Fieldmap icon in the notification area.',
          },
          bringForward,
        );
      }
    });
    keepWindowPlace(window, {
      fs: options.fs ?? nodeDurableFs,
      dataDir: app.getPath('userData'),
      timers: watchTimers,
      log,
      kept: (kept) => (place = kept),
    });
    data = attachDataChannel(window.webContents, deps.dataPorts, road);
    if (appLog) {
      watchRenderer(window, {
        log: appLog,
        dialog: deps.dialog,
        timers: watchTimers,
        notify: (next) => {
          notice = next;
        },
        quit: () => app.quit(),
        say: log,
      });
    }
    window.on('closed', () => {
      window = null;
      data = null;
    });
  };
  const send = (event: string, payload: unknown) => {
    if (window && !window.isDestroyed() && !window.webContents.isDestroyed()) {
      window.webContents.send(event, payload);
    }
  };
  // Main's data and state go on one road to the cache worker (src-shared/data-road.ts): over the
  // data channel once the worker listens, else over IPC as 'data:road'.
  const emit: EmitEvent = roadEmitter(send, () => [road]);
  const checkOnline = () => {
    const online = deps.net.isOnline();
    if (online && !wasOnline) services?.onOnline();
    wasOnline = online;
  };

  // fieldmap:// links (a calendar event's): Windows and Linux start a second instance with the
  // link in its argv, which hands it here and quits; macOS sends 'open-url', also before ready.
  // Links that come before main's services and the first window wait for them.
  const waitingLinks: string[] = [];
  /** Set once the first window is open: links before it wait for it. */
  let linksOpen = false;
  const openLink = (url: string) => {
    if (!services || !linksOpen) {
      waitingLinks.push(url);
      return;
    }
    if (services.openLink?.(url)) bringForward();
    else log('[shell] ignored a link that names no customer');
  };
  const linkIn = (argv: readonly string[] | undefined) =>
    (argv ?? []).find((arg) => arg.toLowerCase().startsWith(`${APP_LINK_SCHEME}://`));
  app.on('second-instance', (_event, argv) => {
    const link = linkIn(argv);
    if (link) openLink(link);
    else focusWindow();
  });
  app.on('open-url', (event, url) => {
    event.preventDefault();
    openLink(url);
  });

  const ready = (async () => {
    await app.whenReady();
    const mainLog = new AppLog({ dir: app.getPath('logs'), clock: watchTimers });
    appLog = mainLog;
    mainLog.record('app.started', { version: app.getVersion() });
    const session = deps.session.defaultSession;
    // The app needs no camera, location, notifications, USB...: every request and check is no.
    session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
    session.setPermissionCheckHandler(() => false);
    session.setDevicePermissionHandler(() => false);

    const csp = buildContentSecurityPolicy(options.csp);
    deps.protocol.handle(
      APP_SCHEME,
      createAppProtocolHandler({
        rootDir: options.rendererDir,
        contentSecurityPolicy: csp,
        dynamic: async (url, range) => (await services?.handleAppRequest?.(url, range)) ?? null,
        log,
      }),
    );

    if (deps.Notification) notify = shellNotifier(deps.Notification, bringForward, log);
    if (deps.Tray && deps.Menu && (deps.platform ?? process.platform) !== 'darwin') {
      tray = createTray({
        Tray: deps.Tray,
        Menu: deps.Menu,
        iconPath: join(options.rendererDir, 'tray.png'),
        open: bringForward,
        quit: () => app.quit(),
      });
    }
    const dialog = deps.dialog;
    const pickFile: PickFile | undefined = dialog
      ? async ({ title, filters }) => {
          if (!window || window.isDestroyed()) return null;
          const picked = await dialog.showOpenDialog(window, {
            title,
            properties: ['openFile'],
            filters,
          });
          return picked.canceled ? null : (picked.filePaths[0] ?? null);
        }
      : undefined;
    const confirmLocalAddress: ConfirmLocalAddress | undefined = dialog
      ? async (request) => {
          if (!window || window.isDestroyed()) return false;
          const { response } = await dialog.showMessageBox(window, localAddressQuestion(request));
          return response === 0;
        }
      : undefined;
    services = await options.createServices({
      dataDir: app.getPath('userData'),
      emit,
      ...(pickFile ? { pickFile } : {}),
      ...(confirmLocalAddress ? { confirmLocalAddress } : {}),
      // The handler (app/open-external.ts) opens only https URLs without credentials, on a click.
      openExternal: (url) => deps.shell.openExternal(url) /* eng-disable OPEN_EXTERNAL_JS_CHECK */,
      log: mainLog,
      fetch: shellFetch(deps),
      ...(deps.Notification
        ? {
            notify: shellNotifier(
              deps.Notification,
              () =>
                window && !window.isDestroyed() ? (window.show(), focusWindow()) : openWindow(),
              log,
            ),
          }
        : {}),
    });
    registerLinkScheme(app, deps.platform ?? process.platform, log);
    const handlers: IpcHandlers = {
      ...services.handlers,
      'shell:take-notice': async () => {
        const told = notice;
        notice = null;
        return told;
      },
    };
    registerIpcHandlers(
      deps.ipcMain,
      createIpcRouter(handlers, { isTrustedSender: topFrameOfOrigins([APP_ORIGIN]), log }),
    );

    if (deps.Menu) {
      const addRegion = () => void addRegionFromMenu(handlers, dialog, log);
      const about = services.about?.bind(services);
      const help: HelpContext = {
        version: app.getVersion(),
        dataDir: app.getPath('userData'),
        logsDir: mainLog.dir,
        logFile: mainLog.paths()[0]!,
        about,
        flushLog: () => mainLog.flush(),
      };
      const openLogs = () => showLogs(deps.shellFiles, help, log);
      const template = applicationMenuTemplate(deps.platform ?? process.platform, {
        addRegion,
        showLogs: () => void openLogs(),
        about: () => void showAbout(dialog, window, help, openLogs),
      });
      deps.Menu.setApplicationMenu(deps.Menu.buildFromTemplate(template));
    }

    deps.powerMonitor.on('resume', () => services?.onResume());
    wasOnline = deps.net.isOnline();
    poll = timers.setInterval(checkOnline, options.onlinePollMs ?? 5_000);

    app.on('activate', () => {
      if (!window) openWindow();
    });
    app.on('window-all-closed', () => {
      // macOS apps stay alive without windows until Cmd+Q.
      if ((deps.platform ?? process.platform) !== 'darwin') app.quit();
    });
    let disposed = false;
    // A quit from the menu, the tray or the OS closes the window for real.
    app.on('before-quit', () => {
      quitting = true;
    });
    app.on('will-quit', (event) => {
      if (poll !== null) timers.clearInterval(poll);
      tray?.destroy();
      tray = null;
      updates?.stop();
      if (disposed || !services) return;
      // Hold the quit until the services have closed their files, then quit for real.
      event.preventDefault();
      disposed = true;
      void Promise.resolve(services.dispose())
        .catch((error: unknown) => log(`[shell] dispose failed: ${String(error)}`))
        .finally(() => app.quit());
    });
    place = await readWindowPlace(
      options.fs ?? nodeDurableFs,
      app.getPath('userData'),
      deps.screen,
    );
    openWindow();
    // Links that started the app, or came before its services: now that there is a window.
    linksOpen = true;
    const started = [...waitingLinks, linkIn(options.argv ?? process.argv) ?? []].flat();
    waitingLinks.length = 0;
    for (const link of started) openLink(link);
    updates = startUpdates({
      updater: deps.autoUpdater,
      feed: adminUpdateFeedOf(options.env ?? process.env),
      dialog,
      window: () => window,
      log: mainLog,
      timers: watchTimers,
    });
  })();
  ready.catch((error: unknown) => {
    log(
      `[shell] start-up failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    app.quit();
  });

  return { ready, window: () => window, checkOnline, appLog: () => appLog };
}

/** The question of main's message box; button 0 allows, 1 (the default and Escape) refuses. */
export function localAddressQuestion(request: { url: string; what: string }) {
  return {
    type: 'question' as const,
    title: 'Allow a local address?',
    message: `Allow Fieldmap to use ${new URL(request.url).origin} as the ${request.what}?`,
    detail:
      'This address is on this computer or your local network. Allow it only if you typed it yourself and trust the server there.',
    buttons: ['Allow', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
    noLink: true,
  };
}

/** File > Add offline region…: the same pick as the renderer's, with failures shown in a box. */
async function addRegionFromMenu(
  handlers: IpcHandlers,
  dialog: ShellDialog | undefined,
  log: (message: string) => void,
): Promise<void> {
  try {
    await handlers['regions:pick'](undefined);
  } catch (error) {
    const info =
      typeof error === 'object' && error !== null && 'info' in error
        ? (error.info as { message?: unknown })
        : null;
    const message =
      typeof info?.message === 'string' ? info.message : 'Something went wrong inside Fieldmap.';
    log(`[shell] add offline region failed: ${message}`);
    dialog?.showErrorBox('Could not add the offline region', message);
  }
}

/**
 * Makes this app the OS's handler of fieldmap:// links. The installer declares the scheme too
 * (electron-builder.yml protocols); an unpackaged run names the script to start, as Electron's
 * docs ask on Windows.
 */
function registerLinkScheme(app: ShellApp, platform: string, log: (line: string) => void): void {
  // Reviewed: a link only ever opens one customer by an id customer-link.ts reads strictly.
  const script = resolve(process.argv[1] ?? '.');
  let registered: boolean;
  if (app.isPackaged)
    registered = app.setAsDefaultProtocolClient(APP_LINK_SCHEME); // eng-disable PROTOCOL_HANDLER_JS_CHECK
  else registered = app.setAsDefaultProtocolClient(APP_LINK_SCHEME, process.execPath, [script]); // eng-disable PROTOCOL_HANDLER_JS_CHECK
  if (!registered) log(`[shell] fieldmap:// links are not registered on ${platform}`);
}
