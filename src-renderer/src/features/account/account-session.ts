// What the account screens (sign-in, the account menu, signing in again) may ask of the app: the
// session side of AppController, which satisfies this by its shape. A feature depends on this
// narrow interface, never on the controller, so it cannot reach the data or other panels.
import type { AccountSummary } from '../../../../src-shared';

export interface AccountSession {
  /** The remembered accounts, as last loaded. */
  readonly accounts: AccountSummary[];
  loadAccounts(): Promise<void>;
  login(baseUrl: string, username: string, password: string): Promise<AccountSummary>;
  startDemo(): Promise<AccountSummary>;
  switchAccount(accountKey: string): Promise<AccountSummary>;
  /** Signs out; refused with the count of unsynced changes unless `dropUnsynced`. */
  logout(
    accountKey: string,
    dropUnsynced: boolean,
  ): Promise<{ signedOut: boolean; unsynced: number }>;
  /** Opens the account's details panel. */
  readonly panels: { show(kind: 'account'): void };
}
