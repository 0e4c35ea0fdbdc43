// The signed-in account and the sync engine's state, as main reports them in events.
import type { AccountSummary, SyncState } from '../../../src-shared';

export class SessionState {
  #account = $state.raw<AccountSummary | null>(null);
  #sync = $state.raw<SyncState>({ kind: 'signed-out' });
  /** Main's first word on the sync has been applied: until then 'signed-out' is not its word. */
  #heard = $state(false);

  get account(): AccountSummary | null {
    return this.#account;
  }

  get sync(): SyncState {
    return this.#sync;
  }

  setAccount(account: AccountSummary | null): void {
    this.#account = account;
  }

  get heard(): boolean {
    return this.#heard;
  }

  setSync(state: SyncState): void {
    this.#sync = state;
    this.#heard = true;
  }
}
