// The slice of the electron module the shell uses, as structural types. main.ts passes the real
// module; unit tests pass a fake, because no Electron binary can be installed or started here.
// Keeping the slice small also documents every Electron API the app touches.
import type { PlacedWindow, ShellScreen } from './window-place';

/** An Electron event a listener may cancel. */
export interface PreventableEvent {
  preventDefault(): void;
}

export interface ShellWebContents {
  on(
    event: 'will-navigate' | 'will-redirect',
    listener: (event: PreventableEvent, url: string) => void,
  ): unknown;
  on(event: 'will-attach-webview', listener: (event: PreventableEvent) => void): unknown;
  on(event: 'did-start-loading' | 'did-finish-load', listener: () => void): unknown;
  on(event: 'unresponsive' | 'responsive', listener: () => void): unknown;
  on(
    event: 'render-process-gone',
    listener: (event: unknown, details: RenderProcessGoneDetails) => void,
  ): unknown;
  /** Reloads the page; right after forcefullyCrashRenderer, in a new process. */
  reload(): void;
  /** Ends a hung renderer (emits 'render-process-gone' with reason 'killed'). */
  forcefullyCrashRenderer(): void;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
}

/** Electron's RenderProcessGoneDetails. */
export interface RenderProcessGoneDetails {
  reason: string;
  exitCode: number;
}

/** Electron's MessagePortMain, the parts the data channel uses. */
export interface ShellMessagePortMain {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
  start(): void;
  close(): void;
}

export type ShellMessageChannelMain = new () => {
  port1: ShellMessagePortMain;
  port2: ShellMessagePortMain;
};

/** Electron's MessageChannelMain, and webContents.postMessage with one transferred port. */
export interface ShellDataPorts {
  MessageChannelMain: ShellMessageChannelMain;
  postPort(contents: ShellWebContents, channel: string, port: ShellMessagePortMain): void;
}

export interface WindowWebPreferences {
  preload: string;
  contextIsolation: boolean;
  sandbox: boolean;
  nodeIntegration: boolean;
  nodeIntegrationInWorker: boolean;
  nodeIntegrationInSubFrames: boolean;
  webSecurity: boolean;
  allowRunningInsecureContent: boolean;
  webviewTag: boolean;
  spellcheck: boolean;
  experimentalFeatures: boolean;
  navigateOnDragDrop: boolean;
  safeDialogs: boolean;
  disableBlinkFeatures: string;
}

export interface WindowOptions {
  width: number;
  height: number;
  /** Where the rep left the window (window-place.ts); absent: centred. */
  x?: number;
  y?: number;
  minWidth: number;
  minHeight: number;
  show: boolean;
  title: string;
  backgroundColor: string;
  webPreferences: WindowWebPreferences;
}

export interface ShellBrowserWindow extends PlacedWindow {
  readonly webContents: ShellWebContents;
  loadURL(url: string): Promise<void>;
  once(event: 'ready-to-show', listener: () => void): unknown;
  on(event: 'closed', listener: () => void): unknown;
  on(event: 'resize' | 'move' | 'maximize' | 'unmaximize', listener: () => void): unknown;
  /** Electron passes an event whose preventDefault() keeps the window open. */
  on(event: 'close', listener: (event: PreventableEvent) => void): unknown;
  maximize(): void;
  show(): void;
  hide(): void;
  focus(): void;
  restore(): void;
  isMinimized(): boolean;
  isDestroyed(): boolean;
}

export interface ShellApp {
  enableSandbox(): void;
  requestSingleInstanceLock(): boolean;
  quit(): void;
  whenReady(): Promise<unknown>;
  getPath(name: 'userData' | 'logs'): string;
  getVersion(): string;
  on(event: 'window-all-closed' | 'activate' | 'before-quit', listener: () => void): unknown;
  /** A second start of the app: its command line (a fieldmap:// link on Windows and Linux). */
  on(event: 'second-instance', listener: (event: unknown, argv: string[]) => void): unknown;
  /** macOS: a fieldmap:// link opened (preventDefault says the app handles it). */
  on(event: 'open-url', listener: (event: PreventableEvent, url: string) => void): unknown;
  /** True when running from an installed package. */
  readonly isPackaged: boolean;
  setAsDefaultProtocolClient(protocol: string, path?: string, args?: string[]): boolean;
  on(event: 'will-quit', listener: (event: PreventableEvent) => void): unknown;
  on(
    event: 'web-contents-created',
    listener: (event: unknown, contents: ShellWebContents) => void,
  ): unknown;
}

export interface CustomSchemePrivileges {
  standard: boolean;
  secure: boolean;
  supportFetchAPI: boolean;
  stream: boolean;
}

export interface ShellProtocol {
  registerSchemesAsPrivileged(
    schemes: Array<{ scheme: string; privileges: CustomSchemePrivileges }>,
  ): void;
  handle(scheme: string, handler: (request: Request) => Promise<Response>): void;
}

/** What Electron tells about the frame that sent an invoke. */
export interface ShellSenderFrame {
  readonly url: string;
  readonly parent: unknown;
}

export interface ShellIpcMain {
  handle(
    channel: string,
    listener: (
      event: { senderFrame: ShellSenderFrame | null },
      request: unknown,
    ) => Promise<unknown>,
  ): void;
}

export interface ShellSession {
  setPermissionRequestHandler(
    handler: (
      webContents: unknown,
      permission: string,
      callback: (granted: boolean) => void,
    ) => void,
  ): void;
  setPermissionCheckHandler(handler: (webContents: unknown, permission: string) => boolean): void;
  setDevicePermissionHandler(handler: () => boolean): void;
  /** Chromium's answer for a URL: "PROXY host:port; DIRECT", "DIRECT"… */
  resolveProxy(url: string): Promise<string>;
  setCertificateVerifyProc(proc: ShellCertificateVerifyProc): void;
}

