// The page's session side and owner of the API to main (window.fieldmap): which account is open,
// signing in and out, and every state class that talks to main (the change writer, the outbox
// actions, the basemap, the imports). Main's session, sync state and data reach the page only
// through the data inbox (data-inbox.svelte.ts), once the cache worker applied them. Views get
// these from here and never call the API themselves; a feature gets a narrow interface of them.
// Opening the app shows the last account's cache at once, with no request to main: the account
// key is remembered locally.
import {
  queueCounts,
  toFieldmapError,
  type AccountSummary,
  type EventOf,
  type FieldmapApi,
  type QueueCounts,
} from '../../../src-shared';
import { CustomerCache } from '../cache/customer-cache';
import { ChangeWriter } from '../features/editor/change-writer';
import { AccountData } from './account-data.svelte';
import { OutboxActions } from '../features/changes/outbox-actions.svelte';
import { ImportStatusState } from '../features/import-export/import-status.svelte';
import { BasemapState } from '../features/offline-maps/basemap-state.svelte';
import { AppActions } from './actions';
import { DataInbox, type CacheFailure } from './data-inbox.svelte';
import type { LocalWork } from './local-work.svelte';
import { weekPlanOf } from '../features/plan/week-plan-state.svelte';
import { Panels } from './panels.svelte';
import { SelectionState } from '../features/customers/selection.svelte';
import { SessionState } from './session.svelte';
import { SupportState } from '../features/support/support-state.svelte';
import { Reminders } from '../features/reminders/reminders.svelte';
import { Navigator } from '../features/navigate/navigator.svelte';

const LAST_ACCOUNT_KEY = 'fieldmap:lastAccount';

