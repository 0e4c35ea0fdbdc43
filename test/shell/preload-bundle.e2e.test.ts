// The built preload (out/preload/index.cjs) as a sandboxed renderer would load it: one CommonJS
// file whose only require is electron, exposing exactly window.fieldmap. Loaded in a vm context
// with a fake contextBridge/ipcRenderer, because no Electron binary can run here.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventChannels, invokeChannels } from '../../src-shared/ipc-contract';

const root = join(import.meta.dirname, '..', '..');
const bundle = join(root, 'out', 'preload', 'index.cjs');
const sources = ['src-preload/preload.ts', 'src-preload/bridge.ts', 'src-shared/ipc-contract.ts'];

beforeAll(() => {
  // `npm test` builds first. A lone run builds when the bundle is missing; a stale bundle is only
  // reported, because rebuilding out/ here could pull files from under suites running alongside.
  if (!existsSync(bundle)) {
    execFileSync('npx', ['electron-vite', 'build'], { cwd: root, stdio: 'ignore' });
  } else if (
    sources.some((file) => statSync(join(root, file)).mtimeMs > statSync(bundle).mtimeMs)
  ) {
    console.warn('out/preload/index.cjs is older than its sources: run `npx electron-vite build`');
  }
});

interface Loaded {
  required: string[];
  exposed: Array<{ key: string; api: Record<string, unknown> }>;
  invoked: Array<{ channel: string; request: unknown }>;
  ipcListeners: Map<string, Set<(...args: unknown[]) => void>>;
}

function loadPreload(userActive: boolean): Loaded {
  const loaded: Loaded = { required: [], exposed: [], invoked: [], ipcListeners: new Map() };
  const electron = {
    contextBridge: {
      exposeInMainWorld(key: string, api: Record<string, unknown>) {
        loaded.exposed.push({ key, api });
      },
    },
    ipcRenderer: {
      invoke(channel: string, request: unknown) {
        loaded.invoked.push({ channel, request });
        if (channel === 'sync:now') {
          const error = { kind: 'Offline', message: 'No connection to the service.' };
          return Promise.resolve({ ok: false, error });
        }
        return Promise.resolve({ ok: true, value: `answer of ${channel}` });
      },
      on(channel: string, listener: (...args: unknown[]) => void) {
        const set = loaded.ipcListeners.get(channel) ?? new Set();
        set.add(listener);
        loaded.ipcListeners.set(channel, set);
      },
      removeListener(channel: string, listener: (...args: unknown[]) => void) {
        loaded.ipcListeners.get(channel)?.delete(listener);
      },
    },
  };
  const module = { exports: {} };
  const sandbox = {
    module,
    exports: module.exports,
    navigator: { userActivation: { isActive: userActive } },
    require(name: string) {
      loaded.required.push(name);
      if (name === 'electron') return electron;
      throw new Error(`a sandboxed preload cannot require ${name}`);
    },
  };
  runInNewContext(readFileSync(bundle, 'utf8'), sandbox, { filename: bundle });
  return loaded;
}

describe('built preload', () => {
  it('requires nothing but electron and exposes only window.fieldmap, frozen', () => {
    const loaded = loadPreload(false);
    expect([...new Set(loaded.required)]).toEqual(['electron']);
    expect(loaded.exposed.map((e) => e.key)).toEqual(['fieldmap']);
    const api = loaded.exposed[0]!.api;
    expect(Object.isFrozen(api)).toBe(true);
    const methods = Object.values(invokeChannels).map((c) => c.method);
    expect(Object.keys(api).sort()).toEqual([...methods, 'on'].sort());
    for (const capability of ['ipcRenderer', 'invoke', 'send', 'sendSync', 'require']) {
      expect(api[capability], capability).toBeUndefined();
    }
  });

  it('methods invoke their channel and unwrap the answer', async () => {
    const loaded = loadPreload(false);
    const api = loaded.exposed[0]!.api as Record<string, (request?: unknown) => Promise<unknown>>;
    expect(await api.listAccounts!()).toBe('answer of accounts:list');
    await api.retryOp!({ opId: 'op-1' });
    expect(loaded.invoked).toEqual([
      { channel: 'accounts:list', request: undefined },
      { channel: 'outbox:retry', request: { opId: 'op-1' } },
    ]);
  });

  it('a refused call rejects with data that survives the contextBridge copy', async () => {
    const loaded = loadPreload(false);
    const api = loaded.exposed[0]!.api as Record<string, () => Promise<unknown>>;
    const rejected = await api.syncNow!().catch((e: unknown) => e);
    // contextBridge copies values like structured clone: an Error would keep only its message.
    expect(structuredClone(rejected)).toEqual({
      name: 'FieldmapError',
      message: 'No connection to the service.',
      info: { kind: 'Offline', message: 'No connection to the service.' },
    });
  });

  it('openExternal reports navigator.userActivation from the page', async () => {
    for (const active of [true, false]) {
      const loaded = loadPreload(active);
      const api = loaded.exposed[0]!.api as Record<string, (request?: unknown) => Promise<unknown>>;
      await api.openExternal!({ url: 'https://example.com/' });
      expect(loaded.invoked[0]).toEqual({
        channel: 'shell:open-external',
        request: { url: 'https://example.com/', userActivated: active },
      });
    }
  });

  it('listeners receive the payload only, never the IPC event, and can unsubscribe', () => {
    const loaded = loadPreload(false);
    const api = loaded.exposed[0]!.api as {
      on: (event: string, l: (...a: unknown[]) => void) => () => void;
    };
    const got: unknown[][] = [];
    const off = api.on('sync:state', (...args) => got.push(args));
    const ipcEvent = { sender: { send: () => {} }, ports: [] };
    for (const listener of loaded.ipcListeners.get('sync:state') ?? [])
      listener(ipcEvent, { kind: 'signed-out' });
    expect(got).toEqual([[{ kind: 'signed-out' }]]);
    off();
    expect(loaded.ipcListeners.get('sync:state')?.size).toBe(0);
    expect(() => api.on('not-an-event', () => {})).toThrow();
    expect(Object.keys(eventChannels)).toContain('sync:state');
  });
});
