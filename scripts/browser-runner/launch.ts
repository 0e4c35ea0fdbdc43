// Starts the app outside Electron: the real main-process services (createMainServices) in this
// Node process and the real built renderer in Debian's Chromium, joined by the same IPC router
// and the same window.fieldmap bridge the Electron shell uses. Used by the CLI and by the e2e
// harness, so there is one way to run the app without Electron.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { EventChannel } from '../../src-shared/ipc-contract';
import { PIECE_ITEMS } from '../../src-shared/data-pieces';
import { Road, roadEmitter } from '../../src-shared/data-road';
import { createDemoLauncher } from '../../src-main/app/demo';
import type { ConfirmLocalAddress, PickFile } from '../../src-main/app/basemap-handlers';
import { createMainServices, type MainServices } from '../../src-main/app/main-services';
import { AppLog } from '../../src-main/core/log/app-log';
import type { CredentialStore, EmitEvent } from '../../src-main/core/ports';
import {
  createIpcRouter,
  originOf,
  topFrameOfOrigins,
  type IpcRouter,
} from '../../src-main/ipc/handle';
import {
  DATA_SOCKET_BINDING,
  RELAY_PATH,
  RELAY_SCRIPT,
  startDataSockets,
  type DataSockets,
} from './data-socket';
import { fetchFromEnv } from '../../src-main/core/network/env-fetch';
import type { ProxyEnv } from '../../src-main/core/network/proxy-env';
import { networkSwitch } from './network';
import { favourMemoryInMain } from '../../src-main/app/main-heap';
import type { DailyBuilds } from '../../src-main/core/basemap/daily-builds';
import { runnerNotifier } from './notifications';
import type { ReminderNotice } from '../../src-main/core/reminders/reminder-schedule';
import { pageInitScript } from './page-script';
import { ensureRendererBuilt, rendererCsp, RUNNER_ORIGIN, serveRenderer } from './renderer-files';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium';

export interface LaunchOptions {
  dataDir: string;
  /** Chromium profile (IndexedDB lives here); default <dataDir>/browser-profile. */
  profileDir?: string;
  headless: boolean;
  credentialStore: CredentialStore;
  /**
   * The renderer's locale (navigator.language, Intl), as Electron gives it the system's;
   * default: Chromium's own, from the environment.
   */
  locale?: string;
  /** Start the demo account when no account is open. */
  demo?: boolean;
  /** Offered to the login form as the service's address (?serviceUrl=). */
  serviceUrl?: string;
  /** Start with the network cut (main's fetch refused, the browser offline). */
  offline?: boolean;
  limiterRate?: number;
  syncPeriodMs?: number;
  /**
   * Main's "open file" dialog, which the browser has no way to show: the CLI asks on its
   * terminal, a test answers for the rep. Without it, the Offline maps panel offers no "Add region…".
   */
  pickFile?: PickFile;
  /**
   * Where main's network reads HTTPS_PROXY/HTTP_PROXY/NO_PROXY and FIELDMAP_EXTRA_CA_CERTS
   * (core/network/env-fetch.ts); default process.env.
   */
  env?: ProxyEnv;
  /** Stands in for OpenFreeMap's style address (main-services.ts); tests use a local imitation. */
  defaultOnlineStyle?: string | null;
  /** Stands in for the Protomaps daily builds (main-services.ts); tests use a local imitation. */
  dailyBuilds?: DailyBuilds | null;
  /** Demo service: requests per second (default 3, as the real service). */
  demoRate?: number;
  log?: (line: string) => void;
  /**
   * Playwright's default bound on every wait and navigation in the page (its own: 30 s). Tests
   * give their own bound, so that a loaded machine never fails a wait before the test's limit.
   */
  waitLimitMs?: number;
  /**
   * Main's question before an address on this computer or the LAN is used, as Electron's message
   * box asks it: the CLI asks on its terminal, the e2e harness answers for the test. Without it
   * every such address is refused.
   */
  confirmLocalAddress?: ConfirmLocalAddress;
  /**
   * What main's openExternal does with a link the guard let through (Electron's
   * shell.openExternal hands it to the system browser); default: the runner prints it.
   */
  openExternal?: (url: string) => Promise<void>;
  /** Sees each reminder main shows, with its click (headless Chromium shows none). */
  observeNotifications?: (notice: ReminderNotice, click: () => void) => void;
  /**
   * Opens Chromium's DevTools port (RunningApp.cdpEndpoint), so another process can drive the
   * page over CDP while main's services run here (child-process.ts).
   */
  debuggingPort?: boolean;
  /** The page's bridge, bundled (page-script.ts); default: bundled here. */
  initScript?: string;
}

