// The sync engine of one account: push then pull, one sync at a time, and the state machine
// the status bar shows. Auto-syncs on start, when the network comes back, on resume and
// periodically; while the service is unreachable it probes with backoff instead.
import type { CustomerChanges } from '../../../src-shared/domain';
import { errorInfo } from '../../../src-shared/errors';
import type { Acknowledged, Conflict } from '../../../src-shared/outbox-types';
import type { SyncState } from '../../../src-shared/sync-state';
import { join } from 'node:path';
import { ConflictLog } from './conflict-log';
import {
  Backoff,
  DEFAULT_PROBE_BACKOFF,
  needsProbe,
  stateAfterError,
  type BackoffSettings,
} from './connectivity';
import type {
  Clock,
  EmitEvent,
  OutboxPort,
  RequestPriority,
  ServiceApi,
  SyncEnginePort,
} from '../ports';
import { ServiceError } from '../service/errors';
import type { PushContext } from './context';
import { infoOf, kindOf, messageOf } from './errors';
import { SyncLedger } from './creates/ledger';
import { createCandidates, decideCreate } from './creates/decide';
import type { Customer } from '../../../src-shared/domain';
import type { OpenSnapshotStream } from '../../../src-shared/data-pieces';
import { nodeDurableFs, type DurableFs } from '../durable-fs';
import { machineLoad, processCpuMs, type MachineLoad } from './machine-load';
import { SyncProgress, type PullTimes } from './progress';
import { pullAll, SnapshotKeeper } from './pull';
import { DEFAULT_ABSENCE_GRACE_MS, push, type PushOptions } from './push';

export interface SyncEngineOptions {
  accountKey: string;
  api: ServiceApi;
  outbox: OutboxPort;
  clock: Clock;
  emit: EmitEvent;
  /** The account's data dir: conflict log and reconciliation ledger live here. */
  stateDir: string;
  /** The seam their files are written through (default: the real file system). */
  fs?: DurableFs;
  /** Auto-sync period while reachable (default 5 min). */
  periodMs?: number;
  /** Probe delays while offline or off-network. */
  probeBackoff?: BackoffSettings;
  /** Retry delays after a transient failure (5xx, 429, lost answers). */
  retryBackoff?: BackoffSettings;
  /** The account's request rate, for the ETA (default 3/s). */
  ratePerSecond?: number;
  /**
   * How busy the machine is, as a factor on CPU-bound work (1: a core free; machine-load.ts by
   * default), now or over a span just past: a pull measured under one load scales with it.
   */
  load?: MachineLoad;
  /**
   * Main's CPU time so far in ms (process.cpuUsage by default; null: not read, all of a list's
   * time counts as main's work): tells a list's wait on the service from main's work in it.
   */
  cpuMs?: (() => number) | null;
  push?: PushOptions;
  /** Told the customers after each pull and each acknowledged change (main's reminders). */
  watcher?: CustomersWatcher;
}

export interface CustomersWatcher {
  pulled(customers: readonly Customer[]): void;
  acknowledged(change: Acknowledged): void;
}

/** The pull's GETs: user, customers, routes, territories (pull.ts), in that order. */
const PULL_REQUESTS = 4;
/** The last pull's prints, in the account's data dir (SnapshotKeeper). */
const PRINTS_FILE = 'last-pull-prints.json';
/** A rep's edit goes out this soon after it is queued (several quick edits share one sync). */
const CHANGE_DEBOUNCE_MS = 500;
/**
 * How often a running sync's time left is worked out again between its answers (a list of
 * seconds sends none), and how far off the page's count down may be before it is told anew.
 */
const RETELL_MS = 2_000;
const RETELL_OFF = 0.1;

