// The main process's services, composed: the session manager, the account runtime factory and
// the handler table for every IPC channel. The Electron shell and the browser runner both call
// this, so the app and its tests run the same code.
import { BasemapService } from '../core/basemap/service';
import type { DurableFs } from '../core/durable-fs';
import { noLog, type AppLogPort } from '../core/log/app-log';
import { fetchFromEnv } from '../core/network/env-fetch';
import { guardedLookup, systemResolver, type Resolver } from '../core/network/local-address-guard';
import { refusedResolution } from '../core/basemap/remote-policy';
import type { WorkerEntry } from '../core/untrusted/parse-worker';
import { systemClock, type Clock, type CredentialStore, type EmitEvent } from '../core/ports';
import { createRuntimeFactory } from './account-runtime';
import { collectAfterAccount } from './main-heap';
import { OpenRequests } from './open-requests';
import { customerOfLink } from '../../src-shared/customer-link';
import type { ShowNotification } from '../core/reminders/reminder-schedule';
import { adminRegionSourceOf, defaultOnlineStyleOf } from './admin-defaults';
import { PROTOMAPS_DAILY_BUILDS, type DailyBuilds } from '../core/basemap/daily-builds';
import type { ConfirmLocalAddress, PickFile } from './basemap-handlers';
import { createDemoLauncher } from './demo';
import { createHandlers, type AppHandlers } from './handlers';
import { ImportJobs } from './import-jobs';
import { SessionManager, type DemoLauncher } from './session-manager';
import {
  accountAbout,
  loggedEmit,
  loggedHandlers,
  rendererErrorLog,
  type AccountAbout,
} from './support';

export interface MainServicesOptions {
  dataDir: string;
  emit: EmitEvent;
  credentialStore: CredentialStore;
  clock?: Clock;
  /** Every request main makes; default: Node's fetch with the environment's proxy and CA file. */
  fetch?: typeof globalThis.fetch;
  /** Demo mode; default: the reference service on loopback (createDemoLauncher); false: none. */
  demo?: DemoLauncher | false;
  /** Requests per second per account (the service allows 3). */
  limiterRate?: number;
  /** How often the engine syncs while reachable. */
  syncPeriodMs?: number;
  /** Opens a checked https link in the user's browser (the shell replaces this channel's handler with its own). */
  openExternal?: (url: string) => Promise<void>;
  /** Reopen the last used account at start-up (default true). */
  restore?: boolean;
  /** Main's native file dialog (the Electron shell); without it, regions are added by path. */
  pickFile?: PickFile;
  /** Main's own yes/no question before an address on this computer or the LAN is used. */
  confirmLocalAddress?: ConfirmLocalAddress;
  /** The built plan worker (Electron); without it, plan-worker.ts bundled from source. */
  planWorkerPath?: string;
  /** Where the administrator's defaults and the fallback network's settings are read; default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Stands in for OpenFreeMap's style address (tests point it at a local imitation, trusted as
   * given); default: what FIELDMAP_ONLINE_STYLE in `env` asks for.
   */
  defaultOnlineStyle?: string | null;
  /**
   * Stands in for the Protomaps daily builds' list and archives (tests point it at a local
   * imitation, trusted as given; null: none); default: Protomaps' own.
   */
  dailyBuilds?: DailyBuilds | null;
  /** The seam of every file main writes (default: the real file system, this platform's rules). */
  fs?: DurableFs;
  /** Main's log file (core/log): session, sync and failure events, the page's errors. */
  log?: AppLogPort;
  /** The built .xlsx reader worker (the app's bundle); default: its source, bundled. */
  xlsxWorker?: WorkerEntry;
  /** The built style reader worker (the app's bundle); default: its source, run through tsx. */
  styleWorker?: WorkerEntry;
  /**
   * The resolver of the map's connections (default: the system's): tests play a name that
   * resolves to this computer, as no DNS exists where they run.
   */
  resolver?: Resolver;
  /** The OS's notifications (Electron's, or the runner's): reminders are shown through it. */
  notify?: ShowNotification;
}

export interface MainServices {
  readonly handlers: AppHandlers;
  readonly sessions: SessionManager;
  /** Offline regions, online style setting and tile cache; serves app-origin regions/ and tiles? paths. */
  readonly basemap: BasemapService;
  /** The shell's online/resume events. */
  nudge(reason: 'online' | 'resume' | 'start'): void;
  /** A fieldmap:// link the OS handed the app; false when it names no customer. */
  openLink(url: string): boolean;
  /** The signed-in account and its queued changes, for Help > About. */
  about(): AccountAbout;
  dispose(): Promise<void>;
}

