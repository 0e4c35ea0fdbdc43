// Main's services as tests drive them, in this process against the reference service over
// loopback HTTP: startApp (the whole of main through the real IPC router, a temp data dir, the
// real keychain in a namespace of its own) and the sync engine wired to the real client, limiter
// and outbox (SyncHarness).
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import type {
  EventChannel,
  InvokeChannel,
  IpcResult,
  RequestOf,
  ResponseOf,
  EventOf,
} from '../../src-shared/ipc-contract';
import {
  createMainServices,
  type MainServices,
  type MainServicesOptions,
} from '../../src-main/app/main-services';
import { KeytarCredentialStore } from '../../src-main/core/service/credential-store';
import { APP_ORIGIN, createIpcRouter, topFrameOfOrigins } from '../../src-main/ipc/handle';
import { testBoundMs } from './until';
import { SkippingClock } from './clock';
import { emptyCustomerFields, type Customer, type CustomerFields } from '../../src-shared/domain';
import type { SyncState } from '../../src-shared/sync-state';
import { Outbox } from '../../src-main/core/outbox/outbox';
import type { EmitEvent } from '../../src-main/core/ports';
import { RateLimiter } from '../../src-main/core/service/rate-limiter';
import { ServiceClient } from '../../src-main/core/service/client';
import { SyncEngine, type SyncEngineOptions } from '../../src-main/core/sync/engine';
import {
  startService,
  type Faults,
  type RunningService,
  type Variants,
} from '../../src-service/index';

/** Keychain tests need the Secret Service that scripts/test.sh starts. */
export const HAS_KEYCHAIN = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS);

export interface RecordedEvent {
  event: EventChannel;
  payload: unknown;
}

export interface AppUnderTest {
  services: MainServices;
  dataDir: string;
  store: KeytarCredentialStore;
  events: RecordedEvent[];
  /** Every IPC answer seen, serialised as it would cross IPC. */
  answers: string[];
  call<C extends InvokeChannel>(
    channel: C,
    request?: RequestOf<C>,
  ): Promise<IpcResult<ResponseOf<C>>>;
  ok<C extends InvokeChannel>(channel: C, request?: RequestOf<C>): Promise<ResponseOf<C>>;
  /** Waits for the first recorded event matching `test` (checks past events first). */
  waitForEvent<T>(
    event: EventChannel,
    test?: (payload: T) => boolean,
    timeoutMs?: number,
  ): Promise<T>;
  restart(overrides?: Partial<MainServicesOptions>): Promise<void>;
  dispose(): Promise<void>;
}