export class SyncEngine implements SyncEnginePort {
  readonly #o: Required<Omit<SyncEngineOptions, 'push' | 'watcher'>> & {
    push: PushOptions;
    watcher?: CustomersWatcher;
  };
  readonly #ready: Promise<{ ledger: SyncLedger; conflicts: ConflictLog }>;
  readonly #snapshot: SnapshotKeeper;
  /**
   * A first snapshot is being streamed (pullAll), and a resend was asked meanwhile: a page that
   * loaded after the stream began missed its start, and gets the snapshot whole after it.
   */
  #streaming = false;
  #resendAfterStream = false;
  readonly #probe: Backoff;
  readonly #retry: Backoff;
  #state: SyncState = { kind: 'synced', at: 0 };
  #running: Promise<SyncState> | null = null;
  #timer: AbortController | null = null;
  #started = false;
  /** Stopped for good (the account closed): its outbox and files are no longer ours to touch. */
  #stopped = false;
  /** A change was queued while a sync ran: run once more after it. */
  #again = false;
  /** The conflict log, once read (before the pull's prints, which take longer at 100k). */
  readonly #conflictsOpen: Promise<ConflictLog>;
  /** The last pull's prints being saved (SnapshotKeeper.save never rejects). */
  #saving: Promise<void> = Promise.resolve();
  /**
   * How long the last pull's customers GET took on the clock: what the next push expects a list
   * to take, and the next sync's estimate of the time left.
   */
  #listMs = 0;
  /** The running (or last) sync's progress. */
  #progress: SyncProgress | null = null;
  /** The time left last told (etaMs) and when, on the clock: what the page counts down. */
  #told: { etaMs: number; at: number } | null = null;
  /** The last pull's time from its list on, as on an unloaded machine (null: not measured). */
  #pull: PullTimes | null = null;

  constructor(options: SyncEngineOptions) {
    this.#o = {
      periodMs: 5 * 60_000,
      probeBackoff: DEFAULT_PROBE_BACKOFF,
      retryBackoff: { initialMs: 5_000, maxMs: 5 * 60_000, factor: 2 },
      ratePerSecond: 3,
      load: machineLoad,
      cpuMs: processCpuMs,
      push: {},
      fs: nodeDurableFs,
      ...options,
    };
    const snapshot = new SnapshotKeeper(options.accountKey, {
      fs: this.#o.fs,
      file: join(options.stateDir, PRINTS_FILE),
    });
    this.#snapshot = snapshot;
    this.#probe = new Backoff(this.#o.probeBackoff);
    this.#retry = new Backoff(this.#o.retryBackoff);
    const fs = this.#o.fs;
    const conflictsOpen = ConflictLog.open(options.stateDir, options.accountKey, fs);
    this.#conflictsOpen = conflictsOpen;
    this.#ready = (async () => {
      const ledger = await SyncLedger.open(options.stateDir, fs);
      const conflicts = await conflictsOpen;
      await snapshot.load();
      this.#listMs ||= snapshot.savedListMs;
      this.#pull ??= snapshot.savedPull;
      return { ledger, conflicts };
    })();
    // Surfaced by the first sync or conflict call that awaits it.
    this.#ready.catch(() => undefined);
    conflictsOpen.catch(() => undefined);
  }

  get state(): SyncState {
    // Asked while syncing (a page that opens its road mid-list): the time left as of now.
    if (this.#state.kind === 'syncing' && this.#progress) return this.#progress.state;
    return this.#state;
  }

  /**
   * A sync the rep (or an import) asked for: its reads go before background traffic. Asked
   * while one runs, it also runs once more after it: the running one may have pushed already,
   * and what was queued since must not wait for the next period under "Synced".
   */
  async syncNow(): Promise<SyncState> {
    const running = this.#running;
    if (!running) return this.#sync('user');
    this.#again = true;
    const state = await running;
    // The one after it, when it started (it does unless the running one failed).
    return this.#running ?? state;
  }

  start(): void {
    this.#started = true;
    // The load gauge reads from its first call on: from now, so a sync has its last seconds.
    this.#o.load();
    this.nudge('start');
  }

  async stop(): Promise<void> {
    this.#started = false;
    this.#stopped = true;
    this.#cancelTimer();
    await this.#running?.catch(() => undefined);
    await this.#saving;
  }

  nudge(reason: 'online' | 'resume' | 'start' | 'change'): void {
    if (!this.#started) return;
    if (reason === 'change') {
      // Unreachable: the probe's backoff decides when to try again, not every keystroke.
      const waiting = ['offline', 'off-network', 'auth-required'].includes(this.#state.kind);
      if (waiting) return;
      if (this.#running) this.#again = true;
      else this.#schedule(CHANGE_DEBOUNCE_MS);
      return;
    }
    // Coming back online or from sleep: whatever backoff we were in is stale.
    if (reason !== 'start') this.#probe.reset();
    void this.#sync('background');
  }

  /**
   * The conflicts kept for the account, once its log is read: asked for as the page opens, an
   * answer before the read would say "none" with undecided ones waiting.
   */
  async conflicts(): Promise<Conflict[]> {
    return (await this.#conflictsOpen).list();
  }

  async resolveConflict(conflictId: string, choice: 'rep' | 'server'): Promise<Conflict> {
    const { conflicts } = await this.#ready;
    const conflict = conflicts.get(conflictId);
    if (!conflict) {
      throw new ServiceError(errorInfo('InvalidRequest', { detail: 'no such conflict' }));
    }
    // The value the service must end with, when it is not the one it already holds.
    const wanted =
      choice === 'server' && conflict.resolution !== 'server'
        ? conflict.serverValue
        : choice === 'rep' && conflict.resolution === 'server'
          ? conflict.repValue
          : undefined;
    if (wanted !== undefined) {
      await this.#o.outbox.enqueue({
        kind: 'updateCustomer',
        target: conflict.customerId,
        payload: { [conflict.field]: wanted } as CustomerChanges,
        // Base null: the server record is the base, so the field is sent whatever it holds.
        base: null,
      });
    }
    const updated = await conflicts.resolve(conflictId, choice);
    this.#o.emit('conflicts:changed', {
      accountKey: this.#o.accountKey,
      conflicts: conflicts.list(),
    });
    if (wanted !== undefined && this.#started) {
      // During a sync the change goes in the one right after it, not at the next period.
      if (this.#running) this.#again = true;
      else void this.#sync('background');
    }
    return updated ?? conflict;
  }

  /** The records offered for an ambiguous create (null: the op is not one). */
  async createCandidates(opId: string): Promise<Customer[] | null> {
    const { ledger } = await this.#ready;
    return createCandidates({ ...this.#o, ledger }, opId);
  }

  /** The rep's choice for an ambiguous create: a candidate's id, or null to create it anyway. */
  async decideCreate(opId: string, customerId: string | null): Promise<void> {
    const { ledger } = await this.#ready;
    // Not while a push may be settling the same op.
    await this.#running?.catch(() => undefined);
    await decideCreate({ ...this.#o, ledger }, opId, customerId);
    if (this.#started) void this.#sync('background');
  }

  resendSnapshot(newerThan: number | null = null): boolean {
    const snapshot = this.#snapshot.snapshot;
    // A first snapshot still being streamed: sent whole once it is read (a page that reloaded
    // meanwhile missed its start).
    if (!snapshot && this.#streaming) return (this.#resendAfterStream = true);
    if (!snapshot) return false;
    if (newerThan !== null && snapshot.pulledAt <= newerThan) return false;
    // A road opened after this pull's delta went out (a restart's first sync can outrun the
    // page): a cache holding its base takes the delta, not every record again.
    const delta = newerThan === null ? null : this.#snapshot.deltaOver(newerThan);
    if (delta) this.#o.emit('data:delta', delta);
    else this.#o.emit('data:snapshot', snapshot);
    return true;
  }

  #sync(priority: RequestPriority): Promise<SyncState> {
    if (this.#stopped) return Promise.resolve(this.#state);
    // One sync at a time: a second caller joins the running one.
    this.#running ??= this.#run(priority).finally(() => {
      this.#running = null;
      if (this.#again) {
        this.#again = false;
        // A sync that went through left its state at 'syncing' for this one to carry on (it
        // never said "synced" with the change queued). After a failure the retry timer decides.
        if (this.#state.kind === 'syncing') void this.#sync('background');
      }
    });
    return this.#running;
  }

  async #run(priority: RequestPriority): Promise<SyncState> {
    this.#cancelTimer();
    const { ledger, conflicts } = await this.#ready;
    const queued = this.#o.outbox.list().filter((op) => op.state !== 'needs-attention').length;
    const known = this.#pull;
    const progress = new SyncProgress(
      queued + (queued > 0 ? 1 : 0) + PULL_REQUESTS,
      this.#o.ratePerSecond,
      {
        ...(known && { pull: known }),
        load: this.#o.load,
        ...(this.#o.cpuMs && { cpuMs: this.#o.cpuMs }),
        now: () => this.#o.clock.now(),
        fromList: PULL_REQUESTS - 1,
      },
    );
    this.#progress = progress;
    const step = () => {
      progress.step();
      this.#setState(progress.state);
    };
    this.#setState(progress.state);
    const retelling = new AbortController();
    void this.#retell(progress, retelling.signal);
    const ctx: PushContext = {
      accountKey: this.#o.accountKey,
      api: this.#o.api,
      outbox: this.#o.outbox,
      ledger,
      conflicts,
      clock: this.#o.clock,
      emit: this.#o.emit,
      priority: 'background',
      absenceGraceMs: this.#o.push.absenceGraceMs ?? DEFAULT_ABSENCE_GRACE_MS,
      step,
      acknowledged: (change) => {
        this.#snapshot.acknowledge(change);
        this.#o.watcher?.acknowledged(change);
      },
    };
    try {
      const pushed = await push(ctx, {
        listLatencyMs: this.#listMs,
        ratePerSecond: this.#o.ratePerSecond,
        known: () => this.#snapshot.snapshot?.customers,
        ...this.#o.push,
      });
      // A first pull streams its snapshot while it reads it (pull.ts), where the transport can.
      const openStream = this.#snapshot.canDiff ? undefined : this.#o.emit.openSnapshotStream;
      const pulledAt = this.#o.clock.now();
      /** When a first pull's stream opened (its sending is paced by the page, not the pull). */
      let streamAt: number | null = null;
      // Streaming from the stream's announcement on: a page that asks for the data before it
      // (as every page does when it opens the account) gets the whole stream anyway.
      const open: OpenSnapshotStream = (head, counts) => {
        this.#streaming = true;
        streamAt = this.#o.clock.now();
        return openStream!(head, counts);
      };
      const stream = openStream && { open, accountKey: this.#o.accountKey, pulledAt };
      this.#resendAfterStream = false;
      let pulled: Awaited<ReturnType<typeof pullAll>>;
      try {
        const steps = { step, listing: () => progress.listing() };
        pulled = await pullAll(this.#o.api, priority, steps, this.#o.clock, stream);
      } finally {
        this.#streaming = false;
      }
      const now = this.#o.clock.now();
      const { streamed, listMs, parseMs, ...data } = pulled;
      this.#listMs = listMs;
      const out = await this.#snapshot.take(data, streamed ? pulledAt : now);
      this.#measured(progress, listMs + parseMs, streamAt, now);
      const resend = this.#resendAfterStream;
      this.#resendAfterStream = false;
      const customers = this.#snapshot.snapshot?.customers;
      if (customers) this.#o.watcher?.pulled(customers);
      if ('snapshot' in out) {
        if (!streamed || resend) this.#o.emit('data:snapshot', out.snapshot);
      } else this.#o.emit('data:delta', out.delta);
      this.#probe.reset();
      // Changes queued during this sync go in a second one at once: not "synced" yet. A nudge or
      // a "Sync now" that this sync's push already answered runs nothing more: a second pull
      // (a whole account's list) for a network that came back twice, page and main each saying so.
      const again = this.#again && this.#started && this.#queuedLeft();
      if (!again) {
        this.#again = false;
        this.#setState({ kind: 'synced', at: now });
      }
      // Every pull sent to the cache has its prints saved, the one a second sync follows too:
      // that one may fail or be stopped before its own save, and a restart that diffs against
      // older prints sends a delta the cache refuses (then the whole account again). After the
      // data (and "synced"): a first snapshot's prints are taken here, not before the cache has
      // it. A save that a later pull's take makes stand down leaves the file to that pull's save.
      const measured = this.#pull;
      const savedFrom = this.#o.clock.now();
      // A streamed first pull's prints are taken in its save, where a later pull diffs in its
      // take: that time (not the file's write, which a later pull does after "Synced") is part
      // of what a later pull takes after its list, in memory and in the file.
      this.#saving = this.#snapshot.save(this.#listMs, () => {
        if (!streamed || measured === null || this.#pull !== measured) return this.#pull;
        const spent = this.#o.clock.now() - savedFrom;
        const tookMs = spent / this.#o.load(spent);
        this.#pull = { ...measured, afterMs: measured.afterMs + tookMs };
        return this.#pull;
      });

      if (again) return this.#state;
      let delay = this.#o.periodMs;
      if (pushed.retryLater.size > 0) delay = this.#retry.next();
      else this.#retry.reset();
      // A create left unsure settles by itself once a list can prove it present or absent.
      if (pushed.recheckAt !== null) delay = Math.min(delay, Math.max(0, pushed.recheckAt - now));
      this.#schedule(delay);
    } catch (e) {
      this.#failed(e);
    } finally {
      retelling.abort();
    }
    return this.#state;
  }

  /**
   * Works the pull's time left out again every RETELL_MS while `progress` runs, and tells the page
   * when its count down has drifted from it: the machine's load moved while a long list was on
   * its way (a state is told at each answer, and a list of 100k is one answer after many seconds).
   */
  async #retell(progress: SyncProgress, signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.#o.clock.sleep(RETELL_MS, signal);
      } catch {
        return;
      }
      if (this.#progress !== progress || this.#state.kind !== 'syncing') return;
      // Before the list the estimate moves by answers, each of which tells it.
      if (progress.listAskedAt === null) continue;
      const told = this.#told;
      const state = progress.state;
      const shown = told ? Math.max(0, told.etaMs - (this.#o.clock.now() - told.at)) : 0;
      if (Math.abs(state.etaMs - shown) > RETELL_OFF * Math.max(state.etaMs, shown))
        this.#setState(state);
    }
  }

  /**
   * Keeps this pull's time from its list on, as on an unloaded machine, for the next time left:
   * the list, then routes, territories and the diff, each at the machine's load while it ran
   * (the load at its end may be another: a first sync's page was still saving, or had stopped).
   * A first pull's stream is paced by the page's save, which a later pull does not wait for: its
   * time is left out (`streamAt` to `takenFrom`), and the list's parse within it counts at the
   * load over the whole pull. Of the list's request, only main's own work (its CPU time) is
   * scaled: the rest was a wait on the service, which a busy laptop does not stretch, and a list
   * kept as all work was said 1.5 times too short after a first sync's busy pull.
   */
  #measured(
    progress: SyncProgress,
    listMs: number,
    streamAt: number | null,
    takenFrom: number,
  ): void {
    const answered = progress.listAnsweredAt;
    const asked = progress.listAskedAt;
    const listLoad = progress.listLoad;
    if (answered === null || asked === null || listLoad === null || listMs <= 0) return;
    const end = this.#o.clock.now();
    const afterMs = end - answered - (streamAt === null ? 0 : takenFrom - streamAt);
    const load = this.#o.load;
    const listAt = streamAt === null ? listLoad : load(end - asked);
    const requestMs = Math.min(listMs, answered - asked);
    const cpuMs = progress.listCpuMs;
    const requestWork = Math.min(requestMs / listAt, cpuMs ?? Infinity);
    this.#pull = {
      listMs: requestWork + (listMs - requestMs) / listAt,
      waitMs: Math.max(0, requestMs - requestWork * listAt),
      afterMs: Math.max(0, afterMs) / load(end - answered),
    };
  }

  /** Changes still waiting to be sent (not one left for the rep to decide). */
  #queuedLeft(): boolean {
    return this.#o.outbox.list().some((op) => op.state === 'pending');
  }

  #failed(e: unknown): void {
    const kind = kindOf(e);
    if (kind === 'InvalidRequest' || kind === 'NotSignedIn') {
      this.#setState(
        kind === 'NotSignedIn'
          ? { kind: 'auth-required' }
          : { kind: 'error', message: messageOf(e), nextTryAt: null },
      );
      return;
    }
    if (needsProbe(kind)) {
      const delay = this.#probe.next();
      const { connection } = infoOf(e);
      this.#setState(stateAfterError(kind, '', this.#o.clock.now() + delay, connection));
      this.#schedule(delay, true);
      return;
    }
    // 401 waits for new credentials; other errors retry with backoff (the status shows when).
    const delay = kind === 'Unauthorized' ? null : this.#retry.next();
    const nextTryAt = delay === null ? null : this.#o.clock.now() + delay;
    // A bug (Internal) shows its own message; a service failure its detail (status, code).
    const detail = kind === 'Internal' ? messageOf(e) : (infoOf(e).detail ?? '');
    this.#setState(stateAfterError(kind, detail, nextTryAt));
    if (delay !== null) this.#schedule(delay);
  }

  /** One timer at a time; a probe (cheap GET /user) first when the service was unreachable. */
  #schedule(delayMs: number, probe = false): void {
    this.#cancelTimer();
    if (!this.#started) return;
    const controller = new AbortController();
    this.#timer = controller;
    this.#o.clock
      .sleep(delayMs, controller.signal)
      .then(async () => {
        if (this.#timer !== controller) return;
        this.#timer = null;
        if (probe && !(await this.#probeOnce())) return;
        await this.#sync('background');
      })
      .catch(() => undefined);
  }

  async #probeOnce(): Promise<boolean> {
    try {
      await this.#o.api.getUser({ priority: 'background' });
      return true;
    } catch (e) {
      this.#failed(e);
      return false;
    }
  }

  #cancelTimer(): void {
    this.#timer?.abort();
    this.#timer = null;
  }

  #setState(state: SyncState): void {
    // A probe answered after the stop: the status bar now shows another account (or none).
    if (this.#stopped) return;
    this.#state = state;
    this.#told = state.kind === 'syncing' ? { etaMs: state.etaMs, at: this.#o.clock.now() } : null;
    this.#o.emit('sync:state', state);
  }
}
