// The data inbox: the page's end of main's one road to the cache (src-shared/data-road.ts). The
// page opens the road, hands the cache worker main's data port and the messages that came through
// the page, and hears, in the road's order, what the worker applied: the session, the sync state,
// the outbox mirror, resolved ids and data streams (LocalWork: their progress). What the page
// shows follows that, never main's word before the cache has it. A lost road (a gap the worker
// waited out, a stream it could not save) is recovered here and only here: a new road, which main
// starts with its state as it is now, and the page asks for the snapshot its cache lacks; again,
// with a growing wait, while the losses go on (road-recovery.svelte.ts). A stream the laptop's
// storage refused (a full disk) is kept here until a stream is saved: the status bar says so.
import type { AccountSummary, EventOf, FieldmapApi, QueueCounts } from '../../../src-shared';
import { CacheWriter } from '../cache/cache-writer-page';
import type { WriterReply } from '../cache/cache-writer';
import type { StorageFailure } from '../cache/storage-failure';
import { acceptDataPort } from '../cache/data-port';
import { SnapshotStage } from '../cache/snapshot-stage';
import type { AccountData } from './account-data.svelte';
import { LocalWorkState, type LocalWork } from './local-work.svelte';
import { RoadRecovery, type RecoveryTimers } from './road-recovery.svelte';

/** The last stream of an account was refused by the laptop's storage; `nextTryAt`: its retry. */
export interface CacheFailure {
  failure: StorageFailure;
  nextTryAt: number | null;
}

/** What the inbox tells the session side, each once the worker applied it. */
export interface InboxHost {
  /** The open account's data now, without opening any. */
  current(): AccountData | null;
  /** The account the page's cache holds and its last pull, for main's first words on a road. */
  holding(): Promise<{ accountKey: string | null; newerThan: number | null }>;
  /** Main's session; `opened`: the first word of a new road (the page asks what its cache lacks). */
  session(account: AccountSummary | null, opened: boolean): void;
  /** Main's sync state. */
  sync(state: EventOf<'sync:state'>): void;
  /**
   * An outbox mirror applied: `opIds` reached the service, `held` are still queued in it (both
   * counted by the queue applied with them).
   */
  reached(accountKey: string, opIds: readonly string[], held: readonly string[]): void;
  /** A create's temporary id now has the service's id, in the cache too. */
  renamed(resolved: EventOf<'ids:resolved'>, data: AccountData): void;
}

export class DataInbox {
  /** Main's data on its way into the cache and the list. */
  #local = new LocalWorkState();
  /** The worker that applies main's road to the cache, off the UI thread. */
  #writer = new CacheWriter();
  /** A snapshot's customers kept while the worker saves them, for the list (snapshot-stage.ts). */
  readonly stage = new SnapshotStage();
  /** The road whose first session word has been heard. */
  #road = 0;
  /** The last road that lost a message or a stream (0: none). */
  #lost = 0;
  /** The last opening of a road, settled once main answered it. */
  #opening: Promise<void> = Promise.resolve();
  /** New roads after losses: at once, then after growing waits until a stream is saved. */
  #recovery: RoadRecovery;
  /** The account whose last stream the storage refused, and why (null once one is saved). */
  #failed = $state.raw<{ accountKey: string; failure: StorageFailure } | null>(null);
  /** The outbox as the worker last applied it, per account (the status bar's count). */
  #queue = $state.raw<{ accountKey: string; counts: QueueCounts } | null>(null);