export class AppController {
  readonly session: SessionState;
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
  /** This page remembers an account to show while main's first word is on its way. */
  #remembers = $state(true);
  #unsubscribe: Array<() => void> = [];
  /** Main's road, applied to the cache in order (data-inbox.svelte.ts). */
  readonly #inbox: DataInbox;
  /** The session's own changes of which cache is open, one after another. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly api: FieldmapApi,
    private readonly storage: Storage = localStorage,
    /** The page's clock: what the status bar counts the time left down by. */
    now: () => number = () => Date.now(),
  ) {
    this.session = new SessionState(now);
    this.#inbox = new DataInbox(api, {
      current: () => this.#data,
      holding: async () => {
        const data = this.#data;
        return {
          accountKey: data?.cache.accountKey ?? null,
          newerThan: (await data?.cache.lastSync()) ?? null,
        };
      },
      session: (account) => this.#enqueue(() => this.#onSession(account)),
      sync: (state) => this.session.setSync(state),
      reached: (accountKey, opIds, held) => {
        if (accountKey === this.session.account?.accountKey) this.panels.bulk.noteReached(opIds);
        const data = this.#data;
        if (data?.cache.accountKey === accountKey) data.customers.ahead.mirrored(opIds, held);
      },
      renamed: (resolved, data) => this.#renamed(resolved, data),
    });
    this.outbox = new OutboxActions(api);
    this.writer = new ChangeWriter(
      api,
      () => this.#data?.cache ?? null,
      () => this.#data?.customers.ahead ?? null,
    );
    this.actions = new AppActions(
      this.panels,
      this.selection,
      this.writer,
      () => this.syncNow(),
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
      (base, rows) => this.#data?.customers.changedSince(base, rows) ?? null,
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

  /** The open account's key; before its cache is open, the signed-in one's from the session. */
  get #shownAccountKey(): string | null {
    return this.#data?.cache.accountKey ?? this.session.account?.accountKey ?? null;
  }

  /** Data received from main and not yet in the cache and the list, or null. */
  get localWork(): LocalWork | null {
    const accountKey = this.#shownAccountKey;
    // A signed-in account's list that has not read its cache yet (or whose cache is not open).
    // A read that failed is not still reading: the status names the failure (cacheFailure).
    const customers = this.#data?.customers;
    const loaded =
      accountKey === null ||
      (customers !== undefined && (customers.loaded || customers.readFailure !== null));
    return this.#inbox.localWork(accountKey, customers?.all.length ?? 0, loaded);
  }

  /** Why the open account's cache lacks main's last data (its storage refused it), or null. */
  get cacheFailure(): CacheFailure | null {
    const unread = this.#data?.customers.readFailure ?? null;
    return (
      this.#inbox.failureOf(this.#shownAccountKey) ??
      (unread && { failure: unread, nextTryAt: null })
    );
  }

  /**
   * "Sync now": a new road the cache's recovery was waiting to open opens first (main resends
   * what the cache lacks on it), then main syncs.
   */
  async syncNow(): Promise<unknown> {
    await this.#inbox.retryNow();
    return this.outbox.syncNow();
  }

  /**
   * The open account's queue as the cache worker last applied it (null: not yet this page), with
   * the changes the rep saved since that the views already show.
   */
  get queue(): QueueCounts | null {
    const data = this.#data;
    const queue = this.#inbox.queueOf(data?.cache.accountKey ?? null);
    const ahead = data?.customers.ahead.unmirrored ?? 0;
    if (!data || ahead === 0) return queue;
    const counts = queue ?? queueCounts(data.ops);
    return { ...counts, queued: counts.queued + ahead, waiting: counts.waiting + ahead };
  }

  /** True once the remembered account (or the lack of one) is known. */
  get started(): boolean {
    return this.#started;
  }

  /**
   * False when this page remembers no account (a first launch, after a sign-out): until main's
   * first word there is nothing to show, and the app's shell with its map would be made only to
   * give way to the sign-in form.
   */
  get remembersAccount(): boolean {
    return this.#remembers;
  }

  start(): void {
    const on = this.api.on.bind(this.api);
    this.#unsubscribe.push(this.support.start(), this.reminders.start());
    this.#unsubscribe.push(
      ...this.#inbox.start(),
      on('customer:open', () => void this.#takeOpen()),
      on('conflicts:changed', (p) => {
        if (p.accountKey === this.session.account?.accountKey)
          this.outbox.setConflicts(p.conflicts);
      }),
      this.basemap.start(),
    );
    // The last account's cache shows at once; then the road opens, and main's first word on it
    // (its session) says who is signed in: the same account, another, or none.
    const remembered = this.storage.getItem(LAST_ACCOUNT_KEY);
    this.#remembers = remembered !== null;
    this.#enqueue(async () => {
      if (remembered !== null) {
        await this.#open(remembered);
        this.#started = true;
      }
      await this.#inbox.openRoad();
    });
  }

  stop(): void {
    for (const off of this.#unsubscribe) off();
    this.#unsubscribe = [];
    this.#inbox.stop();
    this.imports.stop();
    this.#data?.dispose();
    this.#data = null;
  }

  /** Resolves when the session's changes and every road message taken so far are applied. */
  async idle(): Promise<unknown> {
    await this.#queue;
    return this.#inbox.idle();
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
        await this.#inbox.forget(accountKey);
        const cache = await CustomerCache.open(accountKey);
        cache.close();
        await cache.destroy();
      });
      await this.idle();
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

  /** The session's changes of the open cache run one after another, in the order main said them. */
  #enqueue(task: () => Promise<void>): void {
    this.#queue = this.#queue.then(task).catch((error: unknown) => {
      console.error('fieldmap: a session change failed', error);
    });
  }

  async #open(accountKey: string): Promise<AccountData> {
    if (this.#data?.cache.accountKey === accountKey) return this.#data;
    this.#data?.dispose();
    this.selection.select(null);
    this.panels.reset();
    this.outbox.forget();
    const cache = await CustomerCache.open(accountKey);
    this.#data = new AccountData(cache, this.#inbox.stage);
    this.storage.setItem(LAST_ACCOUNT_KEY, accountKey);
    void this.imports.refresh();
    return this.#data;
  }

  async #onSession(account: AccountSummary | null): Promise<void> {
    this.session.setAccount(account);
    if (account === null) {
      if (this.#data) this.#inbox.stage.dropAccount(this.#data.cache.accountKey);
      this.#data?.dispose();
      this.#data = null;
      this.selection.select(null);
      this.panels.reset();
      this.outbox.forget();
      this.storage.removeItem(LAST_ACCOUNT_KEY);
      this.#started = true;
      return;
    }
    await this.#open(account.accountKey);
    this.#started = true;
    // Conflicts are kept across restarts: the count is main's, not zero until the next one.
    void this.outbox.loadConflicts();
    // A link or a reminder's click that started or reopened the window waits in main.
    void this.#takeOpen();
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

  /** The session's state that names customers follows a create's new id. */
  #renamed(payload: EventOf<'ids:resolved'>, data: AccountData): void {
    if (payload.kind !== 'customer') return;
    data.customers.renamed(payload.tempId, payload.id);
    this.selection.rename(payload.tempId, payload.id);
    this.panels.route.rename(payload.tempId, payload.id);
    data.plan.rename(payload.tempId, payload.id);
    weekPlanOf(data.cache).rename(payload.tempId, payload.id);
  }
}