/** Electron's certificate verifier: sees every verification; callback(-3) keeps Chromium's result. */
export type ShellCertificateVerifyProc = (
  request: {
    hostname: string;
    certificate: { issuerName: string };
    /** 'OK' when trusted, else Chromium's reason ('CERT_AUTHORITY_INVALID'…). */
    verificationResult: string;
  },
  callback: (verificationResult: number) => void,
) => void;

export interface ShellDeps extends ShellDialogDeps {
  app: ShellApp;
  BrowserWindow: new (options: WindowOptions) => ShellBrowserWindow;
  protocol: ShellProtocol;
  ipcMain: ShellIpcMain;
  session: { defaultSession: ShellSession };
  shell: { openExternal(url: string): Promise<void> };
  powerMonitor: { on(event: 'resume', listener: () => void): unknown };
  /** The displays, to open the window where the rep left it only if one still shows it. */
  screen: ShellScreen;
  /** Chromium's network: every main-process request goes through net.fetch (shell/network.ts). */
  net: {
    isOnline(): boolean;
    fetch(input: string | Request, init?: RequestInit): Promise<Response>;
  };
  /** process.platform, injectable so the macOS window lifecycle is testable anywhere. */
  platform?: string;
}

/** A native "open file" dialog's request (Electron's OpenDialogOptions, the parts used). */
export interface ShellOpenDialogOptions {
  title: string;
  properties: Array<'openFile'>;
  filters: Array<{ name: string; extensions: string[] }>;
}

export interface ShellDialog {
  showOpenDialog(
    window: ShellBrowserWindow,
    options: ShellOpenDialogOptions,
  ): Promise<{ canceled: boolean; filePaths: string[] }>;
  showErrorBox(title: string, content: string): void;
  /**
   * Resolves with the index of the button the user pressed (Electron's showMessageBox; cancelId
   * when the box is closed).
   */
  showMessageBox(
    window: ShellBrowserWindow | null,
    options: ShellMessageBoxOptions,
  ): Promise<{ response: number }>;
}

/** Electron's MessageBoxOptions, the parts used. */
export interface ShellMessageBoxOptions {
  type: 'info' | 'warning' | 'error' | 'question';
  title: string;
  message: string;
  detail?: string;
  buttons: string[];
  defaultId: number;
  cancelId: number;
  noLink?: boolean;
}

/** Electron's shell module's file functions (Help > Show logs). */
export interface ShellFiles {
  /** Opens a path with the desktop's default app; resolves with an error message, '' on success. */
  openPath(path: string): Promise<string>;
  showItemInFolder(fullPath: string): void;
}

/** electron-updater's autoUpdater, the parts the shell uses (updates.ts). */
export interface ShellAutoUpdater {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  /** electron-updater logs to the console unless told otherwise; the shell logs typed events. */
  logger: unknown;
  setFeedURL(options: { provider: 'generic'; url: string }): void;
  checkForUpdates(): Promise<unknown>;
  downloadUpdate(): Promise<unknown>;
  quitAndInstall(): void;
  on(event: 'checking-for-update' | 'update-not-available', listener: () => void): unknown;
  on(
    event: 'update-available' | 'update-downloaded',
    listener: (info: { version: string }) => void,
  ): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** The menu roles the application menu uses (Electron's MenuItemConstructorOptions['role']). */
export type ShellMenuRole =
  | 'appMenu'
  | 'editMenu'
  | 'windowMenu'
  | 'quit'
  | 'close'
  | 'resetZoom'
  | 'zoomIn'
  | 'zoomOut'
  | 'togglefullscreen';

export interface ShellMenuItem {
  label?: string;
  role?: ShellMenuRole;
  type?: 'separator';
  accelerator?: string;
  click?: () => void;
  submenu?: ShellMenuItem[];
}

export interface ShellMenu {
  buildFromTemplate(template: ShellMenuItem[]): unknown;
  setApplicationMenu(menu: unknown): void;
}

/** Additions to ShellDeps the shell uses when present (main.ts passes them; older fakes may not). */
export interface ShellDialogDeps {
  dialog?: ShellDialog;
  Menu?: ShellMenu;
  /** The data channel to the cache worker (data-channel.ts); without it data goes over IPC. */
  dataPorts?: ShellDataPorts;
  /** Help > Show logs opens the logs folder with these. */
  shellFiles?: ShellFiles;
  /** Updates from the administrator's feed (updates.ts); without it, none. */
  autoUpdater?: ShellAutoUpdater;
  /** Electron's Notification (the OS's notification centre); without it, reminders show none. */
  Notification?: ShellNotificationClass;
  /** Electron's Tray: on Windows and Linux, closing the window keeps the app there. */
  Tray?: new (iconPath: string) => ShellTray;
}

/** Electron's Tray, the parts used. */
export interface ShellTray {
  setToolTip(text: string): void;
  setContextMenu(menu: unknown): void;
  on(event: 'click', listener: () => void): unknown;
  destroy(): void;
}

/** Electron's Notification, the parts used. */
export interface ShellNotification {
  show(): void;
  on(event: 'click' | 'close' | 'failed', listener: () => void): unknown;
}

export interface ShellNotificationClass {
  new (options: { title: string; body: string }): ShellNotification;
  /** False where the desktop has no notification service (some Linux desktops). */
  isSupported(): boolean;
}