export async function startApp(
  overrides: Partial<MainServicesOptions> = {},
): Promise<AppUnderTest> {
  const dataDir = await mkdtemp(join(tmpdir(), 'fieldmap-app-'));
  const store = new KeytarCredentialStore({
    service: `fieldmap-test-app-${process.pid}-${Math.random().toString(36).slice(2)}`,
  });
  const events: RecordedEvent[] = [];
  const waiters = new Set<() => void>();
  const emit: EmitEvent = (event, payload) => {
    // What crosses IPC is a structured clone: record exactly that.
    events.push({ event, payload: structuredClone(payload) });
    for (const wake of waiters) wake();
  };
  // A page's new road ('data:open'): main's state and its last snapshot follow as events.
  emit.openRoad = () => undefined;
  const answers: string[] = [];
  const build = (extra: Partial<MainServicesOptions>) =>
    createMainServices({
      dataDir,
      emit,
      credentialStore: store,
      demo: false,
      syncPeriodMs: 600_000,
      // The service under test runs without a rate limit; the limiter is not what these suites test.
      limiterRate: 20,
      ...overrides,
      ...extra,
    });
  let services = await build({});
  const sender = { url: `${APP_ORIGIN}/index.html`, isTopFrame: true };
  const router = () =>
    createIpcRouter(services.handlers, {
      isTrustedSender: topFrameOfOrigins([APP_ORIGIN]),
      log: () => undefined,
    });

  const app: AppUnderTest = {
    get services() {
      return services;
    },
    dataDir,
    store,
    events,
    answers,
    async call(channel, request) {
      const result = await router().dispatch(channel, sender, request);
      answers.push(JSON.stringify(result));
      return result as IpcResult<never>;
    },
    async ok(channel, request) {
      const result = await app.call(channel, request);
      if (!result.ok) throw new Error(`${channel} failed: ${JSON.stringify(result.error)}`);
      return result.value;
    },
    waitForEvent<T>(
      event: EventChannel,
      test: (payload: T) => boolean = () => true,
      timeoutMs = testBoundMs(),
    ) {
      return new Promise<T>((resolve, reject) => {
        const check = () => {
          const hit = events.find((e) => e.event === event && test(e.payload as T));
          if (!hit) return false;
          waiters.delete(wake);
          clearTimeout(timer);
          resolve(hit.payload as T);
          return true;
        };
        const wake = () => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`no ${event} event within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(wake);
        check();
      });
    },
    async restart(extra = {}) {
      await services.dispose();
      services = await build(extra);
    },
    async dispose() {
      await services.dispose();
      for (const { baseUrl, username } of await store.list()) await store.delete(baseUrl, username);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return app;
}

/**
 * Every file under `dir`, recursively, with its bytes. A file gone between the listing and its
 * read was a write's temp file, renamed over its target meanwhile (read under its own name).
 */
export async function filesUnder(dir: string): Promise<Array<{ path: string; content: Buffer }>> {
  const out: Array<{ path: string; content: Buffer }> = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const content = await readFile(path).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && path.endsWith('.tmp')) return null;
      throw error;
    });
    if (content) out.push({ path, content });
  }
  return out;
}

// A sync engine wired to real parts: the reference service over HTTP on loopback, the real
// ServiceClient and RateLimiter, the real Outbox on a temp dir. Events are recorded in a list
// (the renderer that would receive them cannot run here).
export const USER = 'rep';
const PASSWORD = 'rep-password';

export interface HarnessOptions {
  customers?: number;
  seed?: number;
  /** Service rate (requests/s); 0 = unlimited. */
  rate?: number;
  /** Client limiter rate (requests/s). */
  clientRate?: number;
  variants?: Partial<Variants>;
  faults?: Partial<Faults>;
  engine?: Partial<SyncEngineOptions>;
  /** The client's retry backoff (default 100 ms doubling to 1 s). */
  clientBackoff?: { baseMs: number; capMs: number };
  /** The password the client sends (default: the account's). */
  password?: string;
  /** The client's timeout per request (default: the test's bound; give one where it is the subject). */
  clientTimeoutMs?: number;
}

/** Tests wait this little before a lost create's absence counts as proven (the app: minutes). */
export const TEST_ABSENCE_GRACE_MS = 300;

export type Recorded = { [E in EventChannel]: { event: E; payload: EventOf<E> } }[EventChannel];

export class Harness {
  events: Recorded[] = [];
  engine!: SyncEngine;
  outbox!: Outbox;
  client!: ServiceClient;
  readonly accountKey: string;
  /** The engine's clock unless a test gives its own: real time that `drain` can skip ahead. */
  readonly clock = new SkippingClock();

  private constructor(
    readonly service: RunningService,
    readonly dir: string,
    private readonly options: HarnessOptions,
  ) {
    this.accountKey = `${service.url}#${USER}`;
  }

  static async start(options: HarnessOptions = {}): Promise<Harness> {
    const service = await startService({
      rate: options.rate ?? 0,
      accounts: [
        {
          username: USER,
          password: PASSWORD,
          customers: options.customers ?? 12,
          seed: options.seed ?? 7,
        },
      ],
      variants: options.variants ?? {},
      faults: options.faults ?? {},
    });
    const dir = await mkdtemp(path.join(tmpdir(), 'fieldmap-sync-it-'));
    const h = new Harness(service, dir, options);
    await h.open();
    return h;
  }

  /** Opens (or reopens, after close) client, outbox and engine on the same dir. */
  async open(engine: Partial<SyncEngineOptions> = {}): Promise<void> {
    const limiter = new RateLimiter({ limit: this.options.clientRate ?? 500, marginMs: 5 });
    this.client = new ServiceClient({
      baseUrl: this.service.url,
      username: USER,
      getPassword: async () => this.options.password ?? PASSWORD,
      limiter,
      timeoutMs: this.options.clientTimeoutMs ?? testBoundMs(),
      backoff: this.options.clientBackoff ?? { baseMs: 100, capMs: 1_000 },
    });
    this.outbox = await Outbox.open({
      dir: path.join(this.dir, 'outbox'),
      accountKey: this.accountKey,
    });
    const emit: EmitEvent = (event, payload) => {
      this.events.push({ event, payload } as Recorded);
    };
    this.engine = new SyncEngine({
      accountKey: this.accountKey,
      api: this.client,
      outbox: this.outbox,
      clock: this.clock,
      emit,
      stateDir: path.join(this.dir, 'state'),
      retryBackoff: { initialMs: 10, maxMs: 50, factor: 2 },
      probeBackoff: { initialMs: 10, maxMs: 50, factor: 2 },
      ratePerSecond: this.options.clientRate ?? 500,
      // The machine's load and this process's CPU time are not the tests' to read: the time
      // left would move with them. A test of the list's wait gives its own CPU clock.
      load: () => 1,
      cpuMs: null,
      push: { absenceGraceMs: TEST_ABSENCE_GRACE_MS },
      ...this.options.engine,
      ...engine,
    });
  }

  async close(): Promise<void> {
    await this.engine.stop();
    await this.outbox.close();
  }

  async dispose(): Promise<void> {
    await this.close().catch(() => undefined);
    await this.service.stop();
    await rm(this.dir, { recursive: true, force: true });
  }

  /** Syncs until the outbox holds nothing it can still send (a bounded loop). */
  async drain(maxSyncs = 10): Promise<SyncState> {
    let state = await this.engine.syncNow();
    for (let i = 1; i < maxSyncs; i++) {
      const left = this.outbox.list();
      if (left.every((op) => op.state === 'needs-attention')) break;
      // A create left in flight is settled by a sync only after its absence grace: the engine's
      // clock moves past it (a sleep here made every such drain wait on real time).
      if (left.some((op) => op.state === 'in-flight')) this.clock.skip(this.absenceGraceMs);
      state = await this.engine.syncNow();
    }
    return state;
  }

  get absenceGraceMs(): number {
    return this.options.engine?.push?.absenceGraceMs ?? TEST_ABSENCE_GRACE_MS;
  }

  of<E extends EventChannel>(event: E): EventOf<E>[] {
    return this.events.filter((e) => e.event === event).map((e) => e.payload as EventOf<E>);
  }

  serverCustomers(): Customer[] {
    return this.service.store.customers(USER);
  }

  /** The server record of an existing customer, as the rep's edit base. */
  base(id: string): Customer {
    const c = this.service.store.customer(USER, id);
    if (!c) throw new Error(`no customer ${id}`);
    return structuredClone(c);
  }

  /** Ids the engine resolved, by temp id. */
  resolvedIds(): Map<string, string> {
    return new Map(this.of('ids:resolved').map((e) => [e.tempId, e.id]));
  }
}

export function newFields(name: string, extra: Partial<CustomerFields> = {}): CustomerFields {
  return { ...emptyCustomerFields(), name, ...extra };
}

export function tempId(n: number): string {
  const hex = n.toString(16).padStart(12, '0');
  return `tmp_00000000-0000-4000-8000-${hex}`;
}