export interface RunningApp {
  readonly context: BrowserContext;
  readonly page: Page;
  readonly services: MainServices;
  readonly router: IpcRouter;
  /** Chromium's DevTools address (http://127.0.0.1:port) when debuggingPort was asked. */
  readonly cdpEndpoint: string | null;
  /** Cuts or restores the network of both main and the browser. */
  setOffline(offline: boolean): Promise<void>;
  /** Holds main's pieces on their way to the cache worker until the release (DataSockets.hold). */
  holdData(): () => void;
  /** Holds every message of the road until a test hands each on, by the transport it picks. */
  gateRoad(): RoadGate;
  /** True once the page's cache worker listens on its data socket (main's pieces then skip the page). */
  dataChannelOpen(): boolean;
  close(): Promise<void>;
}

export async function launchApp(options: LaunchOptions): Promise<RunningApp> {
  // As Electron's main.ts does: the heap of the process that runs main's services.
  favourMemoryInMain();
  const log = options.log ?? ((line: string) => console.log(line));
  ensureRendererBuilt(log);
  if (!options.headless && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    throw new Error(
      'No display for a visible window: pass --headless, or run under Xvfb (xvfb-run -a npm run start:browser).',
    );
  }

  let context: BrowserContext | null = null;
  // Reports go to the page's road, made by eventDelivery (set once it is).
  let took: (page: Page, road: number, seq: number) => void = () => undefined;
  const sockets = await startDataSockets(RUNNER_ORIGIN, (page, road, seq) => took(page, road, seq));
  const envNetwork = fetchFromEnv(options.env ?? process.env);
  const network = networkSwitch(envNetwork.fetch, options.offline ?? false);
  const delivery = eventDelivery(
    () => context,
    sockets,
    () => network.offline,
  );
  const { emit, gateRoad } = delivery;
  took = delivery.took;
  // Main's log, as the Electron shell keeps it in its logs folder.
  const appLog = new AppLog({
    dir: join(options.dataDir, 'logs'),
    clock: { now: () => Date.now() },
  });
  const notifier = runnerNotifier(options.observeNotifications);
  const services = await createMainServices({
    notify: notifier.notify,
    dataDir: options.dataDir,
    emit,
    log: appLog,
    credentialStore: options.credentialStore,
    fetch: network.fetch,
    // The admin defaults (FIELDMAP_ONLINE_STYLE...) from the same environment as the network's.
    env: options.env ?? process.env,
    ...(options.defaultOnlineStyle !== undefined
      ? { defaultOnlineStyle: options.defaultOnlineStyle }
      : {}),
    ...(options.dailyBuilds !== undefined ? { dailyBuilds: options.dailyBuilds } : {}),
    demo: createDemoLauncher({
      dataDir: options.dataDir,
      credentialStore: options.credentialStore,
      ...(options.demoRate !== undefined ? { rate: options.demoRate } : {}),
    }),
    ...(options.limiterRate !== undefined ? { limiterRate: options.limiterRate } : {}),
    ...(options.syncPeriodMs !== undefined ? { syncPeriodMs: options.syncPeriodMs } : {}),
    // No desktop browser to hand links to: the runner prints them.
    openExternal: options.openExternal ?? (async (url) => log(`open in browser: ${url}`)),
    ...(options.confirmLocalAddress ? { confirmLocalAddress: options.confirmLocalAddress } : {}),
    ...(options.pickFile ? { pickFile: options.pickFile } : {}),
  });
  const router = createIpcRouter(services.handlers, {
    isTrustedSender: topFrameOfOrigins([RUNNER_ORIGIN]),
  });

  try {
    if (options.demo && !services.sessions.currentAccount()) await services.sessions.startDemo();
    const profileDir = options.profileDir ?? join(options.dataDir, 'browser-profile');
    // Chromium writes the port it took here; a restart on the same profile must not read the last.
    const portFile = join(profileDir, 'DevToolsActivePort');
    if (options.debuggingPort) await rm(portFile, { force: true });
    context = await chromium.launchPersistentContext(profileDir, {
      executablePath: CHROMIUM_PATH,
      headless: options.headless,
      args: [
        ...CHROMIUM_ARGS,
        ...(options.debuggingPort ? ['--remote-debugging-port=0'] : []),
        ...startupTraceArgs(),
      ],
      viewport: { width: 1280, height: 800 },
      offline: options.offline ?? false,
      ...(options.locale !== undefined ? { locale: options.locale } : {}),
      ...(options.waitLimitMs !== undefined ? { timeout: options.waitLimitMs } : {}),
    });
    if (options.waitLimitMs !== undefined) {
      context.setDefaultTimeout(options.waitLimitMs);
      context.setDefaultNavigationTimeout(options.waitLimitMs);
    }
    await serveRenderer(
      context,
      rendererCsp(sockets.origin),
      { [RELAY_PATH]: RELAY_SCRIPT },
      (url, range) => services.basemap.handleRequest(url, range),
    );
    // The page is served by routing, so Chromium counts it as public and refuses its socket to
    // loopback (local network access) unless the app's origin is allowed to.
    await context.grantPermissions(['local-network-access'], { origin: RUNNER_ORIGIN });
    // The data socket's address, for the app's top frame only (as Electron sends its port).
    await context.exposeBinding(DATA_SOCKET_BINDING, (source) =>
      source.frame.parentFrame() === null && originOf(source.frame.url()) === RUNNER_ORIGIN
        ? sockets.addressFor(source.page)
        : null,
    );
    await context.exposeBinding('__fieldmapInvoke', (source, channel: unknown, request: unknown) =>
      router.dispatch(
        String(channel),
        { url: source.frame.url(), isTopFrame: source.frame.parentFrame() === null },
        request,
      ),
    );
    await context.addInitScript({ content: options.initScript ?? (await pageInitScript()) });
    const shown = context;
    await notifier.attach(context, RUNNER_ORIGIN, () => shown.pages()[0] ?? null);
    const page = context.pages()[0] ?? (await context.newPage());
    const query = options.serviceUrl ? `?serviceUrl=${encodeURIComponent(options.serviceUrl)}` : '';
    await page.goto(`${RUNNER_ORIGIN}/index.html${query}`);
    const opened = context;
    const cdpEndpoint = options.debuggingPort ? await devToolsEndpoint(portFile) : null;
    return {
      context: opened,
      page,
      services,
      router,
      cdpEndpoint,
      async setOffline(offline) {
        // The road leaves the page's socket before the browser goes offline, and takes it again
        // only once the browser is back (eventDelivery).
        if (offline) network.offline = true;
        await opened.setOffline(offline);
        network.offline = offline;
        if (!offline) services.nudge('online');
      },
      holdData: () => sockets.hold(),
      gateRoad,
      dataChannelOpen: () => sockets.direct(page) !== null,
      async close() {
        await services.dispose();
        await opened.close();
        await sockets.close();
        // Its last lines are on disk before a caller removes the data dir.
        await appLog.flush();
        await envNetwork.close();
      },
    };
  } catch (error) {
    await services.dispose();
    await context?.close();
    await sockets.close();
    await envNetwork.close();
    throw error;
  }
}

