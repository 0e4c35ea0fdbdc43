// The visible log of fields the rep and the service both changed: what the service held
// before the rep's value overwrote it, so the rep can take the service's value back.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import * as v from 'valibot';
import { ConflictSchema, type Conflict } from '../../../src-shared/outbox-types';
import { nodeDurableFs, type DurableFs } from '../durable-fs';

export type NewConflict = Omit<Conflict, 'conflictId' | 'resolution' | 'accountKey'>;

/** Most conflicts kept; the oldest decided ones go first. */
const MAX_CONFLICTS = 1_000;

export class ConflictLog {
  readonly #file: string;
  readonly #accountKey: string;
  #conflicts: Conflict[] = [];
  #queue: Promise<unknown> = Promise.resolve();

  readonly #fs: DurableFs;

  private constructor(file: string, accountKey: string, fs: DurableFs) {
    this.#file = file;
    this.#accountKey = accountKey;
    this.#fs = fs;
  }

  static async open(
    stateDir: string,
    accountKey: string,
    fs: DurableFs = nodeDurableFs,
  ): Promise<ConflictLog> {
    const log = new ConflictLog(path.join(stateDir, 'conflicts.json'), accountKey, fs);
    const raw = await fs.readJsonStrict(log.#file);
    if (raw !== undefined) log.#conflicts = v.parse(v.array(ConflictSchema), raw);
    return log;
  }

  list(): Conflict[] {
    return this.#conflicts.map((c) => ({ ...c }));
  }

  get(conflictId: string): Conflict | undefined {
    return this.#conflicts.find((c) => c.conflictId === conflictId);
  }

  /** Adds conflicts durably; a newer conflict on the same field replaces an undecided one. */
  async add(entries: NewConflict[]): Promise<Conflict[]> {
    if (entries.length === 0) return [];
    const added = entries.map((e): Conflict => ({
      ...e,
      conflictId: randomUUID(),
      accountKey: this.#accountKey,
      resolution: 'rep-default',
    }));
    const replaced = (c: Conflict) =>
      c.resolution === 'rep-default' &&
      added.some((a) => a.customerId === c.customerId && a.field === c.field);
    await this.#update((current) => {
      let next = [...current.filter((c) => !replaced(c)), ...added];
      if (next.length > MAX_CONFLICTS) {
        const overflow = next.length - MAX_CONFLICTS;
        const decided = next.filter((c) => c.resolution !== 'rep-default').slice(0, overflow);
        next = next.filter((c) => !decided.includes(c)).slice(-MAX_CONFLICTS);
      }
      return next;
    });
    return added;
  }

  async resolve(conflictId: string, choice: 'rep' | 'server'): Promise<Conflict | undefined> {
    let updated: Conflict | undefined;
    await this.#update((current) =>
      current.map((c) =>
        c.conflictId === conflictId ? (updated = { ...c, resolution: choice }) : c,
      ),
    );
    return updated;
  }

  /**
   * One change at a time, each computed from the list as it is when its turn comes: two
   * decisions made at once (two radio buttons) must both survive.
   */
  #update(change: (current: Conflict[]) => Conflict[]): Promise<void> {
    const run = this.#queue.then(async () => {
      const next = change(this.#conflicts);
      if (next === this.#conflicts) return;
      await this.#fs.writeJson(this.#file, next);
      this.#conflicts = next;
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
