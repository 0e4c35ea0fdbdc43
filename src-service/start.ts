// The reference Customer Mapping Service on Node's http(s) server, with or without the hooks tests
// add (injected faults, held requests). The product's demo starts it without them (./demo.ts),
// so the shipped main bundle carries no fault injection or gates; tests start it from ./index.ts.
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { AllowList, LOOPBACK_ALLOW } from './allow-list';
import { DebouncedSaver, loadSnapshot, saveSnapshot } from './persistence';
import { FailedSignInThrottle, SlidingWindowLimiter } from './rate-limit';
import { requestListener, type PipelineState } from './server';
import { DEFAULT_ACCOUNTS, ServiceStore } from './store';
import type { TestHooks } from './test-hooks';
import { selfSignedCertificate, type TlsMaterial } from './tls';
import { DEFAULT_VARIANTS, type RunningService, type ServiceOptions } from './types';
import { checkVariants } from './variants';

export const DEFAULT_RATE = 3;

function seedStore(store: ServiceStore, options: ServiceOptions): void {
  const seed = options.seed ?? 1;
  (options.accounts ?? DEFAULT_ACCOUNTS).forEach((spec, i) => store.addAccount(spec, seed + i));
}

/** Starts the service with `hooks` (null: none); resolves once it is listening. */
export async function startServiceWith(
  options: ServiceOptions,
  hooks: TestHooks | null,
): Promise<RunningService> {
  const store = (options.store as ServiceStore | undefined) ?? new ServiceStore();
  if (options.store && !(options.store instanceof ServiceStore)) {
    throw new Error('startService: options.store must come from a previous startService');
  }
  let saver: DebouncedSaver | undefined;
  if (options.dataFile) {
    const loaded = !options.store && loadSnapshot(store, options.dataFile);
    if (!options.store && !loaded) seedStore(store, options);
    saveSnapshot(store, options.dataFile);
    saver = new DebouncedSaver(store, options.dataFile);
    const s = saver;
    store.onChange = () => s.markDirty();
  } else if (!options.store) {
    seedStore(store, options);
  }

  const variants = { ...DEFAULT_VARIANTS, ...checkVariants(options.variants ?? {}) };
  store.variants = variants;
  const state: PipelineState = {
    store,
    variants,
    allow: new AllowList(options.allow ?? LOOPBACK_ALLOW),
    limiter: new SlidingWindowLimiter(options.rate ?? DEFAULT_RATE, () =>
      (options.clock ?? Date).now(),
    ),
    hooks,
    signIns: new FailedSignInThrottle(() => (options.clock ?? Date).now()),
    stats: { requests: 0, rateLimited: 0, passwordChecks: 0 },
    customerPosts: {},
    customerPuts: {},
  };

  let tls: TlsMaterial | undefined;
  if (options.tls === true) tls = await selfSignedCertificate();
  else if (options.tls) tls = options.tls;
  const listener = requestListener(state);
  const server: Server = tls ? createHttpsServer(tls, listener) : createHttpServer(listener);
  server.keepAliveTimeout = 5_000;

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  let stopped: Promise<void> | undefined;
  const testHooks = (): TestHooks => {
    if (!hooks) throw new Error('this service was started without test hooks (faults, gates)');
    return hooks;
  };
  return {
    url: `${tls ? 'https' : 'http'}://${urlHost}:${port}`,
    port,
    store,
    cert: tls?.cert,
    configure(p) {
      if (p.variants) Object.assign(variants, checkVariants(p.variants, variants));
      if (p.faults) testHooks().faults.configure(p.faults);
      if (p.allow) state.allow = new AllowList(p.allow);
      if (p.rate !== undefined) state.limiter.rate = p.rate;
    },
    hold: (method, path, at) => testHooks().gates.hold(method, path, at),
    stats: () => ({ ...state.stats }),
    customerPosts: () => ({ ...state.customerPosts }),
    customerPuts: () => ({ ...state.customerPuts }),
    resetStats() {
      state.stats.requests = 0;
      state.stats.rateLimited = 0;
      state.stats.passwordChecks = 0;
      state.customerPosts = {};
      state.customerPuts = {};
    },
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(() => {
        saver?.flush();
        if (saver) store.onChange = undefined;
      });
      return stopped;
    },
  };
}
