// The durable queue of one account's changes. Every mutation is one journal record, fsync'd
// before the call resolves and before memory changes, so what a caller saw acknowledged is on
// disk and what is on disk is all that was acknowledged (plus at most the op being written).
//
// Recovery on open (./recovery.ts): snapshot, then the journal's records after it, minus a torn
// last line; ops that were in flight stay in flight, for the engine to reconcile.
import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { ServerIdSchema } from '../../../src-shared/domain';
import {
  isTempId,
  NewOpSchema,
  type Acknowledged,
  OUTBOX_BATCH_MAX,
  type NewOp,
  type Op,
  type OpState,
} from '../../../src-shared/outbox-types';
import { nodeDurableFs, type DurableFs } from '../durable-fs';
import { systemClock, type Clock, type OutboxPort } from '../ports';
import {
  dropCreate,
  planBatch,
  planEnqueue,
  rewriteTempIdIn,
  type ChangeSet,
  type Entry,
} from './coalesce';
import { invalidRequest, OutboxError, outboxInternal, parseOrThrow } from './errors';
import { acquireOutboxLock, type OutboxLock } from './lock';
import { Journal } from './journal';
import { EDIT_SCHEMAS } from './records';
import { applyRecord, recover, type Recovered, type RecoveryReport } from './recovery';

export { OutboxError } from './errors';

export interface OutboxOptions {
  /** The account's data dir; the outbox's files live directly in it. */
  dir: string;
  accountKey: string;
  clock?: Clock;
  newOpId?: () => string;
  /** Journal records after which the queue is compacted into a snapshot (default 500). */
  compactAfterRecords?: number;
  /** The files' seam (default: the real file system with this platform's rules). */
  fs?: DurableFs;
}

export type { RecoveryReport } from './recovery';

type OutboxListener = (
  ops: Op[],
  acknowledged: Acknowledged | undefined,
  reached: readonly string[],
) => void;

export class Outbox implements OutboxPort {
  private readonly entries: Map<string, Entry>;
  private sorted: Entry[] | null = null;
  private readonly listeners = new Set<OutboxListener>();
  private chain: Promise<unknown> = Promise.resolve();
  private closed = false;
  private closing: Promise<void> | null = null;
  private seq: number;
  private nextPos: number;
  private recordsSinceSnapshot: number;
  readonly recovery: RecoveryReport;

  private constructor(
    private readonly accountKey: string,
    private readonly journal: Journal,
    private readonly lock: OutboxLock,
    private readonly clock: Clock,
    private readonly newOpId: () => string,
    private readonly compactAfterRecords: number,
    recovered: Recovered,
  ) {
    this.entries = recovered.entries;
    this.seq = recovered.seq;
    this.nextPos = recovered.nextPos;
    this.recordsSinceSnapshot = recovered.recordsSinceSnapshot;
    this.recovery = recovered.report;
  }

