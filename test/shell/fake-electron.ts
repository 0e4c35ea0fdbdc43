// A fake of the slice of the electron module the shell uses (ShellDeps). It is a fake because
// no Electron binary can be installed or started here (its download host is unreachable), so
// the shell's security settings are asserted on what it asks this stand-in to do. It mimics the
// Electron rules that matter: enableSandbox and registerSchemesAsPrivileged throw after 'ready',
// and creating a BrowserWindow emits app 'web-contents-created'. Support (Help, the renderer
// watch, updates) plays the documented behaviour of webContents' 'render-process-gone',
// 'unresponsive' and 'responsive' events and forcefullyCrashRenderer, dialog.showMessageBox
// (resolves with the pressed button's index), shell.openPath ('' on success) and
// showItemInFolder, app.getVersion, and electron-updater's autoUpdater and its events. Windows
// have bounds: given x/y/width/height, else centred on the primary display's work area (as
// Electron places a window without x and y); `screen` lists the displays' work areas.
// Notification plays Electron's: show() raises it, the rep's click emits 'click', and
// isSupported() is false where the desktop has no notification service.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFakeNet } from './fake-net';
import type {
  CustomSchemePrivileges,
  PreventableEvent,
  ShellAutoUpdater,
  ShellDeps,
  ShellMenuItem,
  ShellMessageBoxOptions,
  ShellOpenDialogOptions,
  ShellSenderFrame,
  WindowOptions,
} from '../../src-main/shell/shell-deps';

type Listener = (...args: never[]) => unknown;

