// The data inbox: main's events that change the cache or its meaning (data pieces and streams,
// whole snapshots and deltas, outbox mirrors, resolved ids) applied by the cache worker one after
// another, in the order the page heard them, with the status of that work (LocalWork). The session
// side (AppController) decides which account's cache an event goes to and runs its own cache
// changes (open, sign out) through the same queue, so they are ordered with main's events.
import type { EventOf, FieldmapApi } from '../../../src-shared';
import type { DataStream, JoinedEvent } from '../../../src-shared/data-pieces';
import { CacheWriter } from '../cache/cache-writer-page';
import { acceptDataPort } from '../cache/data-port';
import { SnapshotStage } from '../cache/snapshot-stage';
import type { AccountData } from './account-data.svelte';
import { customersIn, LocalWorkState, type LocalWork } from './local-work.svelte';
import { OutboxInbox } from './outbox-events';

/** What the inbox asks of the session side. */
export interface InboxHost {
  /** The open account's data now, without opening any. */
  current(): AccountData | null;
  /**
   * The data for an event of `accountKey`: the open account's, or the signed-in one's, opened;
   * null drops the event (an account just signed out of, whose deleted cache must not come back).
   */
  dataFor(accountKey: string): Promise<AccountData | null>;
  /** Main's changes that reached the service, the moment main says so. */
  reached(accountKey: string, opIds: readonly string[]): void;
  /** A create's temporary id now has the service's id, in the cache too. */
  renamed(resolved: EventOf<'ids:resolved'>, data: AccountData): void;
}

export class DataInbox {
  /** Cache writes run one after another, in event order. */
  #queue: Promise<unknown> = Promise.resolve();
  /** A snapshot was asked of main after a stream was not saved (see #healAfter). */
  #healing = false;
  /** Main's data on its way into the cache and the list (pieces, saves, read-back). */
  #local = new LocalWorkState();
  /** The worker that applies main's data to the cache, off the UI thread. */
  #writer = new CacheWriter();
  /** A snapshot's customers kept while the worker saves them, for the list (snapshot-stage.ts). */
  readonly stage = new SnapshotStage();
  /** Folds an outbox event into the one still waiting its turn (outbox-events.ts). */
  #outboxInbox = new OutboxInbox();

  constructor(
    private readonly api: FieldmapApi,
    private readonly host: InboxHost,
  ) {}

  /** Data received from main and not yet in the cache and the list of `accountKey`, or null. */
  localWork(accountKey: string | null, listed: number): LocalWork | null {
    return this.#local.current(accountKey, listed);
  }