  constructor(
    private readonly api: FieldmapApi,
    private readonly host: InboxHost,
    timers?: RecoveryTimers,
  ) {
    this.#recovery = new RoadRecovery(() => {
      this.#local.reset();
      void this.openRoad();
    }, timers);
  }

  /** Why the cache of `accountKey` does not hold main's last data, or null when it does. */
  failureOf(accountKey: string | null): CacheFailure | null {
    const failed = this.#failed;
    if (!failed || failed.accountKey !== accountKey) return null;
    return { failure: failed.failure, nextTryAt: this.#recovery.nextAt };
  }

  /** "Sync now": a new road that was waiting for its turn opens at once. */
  async retryNow(): Promise<void> {
    if (this.#recovery.now()) await this.#opening;
  }

  /** The queue of `accountKey` as the worker last applied it, or null when it has not yet. */
  queueOf(accountKey: string | null): QueueCounts | null {
    const queue = this.#queue;
    return queue && queue.accountKey === accountKey ? queue.counts : null;
  }

  /**
   * Data received from main and not yet in the cache and the list of `accountKey`, or the list's
   * first read of the cache (`loaded` false), or null.
   */
  localWork(accountKey: string | null, listed: number, loaded = true): LocalWork | null {
    return this.#local.current(accountKey, listed, loaded);
  }

  /** Listens to the road and the worker; returns what stops each. */
  start(): Array<() => void> {
    return [
      this.#writer.listen((report) => this.#onReport(report)),
      // Main's messages reach the cache worker straight (Electron's data port, or the runner's
      // socket joined to one); one that came through the page is handed on unread.
      acceptDataPort(window, (port) => this.#writer.connectData(port)),
      this.api.on('data:road', (message) => this.#writer.road(message)),
    ];
  }

  /** Opens a new road: main's state comes first on it, then what the page's cache lacks. */
  openRoad(): Promise<void> {
    this.#opening = (async () => {
      try {
        await this.api.openRoad(await this.host.holding());
      } catch (error) {
        console.error('fieldmap: could not open the road to main', error);
      }
    })();
    return this.#opening;
  }

  /** Resolves once everything the worker has taken so far is applied. */
  idle(): Promise<void> {
    return this.#writer.idle();
  }

  /** Signs the worker out of an account and forgets its kept snapshot (before its cache goes). */
  async forget(accountKey: string): Promise<void> {
    await this.#writer.close(accountKey);
    this.#local.forget(accountKey);
    this.stage.dropAccount(accountKey);
    if (this.#failed?.accountKey === accountKey) this.#failed = null;
  }

  /** Stops a new road waiting for its turn. */
  stop(): void {
    this.#recovery.stop();
  }

  #onReport(report: Exclude<WriterReply, { kind: 'done' } | { kind: 'failed' }>): void {
    switch (report.kind) {
      case 'piece':
        this.#stage(report.meta, report.json);
        this.#local.piece(report.meta);
        return;
      case 'saving':
        this.#local.saving(report.stream, report.done);
        return;
      case 'lost':
        this.#lost = Math.max(this.#lost, report.road);
        this.#local.reset();
        this.#recovery.lost();
        return;
      case 'applied':
        break;
    }
    if ('stream' in report) {
      this.#local.applied(report.accountKey, report.count, report.stream);
      if (report.saved) {
        this.#recovery.saved();
        if (this.#failed?.accountKey === report.accountKey) this.#failed = null;
      } else {
        this.stage.drop(report.stream); // not the cache's: never adopted
        const { accountKey, failure } = report;
        if (failure && accountKey !== null) this.#failed = { accountKey, failure };
      }
      return;
    }
    this.#local.applied(report.accountKey, report.count);
    switch (report.event) {
      case 'session:changed': {
        const opened = report.road !== this.#road;
        this.#road = report.road;
        this.host.session(report.payload, opened);
        return;
      }
      case 'sync:state':
        // A sync's "Synced" behind a stream the cache refused (a delta over another pull) is not
        // true: the new road's state comes after the data main resends on it. A storage failure
        // is shown over "Synced" (failureOf) and keeps it: every road may fail alike.
        if (report.road === this.#lost && report.payload.kind === 'synced' && !this.#failed) return;
        this.host.sync(report.payload);
        return;
      case 'outbox:changed': {
        const { accountKey, reached, held, queue } = report.payload;
        this.#queue = { accountKey, counts: queue };
        this.host.reached(accountKey, reached, held);
        return;
      }
      case 'ids:resolved': {
        const data = this.host.current();
        if (data?.cache.accountKey === report.payload.accountKey)
          this.host.renamed(report.payload, data);
        return;
      }
    }
  }

  #stage(meta: Parameters<SnapshotStage['add']>[0], json: string | undefined): void {
    try {
      this.stage.add(meta, json);
    } catch (error) {
      // A kept copy is only a shortcut: without it the list reads the cache back.
      console.error('fieldmap: could not keep a snapshot piece', error);
      this.stage.drop(meta.stream);
    }
  }
}
