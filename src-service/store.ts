// ServiceStore: every account's data, the operations the endpoints perform on it, and direct
// access for tests. Records are stored canonically and emitted under the current variants.
import type { Customer, Route, Territory } from '../src-shared/domain';
import { isValidPosition } from '../src-shared/geo';
import {
  emitCustomer,
  emitPointList,
  emitUser,
  emptyAccount,
  type Account,
  type StoredPointList,
} from './account';
import {
  defaultFields,
  parseCustomerBody,
  type FieldChanges,
  type StoredCustomer,
} from './customers';
import { generateAccountData } from './demo-data';
import { HttpError } from './http-error';
import { newId } from './ids';
import { hashPassword, verifyPassword } from './password';
import { normaliseStored } from './normalise';
import { DEFAULT_VARIANTS, type AccountSpec, type ServiceStoreApi, type Variants } from './types';

export const DEFAULT_ACCOUNTS: AccountSpec[] = [
  { username: 'demo', password: 'demo' },
  { username: 'demo2', password: 'demo2' },
];
export const DEFAULT_CUSTOMERS = 500;
const UNKNOWN_USER_HASH = hashPassword('\u0000');

export class ServiceStore implements ServiceStoreApi {
  /** Reading of the spec's gaps used when emitting records; set by the running service. */
  variants: Variants = { ...DEFAULT_VARIANTS };
  /** Called after every change (persistence hooks in here). */
  onChange: (() => void) | undefined;
  private readonly accounts = new Map<string, Account>();

  constructor(private readonly now: () => number = Date.now) {}

  // ---- accounts -------------------------------------------------------------------------

  addAccount(spec: AccountSpec, seed = 1): void {
    if (this.accounts.has(spec.username)) throw new Error(`account ${spec.username} exists`);
    const account = emptyAccount(spec.username, spec.password, this.now());
    generateAccountData(
      account,
      spec.customers ?? DEFAULT_CUSTOMERS,
      spec.seed ?? seed,
      this.now(),
    );
    this.accounts.set(spec.username, account);
    this.changed();
  }

  /** Changes an account's password (someone changed it on the service): old credentials get 401. */
  setPassword(username: string, password: string): void {
    const account = this.accounts.get(username);
    if (!account) throw new Error(`no account ${username}`);
    account.passwordHash = hashPassword(password);
    this.changed();
  }

  /** Restores a persisted account as is. */
  putAccount(account: Account): void {
    this.accounts.set(account.username, account);
  }

  allAccounts(): Account[] {
    return [...this.accounts.values()];
  }

  /** The account whose credentials match; else undefined. Hashes on async scrypt. */
  async authenticate(username: string, password: string): Promise<Account | undefined> {
    const account = this.accounts.get(username);
    // Hash even for an unknown user so both answers take the same time.
    const same = await verifyPassword(password, account?.passwordHash ?? UNKNOWN_USER_HASH);
    return account && same ? account : undefined;
  }

  // ---- operations of the endpoints ----------------------------------------------------------

  /** A fresh id: opaque text, or the next number (an AUTO_INCREMENT column) under 'numeric'. */
  private newRecordId(account: Account): string {
    if (this.variants.ids === 'numeric') {
      const taken = [...account.customers.keys(), ...account.routes.map((r) => r.id)];
      const numbers = taken.filter((id) => /^\d+$/.test(id)).map(Number);
      return String(Math.max(40, ...numbers) + 1);
    }
    let id = newId();
    while (account.customers.has(id) || account.routes.some((r) => r.id === id)) id = newId();
    return id;
  }

  createCustomer(account: Account, sent: FieldChanges): StoredCustomer {
    const fields = this.stored(sent);
    const now = this.now();
    const id = this.newRecordId(account);
    const record: StoredCustomer = {
      id,
      ...defaultFields(),
      ...fields,
      createdAtMs: now,
      updatedAtMs: now,
    };
    account.customers.set(id, record);
    this.changed();
    return record;
  }

