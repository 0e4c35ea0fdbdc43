// The seams between main-process services. Each service takes its dependencies as constructor
// arguments typed by these interfaces, so tests use real implementations on temp dirs and
// loopback, and fakes only where a real part cannot run here.
import type {
  CreateRouteBody,
  Customer,
  CustomerFields,
  CustomFieldsBody,
  MessageResponse,
  Route,
  Territory,
  UserMeta,
} from '../../src-shared/domain';
import type { Acknowledged, Conflict, NewOp, Op } from '../../src-shared/outbox-types';
import type { SyncState } from '../../src-shared/sync-state';
import type { EventChannel, EventOf } from '../../src-shared/ipc-contract';
import type { OpenSnapshotStream } from '../../src-shared/data-pieces';

/** Time, injectable so tests can control it. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      // The listener goes once the sleep is over: a signal that outlives many sleeps (a loop's)
      // would otherwise hold one per sleep.
      const abort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', abort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', abort, { once: true });
    }),
};

/** Who asked: user-initiated reads go before background push. */
export type RequestPriority = 'user' | 'background';

export interface RequestOptions {
  priority?: RequestPriority;
  signal?: AbortSignal;
}

/** The eleven endpoints of the service. Every method throws ServiceError on failure. */
/**
 * A list body whose elements are parsed and validated a slice at a time, when they are asked
 * for (service/json-slices.ts, service/responses.ts). `count` is known at once
 * (a scan of the structure). Each slice is validated before it is given out; a bad element
 * fails the slice that holds it with the same error as a validation of the whole list (the
 * element named by its place in the whole list), so a caller that has used earlier slices
 * must give them up.
 */
export interface ListReader<T> {
  readonly count: number;
  /** The elements, LIST_SLICE at a time, in order; main's event loop runs between slices. */
  slices(): AsyncGenerator<T[], void, void>;
}

export interface ServiceApi {
  listCustomers(options?: RequestOptions): Promise<Customer[]>;
  /**
   * GET customers read as slices (ServiceClient): a first sync streams them on. A wrapper that
   * lacks it (tests) gets the whole list through listCustomers.
   */
  readCustomers?(options?: RequestOptions): Promise<ListReader<Customer>>;
  getCustomer(id: string, options?: RequestOptions): Promise<Customer>;
  searchCustomers(term: string, options?: RequestOptions): Promise<Customer[]>;
  createCustomer(fields: CustomerFields, options?: RequestOptions): Promise<MessageResponse>;
  updateCustomer(
    id: string,
    fields: CustomerFields,
    options?: RequestOptions,
  ): Promise<MessageResponse>;
  deleteCustomer(id: string, options?: RequestOptions): Promise<MessageResponse>;
  listRoutes(options?: RequestOptions): Promise<Route[]>;
  createRoute(body: CreateRouteBody, options?: RequestOptions): Promise<MessageResponse>;
  listTerritories(options?: RequestOptions): Promise<Territory[]>;
  getUser(options?: RequestOptions): Promise<UserMeta>;
  updateCustomFields(body: CustomFieldsBody, options?: RequestOptions): Promise<MessageResponse>;
}

/** Where passwords live: the OS keychain in the app, keytar against gnome-keyring in tests. */
export interface CredentialStore {
  save(baseUrl: string, username: string, password: string): Promise<void>;
  load(baseUrl: string, username: string): Promise<string | null>;
  delete(baseUrl: string, username: string): Promise<boolean>;
  /** Remembered accounts (no passwords). */
  list(): Promise<Array<{ baseUrl: string; username: string; accountKey: string }>>;
}

/** The durable queue of one account's changes. */
export interface OutboxPort {
  /** Durable (fsync'd) before it resolves; coalesces with pending ops on the same target. */
  enqueue(op: NewOp): Promise<Op>;
  /** A batch as one durable record (wholly queued or not at all); each op coalesces as enqueue. */
  enqueueMany(ops: readonly NewOp[]): Promise<Op[]>;
  /** Ops not yet done, in FIFO order. */
  list(): Op[];
  get(opId: string): Op | undefined;
  /** pending -> in-flight; resolves with the op to send (it may hold edits made since it was read). */
  markInFlight(opId: string, sentAt: number): Promise<Op>;
  /**
   * in-flight -> removed. `acknowledged`: what the service now holds of the op's customers,
   * handed to the listeners with the change (never journaled: it is server data).
   */
  markDone(opId: string, acknowledged?: Acknowledged): Promise<void>;
  /** Back to pending after a transient failure (lastError kept; attempts count sends). */
  markRetryLater(opId: string, error: Op['lastError']): Promise<void>;
  markNeedsAttention(opId: string, error: Op['lastError']): Promise<void>;
  retry(opId: string): Promise<Op>;
  edit(opId: string, payload: unknown): Promise<Op>;
  discard(opId: string): Promise<boolean>;
  /** Replaces a temp id by its server id in every queued op (targets and routes' customerIds). */
  rewriteTempId(tempId: string, serverId: string): Promise<void>;
  /** Retires a customer's create and rewrites its temp id in every queued op, in one step. */
  resolveCreate(opId: string, serverId: string): Promise<void>;
  /** `reached`: ops that left the queue because the service has them (not discarded ones). */
  onChange(
    listener: (
      ops: Op[],
      acknowledged: Acknowledged | undefined,
      reached: readonly string[],
    ) => void,
  ): () => void;
  close(): Promise<void>;
}

/**
 * Main's events to the renderer. `openSnapshotStream`, where the transport has it (roadEmitter:
 * Electron's and the browser runner's), sends a first snapshot while it is still being read;
 * `openRoad` opens a new road to the cache worker (src-shared/data-road.ts).
 */
export type EmitEvent = (<E extends EventChannel>(event: E, payload: EventOf<E>) => void) & {
  openSnapshotStream?: OpenSnapshotStream;
  openRoad?: () => void;
};

/** The sync engine as the IPC handlers see it. */
export interface SyncEnginePort {
  readonly state: SyncState;
  syncNow(): Promise<SyncState>;
  start(): void;
  stop(): Promise<void>;
  /** Called by the shell on online/resume events, and after the rep queues a change. */
  nudge(reason: 'online' | 'resume' | 'start' | 'change'): void;
  conflicts(): Promise<Conflict[]>;
  resolveConflict(conflictId: string, choice: 'rep' | 'server'): Promise<Conflict>;
  /**
   * Resends the full last snapshot (renderer reload) if it was pulled after `newerThan` (any,
   * when null or absent).
   */
  resendSnapshot(newerThan?: number | null): boolean;
  /** The records offered for a create whose outcome stayed ambiguous (null: not such an op). */
  createCandidates(opId: string): Promise<Customer[] | null>;
  /** The rep's answer for such a create: a candidate's id (adopted), or null (create it). */
  decideCreate(opId: string, customerId: string | null): Promise<void>;
}
