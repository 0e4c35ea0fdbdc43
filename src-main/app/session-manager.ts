// Keeps the current account: sign in (credentials checked before anything is stored), switch,
// sign out, demo, and reopening the last account at start-up without the network.
import type { AccountSummary } from '../../src-shared/ipc-contract';
import type {
  Clock,
  CredentialStore,
  EmitEvent,
  OutboxPort,
  ServiceApi,
  SyncEnginePort,
} from '../core/ports';
import { nodeDurableFs, type DurableFs } from '../core/durable-fs';
import { accountKeyOf } from '../core/service/credential-store';
import { AccountsIndex, accountDirOf, type AccountIndexEntry } from './accounts-index';
import { AppError } from './app-error';
import { signInFailure } from './sign-in-errors';

/** One open account: its client, outbox and engine. */
export interface AccountRuntime {
  readonly client: ServiceApi;
  readonly outbox: OutboxPort;
  readonly engine: SyncEnginePort;
  close(): Promise<void>;
}

/** How the session manager builds the parts of an account (the real ones in account-runtime.ts). */
export interface RuntimeFactory {
  /** Normalises the base URL; throws when it is refused (https required except loopback). */
  validateBaseUrl(baseUrl: string): string;
  /** The password stays in main-process memory while the account is open (never on disk). */
  createClient(p: { baseUrl: string; username: string; password: string }): ServiceApi;
  openOutbox(p: { dir: string; accountKey: string }): Promise<OutboxPort>;
  open(p: { dir: string; accountKey: string; client: ServiceApi }): Promise<AccountRuntime>;
}

export interface DemoLauncher {
  start(): Promise<{ url: string; username: string; password: string }>;
  stop?(): Promise<void>;
}

export interface SessionManagerOptions {
  dataDir: string;
  emit: EmitEvent;
  credentialStore: CredentialStore;
  clock: Clock;
  factory: RuntimeFactory;
  demo?: DemoLauncher;
  /** The files' seam (default: the real file system with this platform's rules). */
  fs?: DurableFs;
  /**
   * Told when an account was closed (signed out, or another opened; not at quit): what it held
   * in memory is garbage (main-heap.ts collectAfterAccount). Not awaited.
   */
  closed?: () => void;
}

export interface CurrentSession {
  readonly account: AccountSummary;
  readonly runtime: AccountRuntime;
}

export class SessionManager {
  private index!: AccountsIndex;
  private current: CurrentSession | null = null;
  /** Session changes run one at a time, so a login never interleaves with a logout. */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(private readonly options: SessionManagerOptions) {}

  static async create(options: SessionManagerOptions): Promise<SessionManager> {
    const manager = new SessionManager(options);
    manager.index = await AccountsIndex.open(options.dataDir, options.fs);
    return manager;
  }

  get session(): CurrentSession | null {
    return this.current;
  }

  currentAccount(): AccountSummary | null {
    return this.current?.account ?? null;
  }

  listAccounts(): AccountSummary[] {
    return this.index.list().map(toSummary);
  }

  /** Reopens the last used account from the index and the keychain; no network call. */
  restoreLast(): Promise<AccountSummary | null> {
    return this.serial(async () => {
      const entry = this.index.lastUsed();
      if (!entry) return null;
      if (entry.demo && this.options.demo) await this.options.demo.start();
      const password = await this.options.credentialStore.load(entry.baseUrl, entry.username);
      if (password === null) return null;
      return this.openAccount(entry, password);
    });
  }

  login(
    baseUrl: string,
    username: string,
    password: string,
    demo = false,
  ): Promise<AccountSummary> {
    return this.serial(async () => {
      const { factory, credentialStore } = this.options;
      const url = factory.validateBaseUrl(baseUrl);
      const accountKey = accountKeyOf(url, username);
      const client = factory.createClient({ baseUrl: url, username, password });
      // One GET /user before anything is stored: a wrong password leaves no trace.
      await client.getUser({ priority: 'user' }).catch((e: unknown) => {
        throw signInFailure(e, url);
      });
      await credentialStore.save(url, username, password);
      const entry = {
        accountKey,
        baseUrl: url,
        username,
        demo,
        lastUsedAt: this.options.clock.now(),
      };
      return this.openAccount(entry, password, client);
    });
  }

