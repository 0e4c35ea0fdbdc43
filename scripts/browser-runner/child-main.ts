// The child process of child-process.ts: main's services (launch.ts) alone in a Node process, as
// Electron's main is, so what it holds can be measured by its pid. Started by fork with an IPC
// channel; what cannot cross a process (the credential store, the answers given for the rep)
// is called back in the parent.
import { writeHeapSnapshot, getHeapStatistics, getHeapSpaceStatistics } from 'node:v8';
import type { CredentialStore } from '../../src-main/core/ports';
import { launchApp, type LaunchOptions, type RunningApp } from './launch';
import { rpcPeer, type Channel } from './child-rpc';

/** The options that cross as JSON (initScript: the parent bundles it); the rest are called back. */
export type ChildLaunchOptions = Omit<
  LaunchOptions,
  | 'credentialStore'
  | 'confirmLocalAddress'
  | 'openExternal'
  | 'observeNotifications'
  | 'pickFile'
  | 'log'
  | 'dailyBuilds'
  | 'debuggingPort'
>;

/** What the child's memory() answers: this process's, in bytes. */
export interface ChildMemory {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  heapTotal: number;
  /** V8's spaces: bytes used of each (a diagnosis of what main holds). */
  spaces: Record<string, number>;
}

if (!process.send) throw new Error('child-main.ts runs under fork (child-process.ts) only');
const channel = process as unknown as Channel;
let app: RunningApp | null = null;
const clicks = new Map<number, () => void>();
let seq = 0;

const peer = rpcPeer(channel, {
  async launch(options: ChildLaunchOptions): Promise<string> {
    const credentialStore: CredentialStore = {
      save: (...args) => peer.call('credentials.save', ...args),
      load: (...args) => peer.call('credentials.load', ...args),
      delete: (...args) => peer.call('credentials.delete', ...args),
      list: () => peer.call('credentials.list'),
    };
    app = await launchApp({
      ...options,
      credentialStore,
      debuggingPort: true,
      dailyBuilds: null,
      log: () => undefined,
      confirmLocalAddress: (request) => peer.call<boolean>('confirmLocalAddress', request),
      openExternal: (url) => peer.call('openExternal', url),
      observeNotifications: (notice, click) => {
        clicks.set(++seq, click);
        void peer.call('notified', notice, seq);
      },
    });
    return app.cdpEndpoint!;
  },
  setOffline: (offline: boolean) => app?.setOffline(offline),
  clickNotification: (id: number) => clicks.get(id)?.(),
  memory(collect = false): ChildMemory {
    // A full collection first, when asked and the child runs with --expose-gc (a diagnosis:
    // FIELDMAP_MAIN_EXPOSE_GC=1), so what is left is what main holds live.
    const gc = (globalThis as { gc?: () => void }).gc;
    if (collect) gc?.();
    const m = process.memoryUsage();
    return {
      rss: m.rss,
      heapUsed: m.heapUsed,
      external: m.external,
      arrayBuffers: m.arrayBuffers,
      heapTotal: getHeapStatistics().total_heap_size,
      spaces: Object.fromEntries(
        getHeapSpaceStatistics().map((s) => [s.space_name, s.space_used_size]),
      ),
    };
  },
  /** A heap snapshot written to `path` (a diagnosis of what main holds). */
  heapSnapshot: (path: string) => writeHeapSnapshot(path),
  async close() {
    const current = app;
    app = null;
    await current?.close();
    // Exits once the answer is sent: nothing of this process outlives its app.
    setImmediate(() => process.exit(0));
  },
});
process.on('disconnect', () => process.exit(0));