export async function createMainServices(options: MainServicesOptions): Promise<MainServices> {
  const clock = options.clock ?? systemClock;
  const fs = options.fs ? { fs: options.fs } : {};
  const log = options.log ?? noLog;
  const emit = loggedEmit(options.emit, log, options.dataDir);
  // One network for every service: the shell's net.fetch, or one built from the environment.
  const fallback = options.fetch ? null : fetchFromEnv(options.env ?? process.env);
  const fetch = options.fetch ?? fallback!.fetch;
  // The map's sources, styles and tiles come from hosts an administrator or a page names: their
  // fetch also refuses a name that resolves to this computer or the LAN (the service's does not:
  // a company's service may well be on its LAN).
  const confirmed = { origins: (): readonly string[] => [] };
  const mapNetwork = options.fetch
    ? null
    : fetchFromEnv(options.env ?? process.env, {
        lookup: guardedLookup(options.resolver ?? systemResolver, (host, address) =>
          refusedResolution(host, address, confirmed.origins()),
        ),
      });
  let disposed: Promise<void> | null = null;
  const opens = new OpenRequests(emit);
  const factory = createRuntimeFactory({
    openCustomer: (request) => opens.request(request),
    ...fs,
    emit,
    clock,
    fetch,
    ...(options.limiterRate !== undefined ? { limiterRate: options.limiterRate } : {}),
    ...(options.syncPeriodMs !== undefined ? { syncPeriodMs: options.syncPeriodMs } : {}),
    ...(options.notify ? { notify: options.notify } : {}),
  });
  const sessions = await SessionManager.create({
    dataDir: options.dataDir,
    emit,
    credentialStore: options.credentialStore,
    clock,
    factory,
    closed: () => void collectAfterAccount(),
    ...fs,
    ...(options.demo !== false
      ? {
          demo:
            options.demo ??
            createDemoLauncher({
              dataDir: options.dataDir,
              credentialStore: options.credentialStore,
              ...fs,
            }),
        }
      : {}),
  });
  if (options.restore !== false) {
    // A missing keychain entry or a broken account leaves the app signed out, not crashed.
    await sessions.restoreLast().catch((error: unknown) => {
      console.warn(
        `[fieldmap] could not reopen the last account: ${error instanceof Error ? error.name : 'error'}`,
      );
    });
  }
  const imports = new ImportJobs({
    dataDir: options.dataDir,
    session: () => sessions.session,
    ratePerSecond: options.limiterRate ?? 3,
    clock,
    ...fs,
  });
  const basemap = await BasemapService.open({
    dataDir: options.dataDir,
    clock,
    ...fs,
    fetch: mapNetwork?.fetch ?? fetch,
    adminRegionSource: adminRegionSourceOf(options.env ?? process.env),
    defaultOnlineStyle:
      options.defaultOnlineStyle !== undefined
        ? options.defaultOnlineStyle
        : defaultOnlineStyleOf(options.env ?? process.env),
    dailyBuilds: options.dailyBuilds !== undefined ? options.dailyBuilds : PROTOMAPS_DAILY_BUILDS,
    ...(options.planWorkerPath ? { planWorkerPath: options.planWorkerPath } : {}),
    ...(options.styleWorker ? { styleWorker: options.styleWorker } : {}),
  });
  confirmed.origins = () => basemap.settings().confirmedOrigins;
  const handlers = loggedHandlers(
    createHandlers({
      sessions,
      imports,
      ...(options.xlsxWorker ? { spreadsheets: { entry: options.xlsxWorker } } : {}),
      ...(options.openExternal ? { openExternal: options.openExternal } : {}),
      basemap: {
        basemap,
        emit,
        ...(options.pickFile ? { pickFile: options.pickFile } : {}),
        ...(options.confirmLocalAddress
          ? { confirmLocalAddress: options.confirmLocalAddress }
          : {}),
      },
      reportError: rendererErrorLog(log, clock),
      opens,
      openRoad: (holding) => {
        const raw = options.emit;
        if (!raw.openRoad) return false;
        // The road starts with main's state as it is now: the worker applies nothing before it.
        raw.openRoad();
        const session = sessions.session;
        raw('session:changed', sessions.currentAccount());
        if (session) {
          const { accountKey } = session.account;
          raw('outbox:changed', { accountKey, ops: session.runtime.outbox.list() });
          // What went on older roads never reached this one: the last snapshot, unless the
          // page's cache holds it (one being streamed on an older road is sent once it is read).
          const { engine } = session.runtime;
          engine.resendSnapshot(holding.accountKey === accountKey ? holding.newerThan : null);
        }
        // The sync state after the data it speaks of: "Synced" first, then a delta resent, showed
        // "Synced" while the cache did not hold that pull, and a quit then left main's prints
        // ahead of the cache (the next start's delta refused, the whole account sent again).
        raw('sync:state', session?.runtime.engine.state ?? { kind: 'signed-out' });
        return true;
      },
    }),
    log,
  );
  return {
    handlers,
    sessions,
    basemap,
    nudge: (reason) => sessions.session?.runtime.engine.nudge(reason),
    openLink: (url) => {
      const customerId = customerOfLink(url);
      if (customerId !== null) opens.request({ accountKey: null, customerId });
      return customerId !== null;
    },
    about: () => accountAbout(sessions),
    // Once: a second call (the shell's quit after a test's or a restart's) waits for the first.
    dispose: () =>
      (disposed ??= (async () => {
        // Imports stop between rows first, so their progress on disk is exact.
        await imports.dispose();
        await sessions.dispose();
        await basemap.downloads.pauseAll();
        await basemap.tiles.flush();
        await fallback?.close();
        await mapNetwork?.close();
      })()),
  };
}
