// The page's one owner of state and of the API to main (window.fieldmap): it wires main's events
// to the cache of the current account, and owns every state class that talks to main (the change
// writer, the outbox actions, the basemap, the imports). Views get these from here and never call
// the API themselves. Opening the app shows the last account's cache at once, with no request to
// main: the account key is remembered locally.
import {
  toFieldmapError,
  type AccountSummary,
  type EventOf,
  type FieldmapApi,
} from '../../../src-shared';
import type { DataStream, JoinedEvent } from '../../../src-shared/data-pieces';
import { CustomerCache } from '../cache/customer-cache';
import { CacheWriter } from '../cache/cache-writer-page';
import { SnapshotStage } from '../cache/snapshot-stage';
import { acceptDataPort } from '../cache/data-port';
import { ChangeWriter } from '../features/editor/change-writer';
import { AccountData } from './account-data.svelte';
import { OutboxActions } from '../features/changes/outbox-actions.svelte';
import { ImportStatusState } from '../features/import-export/import-status.svelte';
import { BasemapState } from '../features/offline-maps/basemap-state.svelte';
import { AppActions } from './actions';
import { customersIn, LocalWorkState, type LocalWork } from './local-work.svelte';
import { weekPlanOf } from '../features/plan/week-plan-state.svelte';
import { Panels } from './panels.svelte';
import { SelectionState } from '../features/customers/selection.svelte';
import { OutboxInbox } from './outbox-events';
import { SessionState } from './session.svelte';
import { SupportState } from '../features/support/support-state.svelte';
import { Reminders } from '../features/reminders/reminders.svelte';
import { Navigator } from '../features/navigate/navigator.svelte';

const LAST_ACCOUNT_KEY = 'fieldmap:lastAccount';

export class AppController {
  readonly session = new SessionState();
  readonly selection = new SelectionState();
  readonly panels = new Panels();
  readonly outbox: OutboxActions;
  readonly writer: ChangeWriter;
  readonly actions: AppActions;
  /** Offline regions and the online style: drawn on the map, edited in the Offline maps dialog. */
  readonly basemap: BasemapState;
  /** The open account's CSV imports as main runs them. */
  readonly imports: ImportStatusState;
  /** The page's errors to main's log, and why main reloaded the page. */
  readonly support: SupportState;
  /** "Navigate": the rep's navigation app and the links to it. */
  readonly navigation: Navigator;
  /** "Due today", Snooze and Done; main's schedule raises the notifications. */
  readonly reminders: Reminders;
  #accounts = $state.raw<AccountSummary[]>([]);
  #data = $state.raw<AccountData | null>(null);
  #started = $state(false);
  /** Cache writes run one after another, in event order. */
  #queue: Promise<unknown> = Promise.resolve();
  /** A snapshot was asked of main after a stream was not saved (see #healAfter). */
  #healing = false;
  #unsubscribe: Array<() => void> = [];
  /** Main's data on its way into the cache and the list (pieces, saves, read-back). */
  #local = new LocalWorkState();
  /** The worker that applies main's data to the cache, off the UI thread. */
  #writer = new CacheWriter();
  /** A snapshot's customers kept while the worker saves them, for the list (snapshot-stage.ts). */
  #stage = new SnapshotStage();
  /** Folds an outbox event into the one still waiting its turn (outbox-events.ts). */
  #outboxInbox = new OutboxInbox();