  /** Opens the outbox of `accountKey` under `dir`: takes the lock, recovers, compacts if due. */
  static async open(options: OutboxOptions): Promise<Outbox> {
    if (typeof options.accountKey !== 'string' || options.accountKey.length === 0) {
      throw invalidRequest('An outbox needs a non-empty account key.');
    }
    const fs = options.fs ?? nodeDurableFs;
    await fs.mkdir(options.dir);
    const lock = await acquireOutboxLock(options.dir, fs);
    try {
      const { journal, recovered } = await Journal.open(options.dir, fs);
      let state: Recovered;
      try {
        state = recover(recovered, options.accountKey);
      } catch (error) {
        await journal.close(); // an open handle would keep the folder busy on Windows
        throw error;
      }
      const outbox = new Outbox(
        options.accountKey,
        journal,
        lock,
        options.clock ?? systemClock,
        options.newOpId ?? randomUUID,
        options.compactAfterRecords ?? 500,
        state,
      );
      if (outbox.recordsSinceSnapshot >= outbox.compactAfterRecords) await outbox.tryCompact();
      return outbox;
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  private apply(record: { seq: number } & ChangeSet): void {
    applyRecord(this.entries, record);
    this.seq = record.seq;
    this.sorted = null;
  }

  private ordered(): Entry[] {
    this.sorted ??= [...this.entries.values()].sort((a, b) => a.pos - b.pos);
    return this.sorted;
  }

  /** Runs mutations one at a time so journal records never interleave. */
  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.chain.then(() => {
      if (this.closed) throw outboxInternal('The outbox is closed.');
      return task();
    });
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Journals `change` (fsync), then applies it and tells the listeners. */
  private async commit(
    change: ChangeSet,
    acknowledged?: Acknowledged,
    reached: readonly string[] = [],
  ): Promise<void> {
    if (change.put.length === 0 && change.del.length === 0) return;
    const record = { seq: this.seq + 1, put: change.put, del: change.del };
    try {
      await this.journal.append(record);
    } catch (error) {
      if (error instanceof OutboxError) throw error;
      throw outboxInternal('Could not save the change on this laptop.', (error as Error).message);
    }
    this.apply(record);
    this.recordsSinceSnapshot += 1;
    if (this.recordsSinceSnapshot >= this.compactAfterRecords) await this.tryCompact();
    const ops = this.list();
    for (const listener of this.listeners) {
      try {
        listener(ops, acknowledged, reached);
      } catch {
        // A listener's failure must not undo or block a durable change.
      }
    }
  }

  /**
   * Folds the journal into a snapshot. Every change is already durable in the journal, so a
   * failed compaction (a file held for good on Windows) is no error of the change that asked for
   * it: it is tried again after as many records more, not at every change.
   */
  private async tryCompact(): Promise<void> {
    try {
      await this.journal.compact({ format: 1, seq: this.seq, entries: this.ordered() });
    } catch {
      // The journal still holds every record; the snapshot is the old one or the new one.
    }
    this.recordsSinceSnapshot = 0;
  }

  private entryOf(opId: string, allowed: readonly OpState[], action: string): Entry {
    const entry = this.entries.get(opId);
    if (!entry) throw invalidRequest(`Cannot ${action}: there is no queued change ${opId}.`);
    if (!allowed.includes(entry.op.state)) {
      throw invalidRequest(
        `Cannot ${action}: change ${opId} is ${entry.op.state} (must be ${allowed.join(' or ')}).`,
      );
    }
    return entry;
  }

  // ---- OutboxPort ----

  enqueue(input: NewOp): Promise<Op> {
    let parsed: NewOp;
    try {
      parsed = this.checked(input);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return this.serial(async () => {
      const entries = this.ordered();
      this.refuseDuplicateCreate(entries, [parsed]);
      const op = this.newOp(parsed);
      const plan = planEnqueue(entries, op, this.nextPos);
      await this.commit(plan);
      if (plan.put.some((e) => e.op.opId === op.opId)) this.nextPos += 1;
      return plan.result;
    });
  }

  /**
   * Enqueues a batch (a bulk action) as ONE journal record with one fsync: each op coalesces as if
   * enqueued alone, in order, and after a crash the batch is wholly in the queue or not at all.
   * Resolves with each op's result, in order. A batch with one invalid op is refused whole.
   */
  enqueueMany(inputs: readonly NewOp[]): Promise<Op[]> {
    let parsed: NewOp[];
    try {
      if (!Array.isArray(inputs) || inputs.length === 0 || inputs.length > OUTBOX_BATCH_MAX) {
        throw invalidRequest(`A batch holds 1 to ${OUTBOX_BATCH_MAX} changes.`);
      }
      parsed = inputs.map((input) => this.checked(input));
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return this.serial(async () => {
      const entries = this.ordered();
      this.refuseDuplicateCreate(entries, parsed);
      const plan = planBatch(
        entries,
        parsed.map((input) => this.newOp(input)),
        this.nextPos,
      );
      await this.commit(plan);
      this.nextPos += plan.appended;
      return plan.results;
    });
  }

  /** The op as valid for this account, or throws InvalidRequest. */
  private checked(input: NewOp): NewOp {
    const claimed = (input as { accountKey?: unknown } | null)?.accountKey;
    if (claimed !== undefined && claimed !== this.accountKey) {
      throw invalidRequest('This change belongs to another account than this outbox.');
    }
    return parseOrThrow(NewOpSchema, input, 'change');
  }

  private refuseDuplicateCreate(entries: readonly Entry[], ops: readonly NewOp[]): void {
    const created = new Set(
      entries.filter((e) => e.op.kind === 'createCustomer').map((e) => e.op.target),
    );
    for (const op of ops) {
      if (op.kind !== 'createCustomer') continue;
      if (created.has(op.target)) {
        throw invalidRequest(`Customer ${op.target} already has a create queued.`);
      }
      created.add(op.target);
    }
  }

  private newOp(parsed: NewOp): Op {
    return {
      ...parsed,
      opId: this.newOpId(),
      accountKey: this.accountKey,
      createdAt: this.clock.now(),
      attempts: 0,
      lastError: null,
      state: 'pending',
      sentAt: null,
    };
  }

  list(): Op[] {
    return this.ordered().map((e) => e.op);
  }

  get(opId: string): Op | undefined {
    return this.entries.get(opId)?.op;
  }

  /**
   * pending -> in-flight; records when it was sent and counts the attempt. Resolves with the op
   * as it is now: edits coalesced into it since the caller last read it are part of what must be
   * sent, and later edits queue behind it.
   */
  markInFlight(opId: string, sentAt: number): Promise<Op> {
    return this.serial(async () => {
      const { pos, op } = this.entryOf(opId, ['pending'], 'send');
      const next: Op = { ...op, state: 'in-flight', sentAt, attempts: op.attempts + 1 };
      await this.commit({ put: [{ pos, op: next }], del: [] });
      return this.entries.get(opId)?.op ?? next;
    });
  }

  /**
   * in-flight (or pending, when the engine settles it without sending) -> removed.
   * `acknowledged` goes to the listeners with this change, in the same event (OutboxPort).
   */
  markDone(opId: string, acknowledged?: Acknowledged): Promise<void> {
    return this.serial(async () => {
      this.entryOf(opId, ['in-flight', 'pending'], 'mark as done');
      await this.commit({ put: [], del: [opId] }, acknowledged, [opId]);
    });
  }

  /** in-flight -> pending after a transient failure; keeps the error for the UI. */
  markRetryLater(opId: string, error: Op['lastError']): Promise<void> {
    return this.serial(async () => {
      const { pos, op } = this.entryOf(opId, ['in-flight', 'pending'], 'retry later');
      await this.commit({
        put: [{ pos, op: { ...op, state: 'pending', lastError: error } }],
        del: [],
      });
    });
  }

  markNeedsAttention(opId: string, error: Op['lastError']): Promise<void> {
    return this.serial(async () => {
      const { pos, op } = this.entryOf(opId, ['in-flight', 'pending'], 'flag for attention');
      await this.commit({
        put: [{ pos, op: { ...op, state: 'needs-attention', lastError: error } }],
        del: [],
      });
    });
  }

  /** needs-attention -> pending, error cleared. */
  retry(opId: string): Promise<Op> {
    return this.serial(async () => {
      const { pos, op } = this.entryOf(opId, ['needs-attention'], 'retry');
      const next: Op = { ...op, state: 'pending', lastError: null };
      await this.commit({ put: [{ pos, op: next }], del: [] });
      return next;
    });
  }

  /** Replaces the payload of a pending or needs-attention op (the latter goes back to pending). */
  edit(opId: string, payload: unknown): Promise<Op> {
    return this.serial(async () => {
      const { pos, op } = this.entryOf(opId, ['pending', 'needs-attention'], 'edit');
      if (op.kind === 'deleteCustomer') throw invalidRequest('A delete has nothing to edit.');
      const checked = parseOrThrow(EDIT_SCHEMAS[op.kind], payload, `edit of a ${op.kind} change`);
      // The payload was checked against this op's kind just above; TS cannot pair the two.
      const next = { ...op, payload: checked, state: 'pending', lastError: null } as Op;
      await this.commit({ put: [{ pos, op: next }], del: [] });
      return next;
    });
  }

  /**
   * Removes a pending or needs-attention op. Discarding a customer's create also drops the pending
   * ops on its temp id and moves pending routes through it to needs-attention. False when unknown.
   */
  discard(opId: string): Promise<boolean> {
    return this.serial(async () => {
      if (!this.entries.has(opId)) return false;
      const entry = this.entryOf(opId, ['pending', 'needs-attention'], 'discard');
      const change =
        entry.op.kind === 'createCustomer'
          ? dropCreate(this.ordered(), entry)
          : { put: [], del: [opId] };
      await this.commit(change);
      return true;
    });
  }

  /**
   * Replaces `tempId` by `serverId` in update/delete targets and routes' customerIds, in one
   * record. A createCustomer keeps its temp id as target (its identity; see resolveCreate).
   */
  rewriteTempId(tempId: string, serverId: string): Promise<void> {
    return this.resolve(null, tempId, serverId);
  }

  /**
   * Finishes a customer's create: removes the createCustomer op AND rewrites its temp id to
   * `serverId` in every queued op, in ONE durable record, so a crash can never leave the create
   * done while later ops still name a temp id nobody can resolve any more.
   */
  resolveCreate(opId: string, serverId: string): Promise<void> {
    const op = this.entries.get(opId)?.op;
    if (op?.kind !== 'createCustomer') {
      return Promise.reject(
        invalidRequest(`Cannot resolve: ${opId} is not a queued customer create.`),
      );
    }
    return this.resolve(opId, op.target, serverId);
  }

  private resolve(createOpId: string | null, tempId: string, serverId: string): Promise<void> {
    if (!isTempId(tempId)) return Promise.reject(invalidRequest(`${tempId} is not a temp id.`));
    if (isTempId(serverId) || !v.is(ServerIdSchema, serverId)) {
      return Promise.reject(invalidRequest(`${serverId} is not a server id.`));
    }
    return this.serial(async () => {
      if (createOpId !== null) this.entryOf(createOpId, ['in-flight', 'pending'], 'resolve');
      const del = createOpId === null ? [] : [createOpId];
      await this.commit(
        { put: rewriteTempIdIn(this.ordered(), tempId, serverId), del },
        undefined,
        del,
      );
    });
  }

  /**
   * Told every change: the queue after it, what the service acknowledged, and the ops that left
   * the queue because the service has them (`reached`; a discarded op is not among them).
   */
  onChange(listener: OutboxListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Waits for queued mutations, then releases the files and the lock. */
  close(): Promise<void> {
    // Queued behind the mutations already asked for; later ones find the outbox closed.
    this.closing ??= this.serial(async () => {
      this.closed = true;
      await this.journal.close();
      await this.lock.release();
    });
    return this.closing;
  }
}
