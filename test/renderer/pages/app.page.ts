// The app's renderer with a stand-in window.fieldmap. A stand-in, because this page tests the
// renderer alone at 100k customers (the e2e harness drives the real main services instead).
// URL parameters: n (customers in the snapshot main "holds"), seed, xss (customer c0 gets an
// HTML-looking name), dup (the id of customer `dup` listed again at the end, as the PHP service
// may list one, the copy named "Last copy"). Every invoke is recorded in `fake.calls`; `fake.emit` sends an event, the
// road's (src-shared/data-road.ts) on the road, through the page, as main does before the cache
// worker listens on its own channel.
import { mount } from 'svelte';
import App from '../../../src-renderer/src/app/App.svelte';
import { AppController } from '../../../src-renderer/src/app/app-controller.svelte';
import { buildFieldmapApi } from '../../../src-preload/bridge';
import {
  invokeChannels,
  type AccountSummary,
  type EventChannel,
  type EventOf,
  type FieldmapApi,
  type InvokeChannel,
  type RequestOf,
  type ResponseOf,
} from '../../../src-shared';
import { Road, roadEmitter } from '../../../src-shared/data-road';
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
/** The page's error reports, as main would receive them. */
const reports: unknown[] = [];
/** Snapshots main sent when the page opened its road. */
let snapshotsSent = 0;

function deliver(event: EventChannel, payload: unknown): void {
  for (const listener of listeners.get(event) ?? []) listener(payload);
}
/** The next road message is lost on its way (`fake.loseNext()`): a gap the worker waits out. */
let loseNext = false;
const road = new Road({
  direct: () => null,
  viaPage: (message) => {
    if (loseNext) loseNext = false;
    else deliver('data:road', message);
  },
});
const main = roadEmitter(deliver, () => [road]);

function emit<E extends EventChannel>(event: E, payload: EventOf<E>): void {
  main(event, payload);
}

function snapshot(): EventOf<'data:snapshot'> {
  const customers = makeCustomers(n, seed);
  if (params.has('xss') && customers[0]) {
    customers[0].name = XSS;
    customers[0].company = `${XSS} & <b>Co</b>`;
    customers[0].groups = [XSS];
  }
  const dup = customers[Number(params.get('dup') ?? NaN)];
  if (dup) customers.push({ ...dup, name: 'Last copy' });
  return {
    accountKey: account.accountKey,
    pulledAt: 1_700_000_000_000,
    user: makeUser(),
    customers,
    routes: makePlaces('route', 3),
    territories: makePlaces('territory', 2),
  };
}

const basemapSettings = {
  onlineStyleUrl: null,
  defaultOnlineStyleUrl: null,
  cacheCapBytes: 512 * 1024 * 1024,
  cacheUsedBytes: 0,
  cacheEntries: 0,
  filePicker: false,
  regionSourceUrl: null,
  adminRegionSource: null,
  dailyBuilds: false,
};

/** Main's answers, typed by the contract: each is the response its channel's schema allows. */
const answers: { [C in InvokeChannel]?: (request: RequestOf<C>) => ResponseOf<C> } = {
  'session:current': () => account,
  // Main's local state the shell of the app reads at start: no regions, no imports, default map settings.
  'regions:list': () => [],
  'import:list': () => [],
  'basemap:settings': () => basemapSettings,
  // ?notice=crashed: main reloaded this page after a crash (the shell's renderer watch).
  'shell:take-notice': () =>
    params.get('notice') === 'crashed' ? { kind: 'crashed', at: 1_700_000_000_000 } : null,
  'conflicts:list': () => [],
  'log:renderer-error': (report) => {
    reports.push(report);
    return true;
  },
  // As main does: its state first on the new road, then its snapshot unless the page's cache
  // holds it already (the same account, pulled no later).
  'data:open': ({ accountKey, newerThan }) => {
    main.openRoad();
    emit('session:changed', account);
    emit('sync:state', { kind: 'synced', at: 1_700_000_000_000 });
    emit('outbox:changed', { accountKey: account.accountKey, ops: [] });
    const sending = snapshot();
    const held = accountKey === account.accountKey ? newerThan : null;
    if (held !== null && sending.pulledAt <= held) return true;
    snapshotsSent++;
    setTimeout(() => emit('data:snapshot', sending), 0);
    return true;
  },
};

function answer<C extends InvokeChannel>(channel: C, request: RequestOf<C>): unknown {
  const reply = answers[channel] as ((request: RequestOf<C>) => ResponseOf<C>) | undefined;
  // Any other call: main answers null, as a main with nothing to say would.
  return reply ? reply(request) : null;
}

// The same bridge the preload builds, over an in-page transport: its methods and `on` come
// from the contract's tables, so the fake cannot drift from window.fieldmap's shape.
const api: FieldmapApi = buildFieldmapApi(
  async (channel, request) => {
    calls.push(invokeChannels[channel].method);
    return { ok: true, value: answer(channel, request as RequestOf<typeof channel>) };
  },
  (event, listener) => {
    const set = listeners.get(event) ?? new Set();
    set.add(listener);
    listeners.set(event, set);
    return () => set.delete(listener);
  },
);

const app = new AppController(api);
(globalThis as unknown as { fake: unknown }).fake = {
  calls,
  reports,
  emit,
  loseNext: () => (loseNext = true),
  app,
  account,
  XSS,
  get snapshotsSent() {
    return snapshotsSent;
  },
};
app.start();
mount(App, { target: document.getElementById('app')!, props: { app } });