  /** Listens to main's data events and the worker's reports; returns what stops each. */
  start(): Array<() => void> {
    const on = this.api.on.bind(this.api);
    this.#writer.onPiece((p, json) => {
      try {
        this.stage.add(p, json);
      } catch (error) {
        // A kept copy is only a shortcut: without it the list reads the cache back.
        console.error('fieldmap: could not keep a snapshot piece', error);
        this.stage.drop(p.stream);
      }
      const counted = this.#local.piece(p);
      // A stream this piece dropped (one the worker dropped, or out of order here, which the
      // worker's save also fails on) is asked of main again, once: a later piece of it is
      // 'stale', and so is a failed save reported after it (below). A stream main gave up (its
      // pull failed) is not asked for again: the sync says why.
      if (counted === 'dropped' && !p.aborted)
        void this.api.requestSnapshot().catch(() => undefined);
      if (counted === 'last') this.#onData(p.accountKey, p.total, { stream: p.stream });
    });
    // A stream whose last piece never reached the worker (lost on its way: the worker's save
    // gave up at its deadline) is told by nothing else: it stops counting, and main is asked once.
    this.#writer.onUnsaved((stream, accountKey) => {
      if (this.#local.lost(stream))
        this.#healAfter(this.host.current()?.cache.accountKey === accountKey, null);
    });
    return [
      // Main's data reaches the cache worker straight (Electron's data port, or the runner's
      // socket joined to one); a piece that came through the page (main's fallback) is handed
      // on. Either way the page hears of each piece from the worker (with a snapshot's customers
      // text, kept for the list: cache/snapshot-stage.ts).
      acceptDataPort(window, (port) => this.#writer.connectData(port)),
      on('data:piece', (p) => this.#writer.piece(p)),
      // Main announces a stream on this channel, in order with the writes below: the worker
      // starts saving it in its turn (cache/stream-saves.ts), while its pieces still arrive.
      // It is also where the status bar first hears of the stream (stream-tally.ts).
      on('data:stream', (s) => {
        this.#local.announced(s);
        this.enqueue(() => this.#openStream(s));
      }),
      on('data:snapshot', (payload) => this.#onJoined({ event: 'data:snapshot', payload })),
      on('data:delta', (payload) => this.#onJoined({ event: 'data:delta', payload })),
      on('outbox:changed', (p) => {
        // What reached the service is true now: the Selection panel counts it at once, not
        // when the event's turn in the cache's queue comes.
        this.host.reached(p.accountKey, p.reached ?? []);
        this.#outboxInbox.push(
          p,
          (task) => this.enqueue(task),
          (e) => this.#onOutbox(e),
        );
      }),
      on('ids:resolved', (p) => this.enqueue(() => this.#onIdsResolved(p))),
    ];
  }

  /** Runs `task` after everything asked before it (main's events and the session's changes). */
  enqueue(task: () => Promise<void>): void {
    this.#outboxInbox.closeTail();
    this.#queue = this.#queue.then(task).catch((error: unknown) => {
      console.error('fieldmap: cache update failed', error);
    });
  }

  /** Resolves when every event received so far has been applied to the cache. */
  idle(): Promise<unknown> {
    return this.#queue;
  }

  /** Forgets an account signed out of: its worker connection and its kept snapshot. */
  async forget(accountKey: string): Promise<void> {
    await this.#writer.close(accountKey);
    this.stage.dropAccount(accountKey);
  }

  async #openStream(stream: DataStream): Promise<void> {
    let open = false;
    try {
      open = (await this.host.dataFor(stream.accountKey)) !== null;
      if (open) await this.#writer.openStream(stream.stream, stream.accountKey);
    } finally {
      // The worker reports each piece before it answers the opening, so none heard by now means
      // the worker waited the gap deadline for piece 0 in vain (or failed): it no longer shows
      // as on its way, and main is asked for the data again (once until a stream is saved, as
      // for a failed save).
      if (this.#local.unheard(stream.stream)) this.#healAfter(open, null);
    }
  }

  #onJoined(joined: JoinedEvent): void {
    this.#onData(joined.payload.accountKey, customersIn(joined), { joined });
  }

  /**
   * A snapshot or delta, whole or as the stream the cache worker joined from its pieces: saved
   * by the worker in its turn, with progress, then expected in the list.
   */
  #onData(
    accountKey: string,
    customers: number,
    source: { stream: string } | { joined: JoinedEvent },
  ): void {
    this.#local.queued(customers);
    this.enqueue(() =>
      this.#local.save(accountKey, async (progress) => {
        const open = (await this.host.dataFor(accountKey)) !== null;
        if ('stream' in source) {
          const count = await this.#writer.applyStream(source.stream, open, progress);
          if (count === null) this.stage.drop(source.stream); // not the cache's: never adopted
          this.#healAfter(open, count);
          return count;
        }
        return open ? this.#writer.apply(source.joined, progress) : null;
      }),
    );
  }

  /**
   * A stream the cache worker could not save (a piece lost or past its deadline: the cache kept its
   * previous state) is asked of main again, once until a stream is saved, so a lasting failure
   * does not loop.
   */
  #healAfter(open: boolean, count: number | null): void {
    if (!open) return;
    if (count !== null) this.#healing = false;
    else if (!this.#healing) {
      this.#healing = true;
      void this.api.requestSnapshot().catch(() => undefined);
    }
  }

  async #onOutbox(payload: EventOf<'outbox:changed'>): Promise<void> {
    const { accountKey } = payload;
    if (!(await this.host.dataFor(accountKey))) return;
    const { ops, acknowledged } = payload;
    this.#local.recount(
      accountKey,
      await this.#writer.setPendingOps(accountKey, ops, acknowledged),
    );
  }

  async #onIdsResolved(payload: EventOf<'ids:resolved'>): Promise<void> {
    const data = await this.host.dataFor(payload.accountKey);
    if (!data) return;
    this.#local.recount(payload.accountKey, await this.#writer.resolveId(payload));
    this.host.renamed(payload, data);
  }
}