  updateCustomer(
    account: Account,
    id: string,
    changes: FieldChanges,
    mode: 'patch' | 'replace',
  ): StoredCustomer | undefined {
    const current = account.customers.get(id);
    if (!current) return undefined;
    const base = mode === 'replace' ? defaultFields() : {};
    Object.assign(current, base, this.stored(changes));
    // Strictly increasing, so a client can see every change in updatedAt (1 s resolution).
    current.updatedAtMs = Math.max(this.now(), current.updatedAtMs + 1000);
    this.changed();
    return current;
  }

  deleteCustomer(account: Account, id: string): boolean {
    const deleted = account.customers.delete(id);
    if (deleted) this.changed();
    return deleted;
  }

  createRoute(account: Account, name: string, customerIds: string[]): StoredPointList {
    const bad = customerIds.filter((id) => {
      const c = account.customers.get(id);
      return !c || !isValidPosition(c.latitude, c.longitude);
    });
    if (bad.length > 0) {
      throw new HttpError(
        400,
        'invalid_customer_ids',
        `These ids are not customers of this account with a position: ${[...new Set(bad)].join(', ')}.`,
        { ids: [...new Set(bad)] },
      );
    }
    const now = this.now();
    const points = customerIds.map((id) => {
      const c = account.customers.get(id) as StoredCustomer;
      return `${c.latitude},${c.longitude}`;
    });
    const route = {
      id: this.newRecordId(account),
      name,
      points,
      createdAtMs: now,
      updatedAtMs: now,
    };
    account.routes.push(route);
    this.changed();
    return route;
  }

  mergeCustomFields(account: Account, fields: Record<string, number>): void {
    Object.assign(account.customFields, fields);
    account.updatedAtMs = Math.max(this.now(), account.updatedAtMs + 1000);
    this.changed();
  }

  // ---- direct access (ServiceStoreApi) ------------------------------------------------------

  customers(username: string): Customer[] {
    const account = this.require(username);
    return [...account.customers.values()].map((c) => emitCustomer(c, this.variants));
  }

  customer(username: string, id: string): Customer | undefined {
    const c = this.require(username).customers.get(id);
    return c && emitCustomer(c, this.variants);
  }

  routes(username: string): Route[] {
    return this.require(username).routes.map((r) => emitPointList(r, this.variants));
  }

  territories(username: string): Territory[] {
    return this.require(username).territories.map((r) => emitPointList(r, this.variants));
  }

  user(username: string) {
    const account = this.accounts.get(username);
    return account && emitUser(account, this.variants);
  }

  customFields(username: string): Record<string, number> {
    return { ...this.require(username).customFields };
  }

  updateCustomerDirect(username: string, id: string, changes: Record<string, unknown>): Customer {
    const account = this.require(username);
    const fields = parseCustomerBody(changes, { requireName: false, colors: account.colors });
    const updated = this.updateCustomer(account, id, fields, 'patch');
    if (!updated) throw new Error(`no customer ${id} in account ${username}`);
    return emitCustomer(updated, this.variants);
  }

  createCustomerDirect(username: string, fields: Record<string, unknown>): Customer {
    const account = this.require(username);
    const parsed = parseCustomerBody(fields, { requireName: true, colors: account.colors });
    return emitCustomer(this.createCustomer(account, parsed), this.variants);
  }

  account(username: string): Account | undefined {
    return this.accounts.get(username);
  }

  /** Fields in the form this store keeps them (the "store" variant). */
  private stored(fields: FieldChanges): FieldChanges {
    return this.variants.store === 'normalising' ? normaliseStored(fields) : fields;
  }

  private require(username: string): Account {
    const account = this.accounts.get(username);
    if (!account) throw new Error(`no account ${username}`);
    return account;
  }

  private changed(): void {
    this.onChange?.();
  }
}
