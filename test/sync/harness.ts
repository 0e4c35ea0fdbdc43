// A sync engine wired to real parts: the reference service over HTTP on loopback, the real
// ServiceClient and RateLimiter, the real Outbox on a temp dir. Events are recorded in a list
// (the renderer that would receive them cannot run here).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { emptyCustomerFields, type Customer, type CustomerFields } from '../../src-shared/domain';
import type { EventChannel, EventOf } from '../../src-shared/ipc-contract';
import type { SyncState } from '../../src-shared/sync-state';
import { Outbox } from '../../src-main/core/outbox/outbox';
import { systemClock, type EmitEvent } from '../../src-main/core/ports';
import { testBoundMs } from '../support/until';
import { RateLimiter } from '../../src-main/core/service/rate-limiter';
import { ServiceClient } from '../../src-main/core/service/client';
import { SyncEngine, type SyncEngineOptions } from '../../src-main/core/sync/engine';
import {
  startService,
  type Faults,
  type RunningService,
  type Variants,
} from '../../src-service/index';

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
      clock: systemClock,
      emit,
      stateDir: path.join(this.dir, 'state'),
      retryBackoff: { initialMs: 10, maxMs: 50, factor: 2 },
      probeBackoff: { initialMs: 10, maxMs: 50, factor: 2 },
      ratePerSecond: this.options.clientRate ?? 500,
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
      // A create left in flight waits for its absence grace before a sync can settle it.
      if (left.some((op) => op.state === 'in-flight')) await sleep(this.absenceGraceMs);
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