class Emitter {
  readonly listeners = new Map<string, Listener[]>();
  on(event: string, listener: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  once(event: string, listener: Listener): this {
    return this.on(event, listener);
  }
  emit(event: string, ...args: unknown[]): void {
    for (const listener of this.listeners.get(event) ?? [])
      (listener as (...a: unknown[]) => unknown)(...args);
  }
  count(event: string): number {
    return this.listeners.get(event)?.length ?? 0;
  }
}

export class FakeEvent implements PreventableEvent {
  defaultPrevented = false;
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

export class FakeWebContents extends Emitter {
  openHandler: ((details: { url: string }) => { action: 'deny' }) | null = null;
  readonly sent: Array<{ channel: string; args: unknown[] }> = [];
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void {
    this.openHandler = handler;
  }
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  isDestroyed(): boolean {
    return false;
  }
  /** Page reloads asked (webContents.reload) and renderers ended (forcefullyCrashRenderer). */
  reloads = 0;
  ended = 0;
  reload(): void {
    this.reloads += 1;
  }
  forcefullyCrashRenderer(): void {
    this.ended += 1;
    // Electron: the process ends, then 'render-process-gone' comes with reason 'killed'.
    setImmediate(() => this.emit('render-process-gone', {}, { reason: 'killed', exitCode: 9 }));
  }
}

/**
 * electron-updater's autoUpdater as its docs describe it: checkForUpdates emits
 * 'checking-for-update', then 'update-available' (downloading at once when autoDownload is
 * true, its default) or 'update-not-available', or 'error' and rejects; downloadUpdate emits
 * 'update-downloaded'; without a feed, a check fails. `next` is what the feed answers.
 */
export class FakeAutoUpdater extends Emitter implements ShellAutoUpdater {
  autoDownload = true;
  autoInstallOnAppQuit = true;
  logger: unknown = console;
  feeds: Array<{ provider: 'generic'; url: string }> = [];
  next: { version: string } | null | Error = null;
  checks = 0;
  downloads = 0;
  installs = 0;
  constructor(private readonly quitApp: () => void) {
    super();
  }
  setFeedURL(options: { provider: 'generic'; url: string }): void {
    this.feeds.push(options);
  }
  async checkForUpdates(): Promise<unknown> {
    this.checks += 1;
    this.emit('checking-for-update');
    const answer = this.feeds.length === 0 ? new Error('No feed') : this.next;
    if (answer instanceof Error) {
      this.emit('error', answer);
      throw answer;
    }
    if (answer === null) {
      this.emit('update-not-available', { version: '0.1.0' });
      return { isUpdateAvailable: false };
    }
    this.emit('update-available', answer);
    if (this.autoDownload) await this.downloadUpdate();
    return { isUpdateAvailable: true, updateInfo: answer };
  }
  async downloadUpdate(): Promise<unknown> {
    this.downloads += 1;
    const info = this.next;
    if (info instanceof Error || info === null) throw new Error('nothing to download');
    this.emit('download-progress', { percent: 100 });
    this.emit('update-downloaded', info);
    return [];
  }
  quitAndInstall(): void {
    this.installs += 1;
    this.quitApp();
  }
}

/** A message box on screen until the test presses one of its buttons. */
export interface FakeMessageBox {
  window: unknown;
  options: ShellMessageBoxOptions;
  press(button: number): void;
}

export type IpcListener = (
  event: { senderFrame: ShellSenderFrame | null },
  request: unknown,
) => Promise<unknown>;

export function createFakeElectron(
  options: { lock?: boolean; online?: boolean; dataDir?: string; logsDir?: string } = {},
) {
  const calls: string[] = [];
  // Electron's logs folder: beside the fake's data dir, or a temp dir of its own.
  let logs: string | null =
    options.logsDir ?? (options.dataDir ? join(options.dataDir, 'logs') : null);
  const logsDir = () => (logs ??= mkdtempSync(join(tmpdir(), 'fieldmap-fake-logs-')));
  const version = { current: '0.1.0' };
  let ready = false;
  let fireReady: () => void = () => {};
  const readyPromise = new Promise<void>((resolve) => {
    fireReady = () => {
      ready = true;
      calls.push('ready');
      resolve();
    };
  });

  const app = new (class extends Emitter {
    quitCount = 0;
    readonly isPackaged = true;
    /** Schemes this app asked to handle (Electron's setAsDefaultProtocolClient). */
    readonly protocolClients: string[] = [];
    setAsDefaultProtocolClient(protocol: string): boolean {
      this.protocolClients.push(protocol);
      return true;
    }
    enableSandbox(): void {
      if (ready) throw new Error('app.enableSandbox() can only be called before app is ready');
      calls.push('app.enableSandbox');
    }
    requestSingleInstanceLock(): boolean {
      calls.push('app.requestSingleInstanceLock');
      return options.lock ?? true;
    }
    /** Electron's order: 'before-quit', then every window is closed (a test fires 'will-quit'). */
    quit(): void {
      this.quitCount += 1;
      calls.push('app.quit');
      this.emit('before-quit');
      for (const window of windows) if (!window.destroyed) window.close();
    }
    whenReady(): Promise<void> {
      return readyPromise;
    }
    getPath(name: 'userData' | 'logs'): string {
      if (name === 'logs') return logsDir();
      return options.dataDir ?? `/fake/${name}`;
    }
    getVersion(): string {
      return version.current;
    }
  })();

  const screen = {
    /** The displays' work areas (the screen less taskbar or dock), the primary one first. */
    displays: [{ workArea: { x: 0, y: 0, width: 1920, height: 1040 } }] as Array<{
      workArea: { x: number; y: number; width: number; height: number };
    }>,
  };
  const windows: FakeBrowserWindow[] = [];
  class FakeBrowserWindow extends Emitter {
    readonly webContents = new FakeWebContents();
    readonly loaded: string[] = [];
    shown = false;
    focused = 0;
    minimized = false;
    restored = 0;
    maximized = false;
    destroyed = false;
    bounds: { x: number; y: number; width: number; height: number };
    constructor(readonly options: WindowOptions) {
      super();
      const primary = screen.displays[0]!.workArea;
      this.bounds = {
        x: options.x ?? primary.x + Math.round((primary.width - options.width) / 2),
        y: options.y ?? primary.y + Math.round((primary.height - options.height) / 2),
        width: options.width,
        height: options.height,
      };
      windows.push(this);
      calls.push('new BrowserWindow');
      app.emit('web-contents-created', {}, this.webContents);
    }
    loadURL(url: string): Promise<void> {
      this.loaded.push(url);
      return Promise.resolve();
    }
    show(): void {
      this.shown = true;
    }
    hide(): void {
      this.shown = false;
    }
    focus(): void {
      this.focused += 1;
    }
    restore(): void {
      this.restored += 1;
      this.minimized = false;
    }
    isMinimized(): boolean {
      return this.minimized;
    }
    isDestroyed(): boolean {
      return this.destroyed;
    }
    maximize(): void {
      this.maximized = true;
      this.emit('maximize');
    }
    isMaximized(): boolean {
      return this.maximized;
    }
    /** The bounds of the window when not maximised (Electron's getNormalBounds). */
    getNormalBounds() {
      return { ...this.bounds };
    }
    /** The rep drags or resizes the window: Electron emits 'move' and 'resize'. */
    drag(bounds: { x: number; y: number; width: number; height: number }): void {
      this.bounds = { ...bounds };
      this.emit('move');
      this.emit('resize');
    }
    /**
     * The rep closes the window: 'close' with an event; unless a listener prevented it, then
     * 'closed', and it is destroyed (Electron's order).
     */
    close(): void {
      const event = new FakeEvent();
      this.emit('close', event);
      if (event.defaultPrevented) return;
      this.emit('closed');
      this.destroyed = true;
    }
  }

  const privileged: Array<{ scheme: string; privileges: CustomSchemePrivileges }> = [];
  const protocolHandlers = new Map<string, (request: Request) => Promise<Response>>();
  const protocol = {
    registerSchemesAsPrivileged(
      schemes: Array<{ scheme: string; privileges: CustomSchemePrivileges }>,
    ) {
      if (ready)
        throw new Error('registerSchemesAsPrivileged should be called before app is ready');
      calls.push('protocol.registerSchemesAsPrivileged');
      privileged.push(...schemes);
    },
    handle(scheme: string, handler: (request: Request) => Promise<Response>) {
      protocolHandlers.set(scheme, handler);
    },
  };

  const ipcHandlers = new Map<string, IpcListener>();
  const ipcMain = {
    handle(channel: string, listener: IpcListener) {
      if (ipcHandlers.has(channel))
        throw new Error(`Attempted to register a second handler for '${channel}'`);
      ipcHandlers.set(channel, listener);
    },
  };

  const permissions: {
    request?: (wc: unknown, permission: string, callback: (granted: boolean) => void) => void;
    check?: (wc: unknown, permission: string) => boolean;
    device?: () => boolean;
  } = {};
  const fakeNet = createFakeNet();
  const session = {
    defaultSession: {
      ...fakeNet.session,
      setPermissionRequestHandler(handler: NonNullable<typeof permissions.request>) {
        permissions.request = handler;
      },
      setPermissionCheckHandler(handler: NonNullable<typeof permissions.check>) {
        permissions.check = handler;
      },
      setDevicePermissionHandler(handler: () => boolean) {
        permissions.device = handler;
      },
    },
  };

  const opened: string[] = [];
  const powerMonitor = new Emitter();
  const network = { online: options.online ?? true };

  // The native dialogs and the application menu: what was asked, and what the "user" answers.
  const dialogs = {
    opened: [] as Array<{ window: unknown; options: ShellOpenDialogOptions }>,
    errors: [] as Array<{ title: string; content: string }>,
    answer: null as string | null,
    /** Every message box asked, and the button the "user" clicks at once (Electron: its index). */
    boxes: [] as Array<{ window: unknown; options: ShellMessageBoxOptions }>,
    button: null as number | null,
  };
  const menu = { template: null as ShellMenuItem[] | null };
  const boxes: FakeMessageBox[] = [];
  const files = {
    opened: [] as string[],
    shown: [] as string[],
    /** What openPath resolves with: '' (opened) or the desktop's error message. */
    openPathResult: '',
  };
  const autoUpdater = new FakeAutoUpdater(() => app.quit());
  const trays: FakeTray[] = [];
  class FakeTray extends Emitter {
    tooltip = '';
    menu: { template: ShellMenuItem[] } | null = null;
    destroyed = false;
    constructor(readonly iconPath: string) {
      super();
      trays.push(this);
    }
    setToolTip(text: string): void {
      this.tooltip = text;
    }
    setContextMenu(menu: unknown): void {
      this.menu = menu as { template: ShellMenuItem[] };
    }
    destroy(): void {
      this.destroyed = true;
    }
    /** The rep picks an item of the tray's menu by its label. */
    pick(label: string): void {
      const item = this.menu?.template.find((i) => i.label === label);
      if (!item?.click) throw new Error(`no tray menu item ${label}`);
      item.click();
    }
  }
  const notifications = {
    supported: true,
    shown: [] as FakeNotification[],
  };
  class FakeNotification extends Emitter {
    static isSupported(): boolean {
      return notifications.supported;
    }
    constructor(readonly options: { title: string; body: string }) {
      super();
    }
    show(): void {
      notifications.shown.push(this);
    }
    /** The rep clicks it in the OS's notification centre. */
    click(): void {
      this.emit('click');
    }
  }

  const deps: ShellDeps = {
    app,
    BrowserWindow: FakeBrowserWindow,
    protocol,
    ipcMain,
    session,
    shell: {
      openExternal: async (url: string) => {
        opened.push(url);
      },
    },
    powerMonitor,
    screen: { getAllDisplays: () => screen.displays.map((d) => ({ workArea: { ...d.workArea } })) },
    net: { isOnline: () => network.online, fetch: fakeNet.net.fetch },
    platform: 'linux',
    dialog: {
      showOpenDialog: async (window, options) => {
        dialogs.opened.push({ window, options });
        return dialogs.answer === null
          ? { canceled: true, filePaths: [] }
          : { canceled: false, filePaths: [dialogs.answer] };
      },
      showErrorBox: (title, content) => {
        dialogs.errors.push({ title, content });
      },
      // Electron resolves with the clicked button: `dialogs.button` when a test set one, else
      // the box waits until the test presses one (`boxes[i].press`).
      showMessageBox: (window, options) => {
        dialogs.boxes.push({ window, options });
        if (dialogs.button !== null) return Promise.resolve({ response: dialogs.button });
        return new Promise<{ response: number }>((resolve) => {
          boxes.push({ window, options, press: (response) => resolve({ response }) });
        });
      },
    },
    shellFiles: {
      openPath: async (path) => {
        files.opened.push(path);
        return files.openPathResult;
      },
      showItemInFolder: (path) => {
        files.shown.push(path);
      },
    },
    Notification: FakeNotification,
    Tray: FakeTray,
    Menu: {
      buildFromTemplate: (template) => ({ template }),
      setApplicationMenu: (built) => {
        menu.template = (built as { template: ShellMenuItem[] }).template;
      },
    },
  };

  return {
    deps,
    app,
    calls,
    fireReady: () => fireReady(),
    windows,
    privileged,
    protocolHandlers,
    ipcHandlers,
    permissions,
    opened,
    powerMonitor,
    network,
    /** The fake Chromium network (fake-net.ts): its settings and every request it carried. */
    net: fakeNet,
    dialogs,
    menu,
    boxes,
    files,
    autoUpdater,
    version,
    screen,
    notifications,
    trays,
  };
}

export type FakeElectron = ReturnType<typeof createFakeElectron>;
