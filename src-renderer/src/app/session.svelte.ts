// The signed-in account and the sync engine's state, as main reports them in events.
import type { AccountSummary, SyncState } from '../../../src-shared';

export class SessionState {
  #account = $state.raw<AccountSummary | null>(null);
  #sync = $state.raw<SyncState>({ kind: 'signed-out' });
  /** When the page applied main's sync state, on `now`: its time left counts down from then. */
  #syncAt = $state(0);
  /** Main's first word on the sync has been applied: until then 'signed-out' is not its word. */
  #heard = $state(false);

  /** The page's clock (tests give their own). */
  constructor(readonly now: () => number = () => Date.now()) {
    this.#syncAt = now();
  }

  get account(): AccountSummary | null {
    return this.#account;
  }

  get sync(): SyncState {
    return this.#sync;
  }

  get syncAt(): number {
    return this.#syncAt;
  }

  setAccount(account: AccountSummary | null): void {
    this.#account = account;
  }

  get heard(): boolean {
    return this.#heard;
  }

  setSync(state: SyncState): void {
    this.#sync = state;
    this.#syncAt = this.now();
    this.#heard = true;
  }
}