  constructor(
    readonly api: FieldmapApi,
    private readonly storage: Storage = localStorage,
  ) {
    this.outbox = new OutboxActions(api);
    this.writer = new ChangeWriter(api, () => this.#data?.cache ?? null);
    this.actions = new AppActions(
      this.panels,
      this.selection,
      this.writer,
      this.outbox,
      () => this.#data,
    );
    this.basemap = new BasemapState(api);
    this.imports = new ImportStatusState(api);
    this.support = new SupportState(api);
    this.navigation = new Navigator(api, storage, globalThis.navigator?.platform ?? '');
    this.reminders = new Reminders(
      this.writer,
      () => this.#data?.timeUnit ?? 'seconds',
      () => this.#data?.customers.all ?? [],
    );
  }

  /** Remembered accounts (loaded by `loadAccounts`). */
  get accounts(): AccountSummary[] {
    return this.#accounts;
  }

  /** The open account's data, or null when no account is open. */
  get data(): AccountData | null {
    return this.#data;
  }

  /** Data received from main and not yet in the cache and the list, or null. */
  get localWork(): LocalWork | null {
    const data = this.#data;
    // Before the signed-in account's cache is open, its key from the session.
    const accountKey = data?.cache.accountKey ?? this.session.account?.accountKey ?? null;
    return this.#local.current(accountKey, data?.customers.all.length ?? 0);
  }

  /** True once the remembered account (or the lack of one) is known. */
  get started(): boolean {
    return this.#started;
  }

  start(): void {
    const on = this.api.on.bind(this.api);
    this.#unsubscribe.push(this.support.start(), this.reminders.start());
    this.#writer.onPiece((p, json) => {
      try {
        this.#stage.add(p, json);
      } catch (error) {
        // A kept copy is only a shortcut: without it the list reads the cache back.
        console.error('fieldmap: could not keep a snapshot piece', error);
        this.#stage.drop(p.stream);
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
        this.#healAfter(this.#data?.cache.accountKey === accountKey, null);
    });
    this.#unsubscribe.push(
      on('sync:state', (s) => this.session.setSync(s)),
      on('session:changed', (a) => this.#enqueue(() => this.#onSession(a))),
      // Main's data reaches the cache worker straight (Electron's data port, or the runner's
      // socket joined to one); a piece that came through the page (main's fallback) is handed on. Either way the
      // page hears of each piece from the worker (with a snapshot's customers text, kept for the
      // list: cache/snapshot-stage.ts).
      acceptDataPort(window, (port) => this.#writer.connectData(port)),
      on('data:piece', (p) => this.#writer.piece(p)),
      // Main announces a stream on this channel, in order with the writes below: the worker
      // starts saving it in its turn (cache/stream-saves.ts), while its pieces still arrive.
      // It is also where the status bar first hears of the stream (stream-tally.ts).
      on('data:stream', (s) => {
        this.#local.announced(s);
        this.#enqueue(() => this.#openStream(s));
      }),
      on('data:snapshot', (payload) => this.#onJoined({ event: 'data:snapshot', payload })),
      on('data:delta', (payload) => this.#onJoined({ event: 'data:delta', payload })),
      on('outbox:changed', (p) => {
        // What reached the service is true now: the Selection panel counts it at once, not
        // when the event's turn in the cache's queue comes.
        if (p.accountKey === this.session.account?.accountKey)
          this.panels.bulk.noteReached(p.reached ?? []);
        this.#outboxInbox.push(
          p,
          (task) => this.#enqueue(task),
          (e) => this.#onOutbox(e),
        );
      }),
      on('ids:resolved', (p) => this.#enqueue(() => this.#onIdsResolved(p))),
      on('customer:open', () => void this.#takeOpen()),
      on('conflicts:changed', (p) => {
        if (p.accountKey === this.session.account?.accountKey)
          this.outbox.setConflicts(p.conflicts);
      }),
      this.basemap.start(),
    );
    // Main may have changed state before this page listened (a restart while offline).
    void this.api
      .syncState()
      .then((state) => state && this.session.setSync(state))
      .catch(() => undefined);
    const remembered = this.storage.getItem(LAST_ACCOUNT_KEY);
    if (remembered !== null) {
      let opened: AccountData | undefined;
      this.#enqueue(async () => {
        opened = await this.#open(remembered);
        this.#started = true;
      });
      // Then learn who main has signed in (the account menu needs it; main may have none, or
      // another account, if the keychain entry went away).
      this.#enqueue(async () => {
        const account = await this.api.currentAccount();
        if (account?.accountKey !== remembered) return this.#onSession(account ?? null);
        this.session.setAccount(account);
        // Main's data sent before this page listened (it reloaded while pieces were on their way
        // to the worker, or main's first sync after a restart beat the page's start) is lost: main
        // resends its last snapshot if it is newer than the cache's (none on a cold start, and
        // none for a page reopened on an up-to-date cache: a 100k re-apply for nothing).
        const newerThan = (await opened?.cache.lastSync()) ?? null;
        await this.api.requestSnapshot({ newerThan });
      });
    } else {
      // First start: nothing cached, so ask main who is signed in.
      this.#enqueue(async () => {
        const account = await this.api.currentAccount();
        await this.#onSession(account);
        this.#started = true;
      });
    }
  }

  stop(): void {
    for (const off of this.#unsubscribe) off();
    this.#unsubscribe = [];
    this.imports.stop();
    this.#data?.dispose();
    this.#data = null;
  }

  /** Resolves when every event received so far has been applied to the cache. */
  idle(): Promise<unknown> {
    return this.#queue;
  }

  async loadAccounts(): Promise<void> {
    try {
      this.#accounts = (await this.api.listAccounts()) ?? [];
    } catch {
      this.#accounts = [];
    }
  }

  /** Signs in; the password is handed to main and not kept here. Throws a FieldmapError. */
  async login(baseUrl: string, username: string, password: string): Promise<AccountSummary> {
    return this.#call(() => this.api.login({ baseUrl, username, password }));
  }

  startDemo(): Promise<AccountSummary> {
    return this.#call(() => this.api.startDemo());
  }

  switchAccount(accountKey: string): Promise<AccountSummary> {
    return this.#call(() => this.api.switchAccount({ accountKey }));
  }

  /**
   * Signs out. Without `dropUnsynced`, main refuses while changes are unsynced and says how
   * many: the caller asks the rep, then calls again with true. The account's cache goes too.
   */
  async logout(
    accountKey: string,
    dropUnsynced: boolean,
  ): Promise<{ signedOut: boolean; unsynced: number }> {
    const result = await this.#call(() => this.api.logout({ accountKey, dropUnsynced }));
    if (result.signedOut) {
      if (this.session.account?.accountKey === accountKey) this.session.setAccount(null);
      this.#enqueue(async () => {
        if (this.#data?.cache.accountKey === accountKey) {
          this.#data.dispose();
          this.#data = null;
          this.panels.reset();
          this.storage.removeItem(LAST_ACCOUNT_KEY);
        }
        await this.#writer.close(accountKey);
        this.#stage.dropAccount(accountKey);
        const cache = await CustomerCache.open(accountKey);
        cache.close();
        await cache.destroy();
      });
      await this.#queue;
      await this.loadAccounts();
    }
    return result;
  }

  async #call<T>(action: () => Promise<T>): Promise<T> {
    try {
      return await action();
    } catch (error) {
      throw toFieldmapError(error);
    }
  }

  #enqueue(task: () => Promise<void>): void {
    this.#outboxInbox.closeTail();
    this.#queue = this.#queue.then(task).catch((error: unknown) => {
      console.error('fieldmap: cache update failed', error);
    });
  }

  async #open(accountKey: string): Promise<AccountData> {
    if (this.#data?.cache.accountKey === accountKey) return this.#data;
    this.#data?.dispose();
    this.selection.select(null);
    this.panels.reset();
    this.outbox.setConflicts([]);
    const cache = await CustomerCache.open(accountKey);
    this.#data = new AccountData(cache, this.#stage);
    this.storage.setItem(LAST_ACCOUNT_KEY, accountKey);
    void this.imports.refresh();
    return this.#data;
  }

  /**
   * The cache for an event's account: the open one, or the signed-in one. An event of any other
   * account (one just signed out of) is dropped, so its deleted cache is not created again.
   */
  async #openFor(accountKey: string): Promise<AccountData | null> {
    if (this.#data?.cache.accountKey === accountKey) return this.#data;
    if (this.session.account?.accountKey !== accountKey) return null;
    return this.#open(accountKey);
  }

  async #onSession(account: AccountSummary | null): Promise<void> {
    this.session.setAccount(account);
    if (account === null) {
      if (this.#data) this.#stage.dropAccount(this.#data.cache.accountKey);
      this.#data?.dispose();
      this.#data = null;
      this.selection.select(null);
      this.panels.reset();
      this.outbox.setConflicts([]);
      this.storage.removeItem(LAST_ACCOUNT_KEY);
      return;
    }
    const data = await this.#open(account.accountKey);
    // A link or a reminder's click that started or reopened the window waits in main.
    void this.#takeOpen();
    // A cache that never received data asks main to send the last snapshot it holds.
    if ((await data.cache.lastSync()) === null) await this.api.requestSnapshot();
  }

  async #openStream(stream: DataStream): Promise<void> {
    let open = false;
    try {
      open = (await this.#openFor(stream.accountKey)) !== null;
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
    this.#enqueue(() =>
      this.#local.save(accountKey, async (progress) => {
        const open = (await this.#openFor(accountKey)) !== null;
        if ('stream' in source) {
          const count = await this.#writer.applyStream(source.stream, open, progress);
          if (count === null) this.#stage.drop(source.stream); // not the cache's: never adopted
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
    if (!(await this.#openFor(accountKey))) return;
    const { ops, acknowledged } = payload;
    this.#local.recount(
      accountKey,
      await this.#writer.setPendingOps(accountKey, ops, acknowledged),
    );
  }

  /**
   * What a reminder's click or a fieldmap:// link asked to open, taken from main once the
   * account's data is open (at main's ping, or when the page starts with one waiting).
   */
  async #takeOpen(): Promise<void> {
    const account = this.session.account;
    if (!account || !this.#data) return;
    const asked = await this.api.takeOpen().catch(() => null);
    if (!asked || (asked.accountKey !== null && asked.accountKey !== account.accountKey)) return;
    this.#openCustomer(asked.customerId);
  }

  /** A customer asked from outside the page, or "Due today" for a notice that named several. */
  #openCustomer(customerId: string | null): void {
    if (customerId === null) {
      this.panels.show('reminders');
      return;
    }
    // The details show when no panel is open; an editor's unsaved form is never closed for it.
    if (this.panels.open !== 'editor') this.panels.close();
    this.selection.select(customerId);
    this.panels.focusOn('customer', customerId);
  }

  async #onIdsResolved(payload: EventOf<'ids:resolved'>): Promise<void> {
    const data = await this.#openFor(payload.accountKey);
    if (!data) return;
    this.#local.recount(payload.accountKey, await this.#writer.resolveId(payload));
    if (payload.kind === 'customer') {
      this.selection.rename(payload.tempId, payload.id);
      this.panels.route.rename(payload.tempId, payload.id);
      data.plan.rename(payload.tempId, payload.id);
      weekPlanOf(data.cache).rename(payload.tempId, payload.id);
    }
  }
}
