// The signed-in account and the sync engine's state, as main reports them in events.
import type { AccountSummary, SyncState } from '../../../src-shared';

export class SessionState {
  #account = $state.raw<AccountSummary | null>(null);
  #sync = $state.raw<SyncState>({ kind: 'signed-out' });

  get account(): AccountSummary | null {
    return this.#account;
  }

  get sync(): SyncState {
    return this.#sync;
  }

  setAccount(account: AccountSummary | null): void {
    this.#account = account;
  }

  setSync(state: SyncState): void {
    this.#sync = state;
  }
}