/** The DevTools address Chromium wrote to its profile (first line: the port), once it is there. */
async function devToolsEndpoint(portFile: string): Promise<string> {
  // The page has loaded by now, so the file is written or about to be: a short bound.
  for (let i = 0; i < 200; i++) {
    const port = (await readFile(portFile, 'utf8').catch(() => '')).split('\n')[0]?.trim();
    if (port) return `http://127.0.0.1:${port}`;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`Chromium wrote no DevTools port to ${portFile}`);
}

/**
 * A test's gate on the road (src-shared/data-road.ts): every message main sends is held, in
 * main's order, until the test hands it on through the worker's socket or through the page, in
 * any order it picks (Electron's port and its IPC keep no order between them either).
 */
export interface RoadGate {
  /** Messages held so far, in main's order. */
  held(): number;
  /** What held message `index` carries: its event's name, or 'piece' for a data piece. */
  kind(index: number): string;
  /** Hands held message `index` on; resolves once it left (the page took it, or the socket). */
  release(index: number, via: 'socket' | 'page'): Promise<void>;
  /** Holds nothing more: messages from now on go as usual. */
  end(): void;
}

/** Main's EmitEvent for the runner: each event goes, in order, to every app page of the context. */
function eventDelivery(
  getContext: () => BrowserContext | null,
  sockets: DataSockets,
  offline: () => boolean,
): {
  emit: EmitEvent;
  gateRoad(): RoadGate;
  /** The page's cache worker took a message of its road (data-socket.ts). */
  took(page: Page, road: number, seq: number): void;
} {
  let gated: Array<{ page: Page; text: string }> | null = null;
  const chains = new WeakMap<Page, Promise<void>>();
  /** Each page's road to its cache worker (src-shared/data-road.ts), kept across its loads. */
  const roads = new WeakMap<Page, Road>();
  const pages = () => {
    const context = getContext();
    // No window yet: the page opens its road when it starts.
    if (!context) return [];
    return context.pages().filter((p) => !p.isClosed() && originOf(p.url()) === RUNNER_ORIGIN);
  };
  /** Runs `deliver` for a page after everything sent to it before, so order is kept. */
  const queue = (page: Page, deliver: () => Promise<unknown>) => {
    const next = (chains.get(page) ?? Promise.resolve())
      .then(deliver)
      .then(() => undefined)
      .catch(() => undefined); // the page is navigating or closing: the event is moot
    chains.set(page, next);
  };
  // As one JSON string: Playwright's own argument serialisation walks every value and costs
  // seconds per 2,000-customer piece; a string crosses CDP as it is. Event payloads are JSON
  // data (they came from the service as JSON), so nothing is lost.
  const toPage = (page: Page, event: EventChannel, json: string | undefined) =>
    page.evaluate(
      ([e, p]) =>
        (
          globalThis as unknown as { __fieldmapDeliver?: (e: string, p: unknown) => void }
        ).__fieldmapDeliver?.(e, p === undefined ? undefined : JSON.parse(p)),
      [event, json] as const,
    );
  // The road's messages go straight to the page's cache worker over the data socket, as
  // Electron's data port carries them (data-socket.ts): the worker parses and validates each, so
  // no record crosses the UI thread (one 76 MB page.evaluate of a 100k snapshot also made
  // Chromium drop the CDP connection). While no worker listens there (the page is loading) they
  // go through the page as 'data:road' events, which the page hands on to the worker. So they do
  // while the runner has the browser offline: Chromium's offline emulation holds the page's
  // loopback socket too, where Electron's port does not depend on the network at all.
  const roadOf = (page: Page) => {
    let road = roads.get(page);
    if (!road) {
      road = new Road({
        direct: () => {
          const held = gated;
          if (held) return (text) => void held.push({ page, text });
          const socket = offline() ? null : sockets.direct(page);
          return socket && ((text) => queue(page, async () => socket(text)));
        },
        viaPage: (message) => {
          const json = JSON.stringify(message);
          queue(page, () => toPage(page, 'data:road', json));
        },
        later: (fn, ms) => {
          const timer = setTimeout(fn, ms);
          return () => clearTimeout(timer);
        },
      });
      roads.set(page, road);
    }
    return road;
  };
  const emit = roadEmitter(
    (event: EventChannel, payload: unknown) => {
      const json = payload === undefined ? undefined : JSON.stringify(payload);
      for (const page of pages()) queue(page, () => toPage(page, event, json));
    },
    () => pages().map(roadOf),
    PIECE_ITEMS,
  );
  const gateRoad = (): RoadGate => {
    const held: Array<{ page: Page; text: string }> = [];
    gated = held;
    return {
      held: () => held.length,
      kind(index) {
        const message = JSON.parse(held[index]!.text) as { event?: string };
        return message.event ?? 'piece';
      },
      async release(index, via) {
        const { page, text } = held[index]!;
        if (via === 'page') return void (await toPage(page, 'data:road', text));
        const socket = sockets.direct(page);
        if (!socket) throw new Error('the page has no data socket open');
        socket(text);
      },
      end() {
        if (gated === held) gated = null;
      },
    };
  };
  return { emit, gateRoad, took: (page, road, seq) => roads.get(page)?.took(road, seq) };
}

/**
 * FIELDMAP_TRACE_STARTUP=<file>: Chromium's own trace from its start (the page's first moments
 * run before any CDP client could start a trace or a profile), written to <file> after
 * FIELDMAP_TRACE_STARTUP_S seconds (default 15). Each launch writes it again: the last one wins.
 */
function startupTraceArgs(): string[] {
  const file = process.env['FIELDMAP_TRACE_STARTUP'];
  if (!file) return [];
  const categories = [
    'devtools.timeline',
    'disabled-by-default-devtools.timeline',
    'v8',
    'v8.execute',
    'disabled-by-default-v8.compile',
    'disabled-by-default-v8.cpu_profiler',
    'blink.user_timing',
    'toplevel',
    'loading',
  ];
  return [
    `--trace-startup=${categories.join(',')}`,
    `--trace-startup-file=${file}`,
    '--trace-startup-format=json',
    `--trace-startup-duration=${Number(process.env['FIELDMAP_TRACE_STARTUP_S'] ?? 15) || 15}`,
  ];
}