  switchAccount(accountKey: string): Promise<AccountSummary> {
    return this.serial(async () => {
      const entry = this.index.get(accountKey);
      if (!entry)
        throw new AppError('InvalidRequest', { detail: 'unknown account', field: 'accountKey' });
      if (entry.demo && this.options.demo) await this.options.demo.start();
      const password = await this.options.credentialStore.load(entry.baseUrl, entry.username);
      if (password === null) {
        throw new AppError('Unauthorized', {
          detail: 'no saved password for this account: sign in again',
        });
      }
      return this.openAccount({ ...entry, lastUsedAt: this.options.clock.now() }, password);
    });
  }

  startDemo(): Promise<AccountSummary> {
    const demo = this.options.demo;
    if (!demo)
      return Promise.reject(new AppError('Internal', { detail: 'demo mode is not available' }));
    return demo.start().then((d) => this.login(d.url, d.username, d.password, true));
  }

  logout(
    accountKey: string,
    dropUnsynced: boolean,
  ): Promise<{ signedOut: boolean; unsynced: number }> {
    return this.serial(async () => {
      const entry = this.index.get(accountKey);
      if (!entry)
        throw new AppError('InvalidRequest', { detail: 'unknown account', field: 'accountKey' });
      const dir = accountDirOf(this.options.dataDir, accountKey);
      const isCurrent = this.current?.account.accountKey === accountKey;
      const outbox = isCurrent
        ? this.current!.runtime.outbox
        : await this.options.factory.openOutbox({ dir, accountKey });
      const unsynced = outbox.list().length;
      if (unsynced > 0 && !dropUnsynced) {
        if (!isCurrent) await outbox.close();
        return { signedOut: false, unsynced };
      }
      if (isCurrent) await this.closeCurrent();
      else await outbox.close();
      await this.options.credentialStore.delete(entry.baseUrl, entry.username);
      await (this.options.fs ?? nodeDurableFs).remove(dir, { recursive: true });
      await this.index.remove(accountKey);
      // Announced only once the account is gone, so the sign-in screen never lists it.
      if (isCurrent) {
        this.options.emit('session:changed', null);
        this.options.emit('sync:state', { kind: 'signed-out' });
      }
      return { signedOut: true, unsynced };
    });
  }

  async dispose(): Promise<void> {
    // Quitting: the process's memory goes with it, no collection to wait behind.
    await this.serial(() => this.closeCurrent(false));
    await this.options.demo?.stop?.();
  }

  private async openAccount(
    entry: AccountIndexEntry,
    password: string,
    client?: ServiceApi,
  ): Promise<AccountSummary> {
    const { factory, dataDir } = this.options;
    await this.closeCurrent();
    const api =
      client ??
      factory.createClient({ baseUrl: entry.baseUrl, username: entry.username, password });
    const runtime = await factory.open({
      dir: accountDirOf(dataDir, entry.accountKey),
      accountKey: entry.accountKey,
      client: api,
    });
    await this.index.upsert(entry);
    const account = toSummary(entry);
    this.current = { account, runtime };
    this.options.emit('session:changed', account);
    runtime.engine.start();
    return account;
  }

  private async closeCurrent(collect = true): Promise<void> {
    const current = this.current;
    this.current = null;
    if (!current) return;
    await current.runtime.close();
    if (collect) this.options.closed?.();
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

function toSummary(entry: AccountIndexEntry): AccountSummary {
  return {
    accountKey: entry.accountKey,
    baseUrl: entry.baseUrl,
    username: entry.username,
    demo: entry.demo,
  };
}
