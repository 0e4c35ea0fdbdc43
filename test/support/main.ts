// Shared set-up of the app-layer suites: the reference service over real HTTP on loopback, a
// temp data dir, the real keychain (gnome-keyring under `npm test`'s D-Bus session) in a
// namespace of its own, and main's services driven through the real IPC router.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {
  EventChannel,
  InvokeChannel,
  IpcResult,
  RequestOf,
  ResponseOf,
} from '../../src-shared/ipc-contract';
import {
  createMainServices,
  type MainServices,
  type MainServicesOptions,
} from '../../src-main/app/main-services';
import { KeytarCredentialStore } from '../../src-main/core/service/credential-store';
import type { EmitEvent } from '../../src-main/core/ports';
import { APP_ORIGIN, createIpcRouter, topFrameOfOrigins } from '../../src-main/ipc/handle';
import { testBoundMs } from './until';

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

/** Every file under `dir`, recursively, with its bytes. */
export async function filesUnder(dir: string): Promise<Array<{ path: string; content: Buffer }>> {
  const out: Array<{ path: string; content: Buffer }> = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out.push({ path, content: await readFile(path) });
  }
  return out;
}
