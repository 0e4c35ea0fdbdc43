// The e2e harness: launches Fieldmap the way `npm run start:browser` does (same launchApp: real
// main-process services in this process, the built renderer in Chromium) with throwaway dirs,
// and restarts it on the same data dir and browser profile (IndexedDB survives).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import type { CredentialStore } from '../../src-main/core/ports';
import type { MainServices } from '../../src-main/app/main-services';
import type { DailyBuilds } from '../../src-main/core/basemap/daily-builds';
import type { PickFile } from '../../src-main/app/basemap-handlers';
import { KeytarCredentialStore } from '../../src-main/core/service/credential-store';
import { startService } from '../../src-service/index';
import type { RunningService, ServiceOptions } from '../../src-service/index';
import { MemoryCredentialStore } from '../../scripts/browser-runner/credentials';
import { testBoundMs } from './until';
import { pageInitScript } from '../../scripts/browser-runner/page-script';
import type { ReminderNotice } from '../../src-main/core/reminders/reminder-schedule';
import {
  launchApp as launchRunner,
  type RoadGate,
  type RunningApp,
} from '../../scripts/browser-runner/launch';
import {
  launchAppInChild,
  type ChildApp,
  type ChildMemory,
} from '../../scripts/browser-runner/child-process';

export interface HarnessOptions {
  /** Kept on close when given; a temp dir (removed on close) otherwise. */
  dataDir?: string;
  serviceUrl?: string;
  demo?: boolean;
  /** Start with the network cut (main's fetch refused, the browser offline). */
  offline?: boolean;
  /** The real keychain under `npm test`'s D-Bus session by default, with a namespace of its own. */
  credentialStore?: CredentialStore;
  /**
   * Main's requests per second; default TEST_CLIENT_RATE. Give the product's 3 where the rate is
   * what the test is about (a bulk change draining "at the service's pace").
   */
  limiterRate?: number;
  syncPeriodMs?: number;
  /** Show the window (needs a display). */
  headed?: boolean;
  /** Main's network settings (HTTPS_PROXY, NO_PROXY, FIELDMAP_EXTRA_CA_CERTS…); default: none. */
  env?: Record<string, string>;
  /**
   * The answer to main's "allow a local address?" question (the test's servers are on loopback);
   * default: allow. Every question asked is in AppHandle.localAddressQuestions.
   */
  allowLocalAddress?: boolean;
  /**
   * The renderer's locale; default 'en-IE', pinned so no test reads the machine's LANG: it
   * writes kilometres, day-first dates, 24-hour times and comma grouping, as the assertions read.
   */
  locale?: string;
  /** Stands in for OpenFreeMap's style address: a local imitation (default: off, via env). */
  defaultOnlineStyle?: string;
  /** Answers main's "open file" dialog for the rep (default: the runner has none). */
  pickFile?: PickFile;
  /** Stands in for the Protomaps daily builds: a local imitation (default: none). */
  dailyBuilds?: DailyBuilds;
  /**
   * Main's services in a child Node process of their own (browser-runner/child-process.ts), so
   * that process is main alone, as Electron's is (the scale bench samples its RSS). The page is
   * driven from here as always; `services`, holdData, gateRoad, dataChannelOpen and pickFile are
   * then out of reach (they live in the child).
   */
  mainInChild?: boolean;
  /**
   * A script the page runs before the app's own, after the runner's bridge (the scale bench's
   * probe: long tasks and MapLibre's frames from the page's first moment).
   */
  pageProbe?: string;
}

export interface ShownNotification extends ReminderNotice {
  click(): void;
}

export interface AppHandle {
  readonly page: Page;
  readonly context: BrowserContext;
  readonly services: MainServices;
  readonly dataDir: string;
  readonly credentialStore: CredentialStore;
  /** Calls a window.fieldmap method in the page, as the renderer would. */
  call<T = unknown>(method: string, request?: unknown): Promise<T>;
  setOffline(offline: boolean): Promise<void>;
  /** Holds main's pieces on their way to the cache worker; call the answer to let them go. */
  holdData(): () => void;
  /** True once the page's cache worker listens on its data socket (main's pieces then skip the page). */
  dataChannelOpen(): boolean;
  /** Holds every message of main's road until the test hands each on (RoadGate). */
  gateRoad(): RoadGate;
  /** Each "allow a local address?" question main asked, as its URL. */
  readonly localAddressQuestions: string[];
  /** Each link main's guard let through to the system browser (shell.openExternal), in order. */
  readonly externalLinks: string[];
  /** Each reminder main showed, in order, with its click (as the OS's notification's). */
  readonly notifications: ShownNotification[];
  /** Main's process: this one, or the child's with mainInChild (a new one after a restart). */
  mainPid(): number;
  /** Main's own account of its memory, with mainInChild only (bytes). */
  mainMemory(collect?: boolean): Promise<ChildMemory>;
  /** Closes browser and services, then starts both again on the same data dir and profile. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The client's request rate in these tests unless one asks for another. The reference service here
 * has no limit (rate 0), and at the product's 3 requests a second most of the e2e lane's wall time
 * was main waiting on its own limiter (docs/perf-log.md, 2026-11-29). The limiter and the
 * service's 429s are tested where they are the subject: test/client's rate-limiter tests, the
 * rate-limit-service integration suite, the bulk suite's drain, and `npm run bench`.
 */
export const TEST_CLIENT_RATE = 1_000;

/** A keychain namespace per harness, so suites running in parallel never see each other's entries. */
function defaultCredentialStore(): CredentialStore {
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) return new MemoryCredentialStore();
  return new KeytarCredentialStore({
    service: `fieldmap-e2e-${process.pid}-${Math.random().toString(36).slice(2)}`,
  });
}

