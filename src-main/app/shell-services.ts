// What the Electron shell starts (shell/main.ts): main's services on the shell's dialog, opener
// and network, as the shell's MainServices. Here rather than in main.ts so the shell test runs
// this very composition on its fake electron module.
import type { ConfirmLocalAddress, PickFile } from './basemap-handlers';
import type { CredentialStore, EmitEvent } from '../core/ports';
import type { IpcHandlers } from '../ipc/handle';
import type { BasemapService } from '../core/basemap/service';
import type { AppLogPort } from '../core/log/app-log';
import type { WorkerEntry } from '../core/untrusted/parse-worker';
import { createMainServices } from './main-services';
import type { ShowNotification } from '../core/reminders/reminder-schedule';
import type { AccountAbout } from './support';

export interface ShellContext {
  dataDir: string;
  emit: EmitEvent;
  pickFile?: PickFile;
  confirmLocalAddress?: ConfirmLocalAddress;
  openExternal: (url: string) => Promise<void>;
  fetch: typeof globalThis.fetch;
  log: AppLogPort;
  /** The OS's notifications (Electron's Notification), for reminders. */
  notify?: ShowNotification;
}

export interface ShellServices {
  handlers: IpcHandlers;
  onOnline(): void;
  onResume(): void;
  dispose(): Promise<void>;
  handleAppRequest: BasemapService['handleRequest'];
  about(): AccountAbout;
}

export async function createShellServices(
  { dataDir, emit, pickFile, confirmLocalAddress, openExternal, fetch, log, notify }: ShellContext,
  options: {
    credentialStore: CredentialStore;
    demo: boolean;
    xlsxWorker?: WorkerEntry;
    styleWorker?: WorkerEntry;
    planWorkerPath?: string;
  },
): Promise<ShellServices> {
  const services = await createMainServices({
    dataDir,
    emit,
    openExternal,
    fetch,
    log,
    ...(pickFile ? { pickFile } : {}),
    ...(notify ? { notify } : {}),
    ...(confirmLocalAddress ? { confirmLocalAddress } : {}),
    ...(options.planWorkerPath ? { planWorkerPath: options.planWorkerPath } : {}),
    credentialStore: options.credentialStore,
    ...(options.xlsxWorker ? { xlsxWorker: options.xlsxWorker } : {}),
    ...(options.styleWorker ? { styleWorker: options.styleWorker } : {}),
  });
  // `npm start -- --demo`: open the demo account when no account is open.
  if (options.demo && !services.sessions.currentAccount()) {
    void services.sessions.startDemo().catch((error: unknown) => {
      console.warn(
        `[fieldmap] demo failed to start: ${error instanceof Error ? error.message : 'error'}`,
      );
    });
  }
  return {
    handlers: services.handlers,
    onOnline: () => services.nudge('online'),
    onResume: () => services.nudge('resume'),
    about: () => services.about(),
    dispose: () => services.dispose(),
    handleAppRequest: (url, range) => services.basemap.handleRequest(url, range),
  };
}
