// The browser runner with main's services in a child Node process of their own (child-main.ts)
// and the page driven from this one over CDP: what the child holds is main's memory alone, as
// Electron's main process is on a rep's laptop, without this process's Playwright client, test
// or bench. The child still holds the playwright-core client that launched Chromium and serves
// the renderer's files, which Electron's main has not (the scale bench says its size).
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { CredentialStore } from '../../src-main/core/ports';
import type { ConfirmLocalAddress } from '../../src-main/app/basemap-handlers';
import type { ReminderNotice } from '../../src-main/core/reminders/reminder-schedule';
import type { ChildLaunchOptions, ChildMemory } from './child-main';
import { rpcPeer, type Channel } from './child-rpc';
import { RUNNER_ORIGIN } from './renderer-files';
import { pageInitScript } from './page-script';

export type { ChildMemory };

export interface ChildLaunch extends ChildLaunchOptions {
  credentialStore: CredentialStore;
  confirmLocalAddress?: ConfirmLocalAddress;
  openExternal?: (url: string) => Promise<void>;
  observeNotifications?: (notice: ReminderNotice, click: () => void) => void;
}

export interface ChildApp {
  readonly page: Page;
  readonly context: BrowserContext;
  /** The child's pid: main's process, for its RSS (/proc/<pid>/status). */
  readonly pid: number;
  setOffline(offline: boolean): Promise<void>;
  /** The child's own account of its memory (`collect`: after a full GC, with --expose-gc). */
  memory(collect?: boolean): Promise<ChildMemory>;
  /** Writes a heap snapshot of the child to `path`. */
  heapSnapshot(path: string): Promise<string>;
  close(): Promise<void>;
}

export async function launchAppInChild(options: ChildLaunch): Promise<ChildApp> {
  const { credentialStore, confirmLocalAddress, openExternal, observeNotifications, ...json } =
    options;
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const child = fork(fileURLToPath(new URL('./child-main.ts', import.meta.url)), [], {
    cwd: root,
    execArgv: [
      '--import',
      'tsx',
      ...(process.env['FIELDMAP_MAIN_EXPOSE_GC'] ? ['--expose-gc'] : []),
      // A diagnosis: V8 flags for main's process alone (e.g. how its heap grows).
      ...(process.env['FIELDMAP_MAIN_V8_FLAGS']?.split(' ').filter(Boolean) ?? []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const peer = rpcPeer(child as unknown as Channel, {
    'credentials.save': (b: string, u: string, p: string) => credentialStore.save(b, u, p),
    'credentials.load': (b: string, u: string) => credentialStore.load(b, u),
    'credentials.delete': (b: string, u: string) => credentialStore.delete(b, u),
    'credentials.list': () => credentialStore.list(),
    confirmLocalAddress: (request: Parameters<ConfirmLocalAddress>[0]) =>
      confirmLocalAddress ? confirmLocalAddress(request) : false,
    openExternal: (url: string) => openExternal?.(url),
    notified: (notice: ReminderNotice, id: number) =>
      observeNotifications?.(notice, () => void peer.call('clickNotification', id)),
  });
  child.once('exit', (code) => peer.fail(new Error(`main's child process exited (${code})`)));
  let browser: Browser | null = null;
  try {
    // Bundled here: vite would stay in main's memory, where Electron's main has none.
    const initScript = json.initScript ?? (await pageInitScript());
    const endpoint = await peer.call<string>('launch', { ...json, initScript });
    browser = await chromium.connectOverCDP(endpoint);
    const context = browser.contexts()[0];
    const page = context?.pages().find((p) => p.url().startsWith(RUNNER_ORIGIN));
    if (!context || !page) throw new Error(`no app page at ${endpoint}`);
    if (options.waitLimitMs !== undefined) {
      context.setDefaultTimeout(options.waitLimitMs);
      context.setDefaultNavigationTimeout(options.waitLimitMs);
    }
    const connected = browser;
    return {
      page,
      context,
      pid: child.pid!,
      setOffline: (offline) => peer.call('setOffline', offline),
      memory: (collect = false) => peer.call<ChildMemory>('memory', collect),
      heapSnapshot: (path) => peer.call<string>('heapSnapshot', path),
      async close() {
        await peer.call('close').catch(() => undefined);
        await exited;
        await connected.close().catch(() => undefined);
      },
    };
  } catch (error) {
    await browser?.close().catch(() => undefined);
    child.kill('SIGTERM');
    await exited;
    throw error;
  }
}
