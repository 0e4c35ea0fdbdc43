// The visible log of fields the rep and the service both changed: what the service held
// before the rep's value overwrote it, so the rep can take the service's value back.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import * as v from 'valibot';
import { ConflictSchema, type Conflict } from '../../src-shared/outbox-types';
import { readJsonStrict, writeJsonAtomic } from './atomic-file';

export type NewConflict = Omit<Conflict, 'conflictId' | 'resolution' | 'accountKey'>;

/** Most conflicts kept; the oldest decided ones go first. */
const MAX_CONFLICTS = 1_000;

export class ConflictLog {
  readonly #file: string;
  readonly #accountKey: string;
  #conflicts: Conflict[] = [];

  private constructor(file: string, accountKey: string) {
    this.#file = file;
    this.#accountKey = accountKey;
  }

  static async open(stateDir: string, accountKey: string): Promise<ConflictLog> {
    const log = new ConflictLog(path.join(stateDir, 'conflicts.json'), accountKey);
    const raw = await readJsonStrict(log.#file);
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
    let next = [...this.#conflicts.filter((c) => !replaced(c)), ...added];
    if (next.length > MAX_CONFLICTS) {
      const overflow = next.length - MAX_CONFLICTS;
      const decided = next.filter((c) => c.resolution !== 'rep-default').slice(0, overflow);
      next = next.filter((c) => !decided.includes(c)).slice(-MAX_CONFLICTS);
    }
    await this.#write(next);
    return added;
  }

  async resolve(conflictId: string, choice: 'rep' | 'server'): Promise<Conflict | undefined> {
    const found = this.get(conflictId);
    if (!found) return undefined;
    const updated = { ...found, resolution: choice };
    await this.#write(this.#conflicts.map((c) => (c.conflictId === conflictId ? updated : c)));
    return updated;
  }

  /** Follows a temp id's resolution (conflicts are only logged for server ids, but be safe). */
  async rewriteCustomerId(from: string, to: string): Promise<void> {
    if (!this.#conflicts.some((c) => c.customerId === from)) return;
    await this.#write(
      this.#conflicts.map((c) => (c.customerId === from ? { ...c, customerId: to } : c)),
    );
  }

  async #write(next: Conflict[]): Promise<void> {
    await writeJsonAtomic(this.#file, next);
    this.#conflicts = next;
  }
}
