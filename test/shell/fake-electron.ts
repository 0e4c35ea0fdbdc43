// A fake of the slice of the electron module the shell uses (ShellDeps). It is a fake because
// no Electron binary can be installed or started here (its download host is unreachable), so
// the shell's security settings are asserted on what it asks this stand-in to do. It mimics the
// Electron rules that matter: enableSandbox and registerSchemesAsPrivileged throw after 'ready',
// and creating a BrowserWindow emits app 'web-contents-created'.
import type {
  CustomSchemePrivileges,
  PreventableEvent,
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
}

export type IpcListener = (
  event: { senderFrame: ShellSenderFrame | null },
  request: unknown,
) => Promise<unknown>;

export function createFakeElectron(
  options: { lock?: boolean; online?: boolean; dataDir?: string } = {},
) {
  const calls: string[] = [];
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
    enableSandbox(): void {
      if (ready) throw new Error('app.enableSandbox() can only be called before app is ready');
      calls.push('app.enableSandbox');
    }
    requestSingleInstanceLock(): boolean {
      calls.push('app.requestSingleInstanceLock');
      return options.lock ?? true;
    }
    quit(): void {
      this.quitCount += 1;
      calls.push('app.quit');
    }
    whenReady(): Promise<void> {
      return readyPromise;
    }
    getPath(name: 'userData'): string {
      return options.dataDir ?? `/fake/${name}`;
    }
  })();

  const windows: FakeBrowserWindow[] = [];
  class FakeBrowserWindow extends Emitter {
    readonly webContents = new FakeWebContents();
    readonly loaded: string[] = [];
    shown = false;
    focused = 0;
    minimized = false;
    restored = 0;
    constructor(readonly options: WindowOptions) {
      super();
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
      return false;
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
  const session = {
    defaultSession: {
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
    /** Message boxes asked, and the button the "user" clicks (Electron: its index). */
    boxes: [] as Array<{ window: unknown; options: ShellMessageBoxOptions }>,
    button: null as number | null,
  };
  const menu = { template: null as ShellMenuItem[] | null };

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
    net: { isOnline: () => network.online },
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
      // Electron resolves with the clicked button; closing the box gives cancelId.
      showMessageBox: async (window, options) => {
        dialogs.boxes.push({ window, options });
        return { response: dialogs.button ?? options.cancelId };
      },
    },
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
    dialogs,
    menu,
  };
}

export type FakeElectron = ReturnType<typeof createFakeElectron>;