export async function launchApp(options: HarnessOptions = {}): Promise<AppHandle> {
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'fieldmap-e2e-')));
  const ownStore = options.credentialStore === undefined;
  const credentialStore = options.credentialStore ?? defaultCredentialStore();
  let offline = options.offline ?? false;
  const localAddressQuestions: string[] = [];
  const externalLinks: string[] = [];
  const notifications: ShownNotification[] = [];
  const common = {
    dataDir,
    headless: !options.headed,
    credentialStore,
    demoRate: 0,
    locale: options.locale ?? 'en-IE',
    ...(options.pageProbe
      ? { initScript: `${await pageInitScript()}\n;${options.pageProbe}` }
      : {}),
    ...(options.defaultOnlineStyle ? { defaultOnlineStyle: options.defaultOnlineStyle } : {}),
    // Not this process's environment: a proxy set on the machine must not reach the tests. The
    // default online style (OpenFreeMap) is off: no test reaches the internet.
    env: { FIELDMAP_ONLINE_STYLE: 'off', ...options.env },
    waitLimitMs: testBoundMs(),
    openExternal: async (url: string) => void externalLinks.push(url),
    observeNotifications: (notice: ReminderNotice, click: () => void) =>
      void notifications.push({ ...notice, click }),
    confirmLocalAddress: async ({ url }: { url: string }) => {
      localAddressQuestions.push(url);
      return options.allowLocalAddress ?? true;
    },
    ...(options.demo ? { demo: true } : {}),
    ...(options.serviceUrl ? { serviceUrl: options.serviceUrl } : {}),
    limiterRate: options.limiterRate ?? TEST_CLIENT_RATE,
    ...(options.syncPeriodMs !== undefined ? { syncPeriodMs: options.syncPeriodMs } : {}),
  };
  if (options.mainInChild && (options.pickFile || options.dailyBuilds))
    throw new Error('pickFile and dailyBuilds cannot reach main in a child process');
  const start = (): Promise<RunningApp | ChildApp> =>
    options.mainInChild
      ? launchAppInChild({ ...common, offline })
      : launchRunner({
          ...common,
          offline,
          // No public daily builds unless a test gives its imitation: no test reaches the internet.
          dailyBuilds: options.dailyBuilds ?? null,
          log: () => undefined,
          ...(options.pickFile ? { pickFile: options.pickFile } : {}),
        });
  let app: RunningApp | ChildApp | null = await start();
  const running = (): RunningApp | ChildApp => {
    if (!app) throw new Error('the app is closed');
    return app;
  };
  /** The runner in this process: what only it has (main's services, its data road). */
  const inProcess = (): RunningApp => {
    const current = running();
    if ('pid' in current) throw new Error('main runs in a child process (mainInChild)');
    return current;
  };
  const child = (): ChildApp => {
    const current = running();
    if (!('pid' in current)) throw new Error('main runs in this process (no mainInChild)');
    return current;
  };

  return {
    get page() {
      return running().page;
    },
    get context() {
      return running().context;
    },
    get services() {
      return inProcess().services;
    },
    dataDir,
    credentialStore,
    localAddressQuestions,
    externalLinks,
    notifications,
    call: <T>(method: string, request?: unknown) =>
      running().page.evaluate(
        ([m, r]) => {
          const api = (
            globalThis as unknown as { fieldmap: Record<string, (r?: unknown) => Promise<unknown>> }
          ).fieldmap;
          return api[m]!(r);
        },
        [method, request] as const,
      ) as Promise<T>,
    async setOffline(value) {
      offline = value;
      await running().setOffline(value);
    },
    holdData: () => inProcess().holdData(),
    gateRoad: () => inProcess().gateRoad(),
    dataChannelOpen: () => inProcess().dataChannelOpen(),
    mainPid: () => (options.mainInChild ? child().pid : process.pid),
    mainMemory: (collect) => child().memory(collect),
    async restart() {
      await running().close();
      app = null;
      app = await start();
    },
    async close() {
      const current = app;
      app = null;
      await current?.close();
      if (ownStore) {
        for (const { baseUrl, username } of await credentialStore.list()) {
          await credentialStore.delete(baseUrl, username);
        }
      }
      if (ownDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface TestService extends RunningService {
  /** The signed-in account the service was started with. */
  readonly account: { username: string; password: string };
}

/**
 * The reference service for a test: one account with a seeded, deterministic data set, the
 * rate limit off unless asked (the limit is not what e2e suites test).
 */
export async function startTestService(
  options: ServiceOptions & { customers?: number; seed?: number } = {},
): Promise<TestService> {
  const account = { username: 'rep', password: `pw-${options.seed ?? 1}-e2e-secret` };
  const { customers = 50, seed = 1, ...rest } = options;
  const service = await startService({
    rate: 0,
    seed,
    accounts: [{ ...account, customers, seed }],
    ...rest,
  });
  return Object.assign(service, { account });
}
