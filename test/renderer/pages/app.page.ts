// The app's renderer with a stand-in window.fieldmap. A stand-in, because this page tests the
// renderer alone at 100k customers (the e2e harness drives the real main services instead).
// URL parameters: n (customers in the snapshot main "holds"), seed, xss (customer c0 gets an
// HTML-looking name). Every invoke is recorded in `fake.calls`; `fake.emit` sends an event.
import { mount } from 'svelte';
import App from '../../../src-renderer/src/app/App.svelte';
import { AppController } from '../../../src-renderer/src/app/app-controller.svelte';
import type { AccountSummary, EventChannel, EventOf, FieldmapApi } from '../../../src-shared';
import { makeCustomers, makePlaces, makeUser } from './fixtures';

const params = new URLSearchParams(location.search);
const n = Number(params.get('n') ?? 1000);
const seed = Number(params.get('seed') ?? 1);
export const XSS = '<img src=x onerror=alert(1)>';

const account: AccountSummary = {
  accountKey: 'http://127.0.0.1:1#fake',
  baseUrl: 'http://127.0.0.1:1',
  username: 'fake',
  demo: false,
};

const listeners = new Map<string, Set<(payload: unknown) => void>>();
const calls: string[] = [];

function emit<E extends EventChannel>(event: E, payload: EventOf<E>): void {
  for (const listener of listeners.get(event) ?? []) listener(payload);
}

function snapshot(): EventOf<'data:snapshot'> {
  const customers = makeCustomers(n, seed);
  if (params.has('xss') && customers[0]) {
    customers[0].name = XSS;
    customers[0].company = `${XSS} & <b>Co</b>`;
    customers[0].groups = [XSS];
  }
  return {
    accountKey: account.accountKey,
    pulledAt: 1_700_000_000_000,
    user: makeUser(),
    customers,
    routes: makePlaces('route', 3),
    territories: makePlaces('territory', 2),
  };
}

const answers: Record<string, () => unknown> = {
  currentAccount: () => account,
  // Main's local state the shell of the app reads at start: no regions, no imports, default map settings.
  listRegions: () => [],
  listImports: () => [],
  basemapSettings: () => ({
    onlineStyleUrl: null,
    cacheCapBytes: 512 * 1024 * 1024,
    cacheUsedBytes: 0,
    cacheEntries: 0,
    filePicker: false,
  }),
  requestSnapshot: () => {
    setTimeout(() => emit('data:snapshot', snapshot()), 0);
    return true;
  },
};

const api = new Proxy(
  {
    on(event: string, listener: (payload: unknown) => void) {
      const set = listeners.get(event) ?? new Set();
      set.add(listener);
      listeners.set(event, set);
      return () => set.delete(listener);
    },
  },
  {
    get(target, method: string) {
      if (method === 'on') return target.on;
      return async () => {
        calls.push(method);
        return answers[method]?.() ?? null;
      };
    },
  },
) as unknown as FieldmapApi;

const app = new AppController(api);
(globalThis as unknown as { fake: unknown }).fake = { calls, emit, app, account, XSS };
app.start();
mount(App, { target: document.getElementById('app')!, props: { app } });
