// Starts the app outside Electron: the real main-process services (createMainServices) in this
// Node process and the real built renderer in Debian's Chromium, joined by the same IPC router
// and the same window.fieldmap bridge the Electron shell uses. Used by the CLI and by the e2e
// harness, so there is one way to run the app without Electron.
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { EventChannel } from '../../src-shared/ipc-contract';
import { sendInPieces } from '../../src-shared/data-pieces';
import { createDemoLauncher } from '../../src-main/app/demo';
import { createMainServices, type MainServices } from '../../src-main/app/main-services';
import type { CredentialStore, EmitEvent } from '../../src-main/core/ports';
import {
  createIpcRouter,
  originOf,
  topFrameOfOrigins,
  type IpcRouter,
} from '../../src-main/ipc/handle';
import { networkSwitch } from './network';
import { pageInitScript } from './page-script';
import { ensureRendererBuilt, RUNNER_ORIGIN, serveRenderer } from './renderer-files';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium';

export interface LaunchOptions {
  dataDir: string;
  /** Chromium profile (IndexedDB lives here); default <dataDir>/browser-profile. */
  profileDir?: string;
  headless: boolean;
  credentialStore: CredentialStore;
  /** Start the demo account when no account is open. */
  demo?: boolean;
  /** Offered to the login form as the service's address (?serviceUrl=). */
  serviceUrl?: string;
  /** Start with the network cut (main's fetch refused, the browser offline). */
  offline?: boolean;
  limiterRate?: number;
  syncPeriodMs?: number;
  /** Demo service: requests per second (default 3, as the real service). */
  demoRate?: number;
  log?: (line: string) => void;
}

export interface RunningApp {
  readonly context: BrowserContext;
  readonly page: Page;
  readonly services: MainServices;
  readonly router: IpcRouter;
  /** Cuts or restores the network of both main and the browser. */
  setOffline(offline: boolean): Promise<void>;
  close(): Promise<void>;
}

export async function launchApp(options: LaunchOptions): Promise<RunningApp> {
  const log = options.log ?? ((line: string) => console.log(line));
  ensureRendererBuilt(log);
  if (!options.headless && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    throw new Error(
      'No display for a visible window: pass --headless, or run under Xvfb (xvfb-run -a npm run start:browser).',
    );
  }

  let context: BrowserContext | null = null;
  const emit = eventDelivery(() => context);
  const network = networkSwitch(globalThis.fetch, options.offline ?? false);
  const services = await createMainServices({
    dataDir: options.dataDir,
    emit,
    credentialStore: options.credentialStore,
    fetch: network.fetch,
    demo: createDemoLauncher({
      dataDir: options.dataDir,
      credentialStore: options.credentialStore,
      ...(options.demoRate !== undefined ? { rate: options.demoRate } : {}),
    }),
    ...(options.limiterRate !== undefined ? { limiterRate: options.limiterRate } : {}),
    ...(options.syncPeriodMs !== undefined ? { syncPeriodMs: options.syncPeriodMs } : {}),
    // No desktop browser to hand links to: the runner prints them.
    openExternal: async (url) => log(`open in browser: ${url}`),
  });
  const router = createIpcRouter(services.handlers, {
    isTrustedSender: topFrameOfOrigins([RUNNER_ORIGIN]),
  });

  try {
    if (options.demo && !services.sessions.currentAccount()) await services.sessions.startDemo();
    context = await chromium.launchPersistentContext(
      options.profileDir ?? join(options.dataDir, 'browser-profile'),
      {
        executablePath: CHROMIUM_PATH,
        headless: options.headless,
        args: [...CHROMIUM_ARGS],
        viewport: { width: 1280, height: 800 },
        offline: options.offline ?? false,
      },
    );
    await serveRenderer(context, (url, range) => services.basemap.handleRequest(url, range));
    await context.exposeBinding('__fieldmapInvoke', (source, channel: unknown, request: unknown) =>
      router.dispatch(
        String(channel),
        { url: source.frame.url(), isTopFrame: source.frame.parentFrame() === null },
        request,
      ),
    );
    await context.addInitScript({ content: await pageInitScript() });
    const page = context.pages()[0] ?? (await context.newPage());
    const query = options.serviceUrl ? `?serviceUrl=${encodeURIComponent(options.serviceUrl)}` : '';
    await page.goto(`${RUNNER_ORIGIN}/index.html${query}`);
    const opened = context;
    return {
      context: opened,
      page,
      services,
      router,
      async setOffline(offline) {
        network.offline = offline;
        await opened.setOffline(offline);
        if (!offline) services.nudge('online');
      },
      async close() {
        await services.dispose();
        await opened.close();
      },
    };
  } catch (error) {
    await services.dispose();
    await context?.close();
    throw error;
  }
}

/** Main's EmitEvent for the runner: each event goes, in order, to every app page of the context. */
function eventDelivery(getContext: () => BrowserContext | null): EmitEvent {
  const chains = new WeakMap<Page, Promise<void>>();
  // Large snapshots and deltas go in bounded pieces, as in Electron (src-shared/data-pieces.ts):
  // one 76 MB page.evaluate for a 100k snapshot makes Chromium drop the CDP connection.
  return sendInPieces((event: EventChannel, payload: unknown) => {
    const context = getContext();
    if (!context) return; // no window yet: the renderer asks for a snapshot when it starts
    for (const page of context.pages()) {
      if (page.isClosed() || originOf(page.url()) !== RUNNER_ORIGIN) continue;
      const previous = chains.get(page) ?? Promise.resolve();
      // As one JSON string: Playwright's own argument serialisation walks every value and costs
      // seconds per 2,000-customer piece; a string crosses CDP as it is. Event payloads are JSON
      // data (they came from the service as JSON), so nothing is lost.
      const json = JSON.stringify(payload);
      const next = previous
        .then(() =>
          page.evaluate(
            ([e, p]) =>
              (
                globalThis as unknown as { __fieldmapDeliver?: (e: string, p: unknown) => void }
              ).__fieldmapDeliver?.(e, p === undefined ? undefined : JSON.parse(p)),
            [event, json] as const,
          ),
        )
        .catch(() => undefined); // the page is navigating or closing: the event is moot
      chains.set(page, next);
    }
  });
}
