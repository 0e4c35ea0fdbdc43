// The Changes and Conflicts views' actions: retry, edit or discard a queued op; list and
// resolve conflicts. Conflicts arrive in 'conflicts:changed', and are asked for when an account
// opens (they are kept across restarts) and when the view is shown.
import {
  toFieldmapError,
  type Conflict,
  type Customer,
  type FieldmapApi,
  type Op,
  type RequestOf,
} from '../../../../src-shared';

export class OutboxActions {
  #conflicts = $state.raw<Conflict[]>([]);
  /** Main's list has been heard for this account: until then there is no count to show. */
  #known = $state(false);
  #failure = $state<string | null>(null);

  constructor(private readonly api: FieldmapApi) {}

  get conflicts(): Conflict[] {
    return this.#conflicts;
  }

  /** Conflicts the rep has not decided yet. */
  get undecided(): Conflict[] {
    return this.#conflicts.filter((c) => c.resolution === 'rep-default');
  }

  /** False until main's conflicts for the open account are heard ("0" would be a guess). */
  get known(): boolean {
    return this.#known;
  }

  /** The last failed action's message, or null. */
  get failure(): string | null {
    return this.#failure;
  }

  setConflicts(conflicts: Conflict[]): void {
    this.#conflicts = conflicts;
    this.#known = true;
  }

  /** Another account (or none) opens: nothing is known of its conflicts yet. */
  forget(): void {
    this.#conflicts = [];
    this.#known = false;
  }

  async #run<T>(action: () => Promise<T>): Promise<T | null> {
    this.#failure = null;
    try {
      return await action();
    } catch (error) {
      this.#failure = toFieldmapError(error).message;
      return null;
    }
  }

  async loadConflicts(): Promise<void> {
    const list = await this.#run(() => this.api.listConflicts());
    if (list) this.setConflicts(list);
  }

  async resolve(conflictId: string, choice: 'rep' | 'server'): Promise<void> {
    const updated = await this.#run(() => this.api.resolveConflict({ conflictId, choice }));
    if (updated)
      this.#conflicts = this.#conflicts.map((c) => (c.conflictId === conflictId ? updated : c));
  }

  retry(op: Op): Promise<Op | null> {
    return this.#run(() => this.api.retryOp({ opId: op.opId }));
  }

  edit(op: Op, payload: RequestOf<'outbox:edit'>['payload']): Promise<Op | null> {
    return this.#run(() => this.api.editOp({ opId: op.opId, payload }));
  }

  /** The records offered for an ambiguous create (null: not one, or the call failed). */
  candidates(op: Op): Promise<Customer[] | null> {
    return this.#run(() => this.api.createCandidates({ opId: op.opId }));
  }

  /** The rep's answer for an ambiguous create: a candidate's id, or null to create it. */
  chooseCreated(op: Op, customerId: string | null): Promise<boolean | null> {
    return this.#run(() => this.api.chooseCreated({ opId: op.opId, customerId }));
  }

  discard(op: Op): Promise<boolean | null> {
    return this.#run(() => this.api.discardOp({ opId: op.opId }));
  }

  syncNow(): Promise<unknown> {
    return this.#run(() => this.api.syncNow());
  }
}
