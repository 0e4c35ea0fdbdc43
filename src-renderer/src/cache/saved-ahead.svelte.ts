// What the rep saved that the page's read of the cache does not show yet. Main answers an
// enqueue once the op is on disk, but the cache shows it only once main's outbox mirror
// ('outbox:changed') has been applied by the cache worker and the page has read the customer
// back; while the worker is busy (a 100k stream saving, a bulk's mirrors) that takes seconds,
// and every view showed the row as it was before the edit: the details panel that replaces the
// closed editor, the list row, the popup and the pin. So the page lays the ops it saved over the
// rows it read, by the overlay's own rule (overlay.ts), from the moment the enqueue answers until
// the cache holds a version at least that new: a mirror applied after that holds the op (or says
// it reached the service), and the page read its customer back after it. The worker stays the
// cache's only writer: this is the page's view, which every view reads (CustomersState).
import { SvelteSet } from 'svelte/reactivity';
import type { Op } from '../../../src-shared';
import { lowerBoundById, patchById } from './id-order';
import { applyCustomerOp } from './overlay';
import type { CustomerRow, FieldmapDb, PendingRow } from './schema';

type CustomerOp = Extract<Op, { kind: 'createCustomer' | 'updateCustomer' | 'deleteCustomer' }>;

/** What the layer needs of the page's feed of the cache's rows (customer-feed.svelte.ts). */
export interface AheadFeed<V> {
  changedSince(base: readonly V[], rows: readonly V[]): Set<string> | null;
  refresh(ids: Iterable<string>): Promise<void>;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** True when the mirrored op holds `op` as saved (a coalesced later save makes it hold more). */
function holds(row: PendingRow | undefined, op: CustomerOp): boolean {
  if (!row || row.kind !== op.kind) return false;
  if (op.kind === 'deleteCustomer') return true;
  const held = row.payload as Record<string, unknown>;
  return Object.entries(op.payload).every(([key, value]) => same(held[key], value));
}

export class SavedAhead<V extends CustomerRow> {
  /** In save order; a save main coalesced into a queued op replaces that op's earlier version. */
  #ops = $state.raw<readonly CustomerOp[]>([]);
  /** Ops the cache holds, until the page's read of it does too. */
  #landing = new SvelteSet<CustomerOp>();
  /** Ops whose opId the mirror already counts (an earlier version of a coalesced save). */
  #counted = new SvelteSet<CustomerOp>();
  /**
   * The queued ops of the last mirror the worker reported applied: exactly what the status bar's
   * queue counts. The cache can show a mirror a moment before its report comes (the worker writes
   * it, then replies), so an op the page finds in the cache is taken off its own count only once
   * a report held it, or the bar would count it nowhere ("Synced" right after a Save).
   */
  #held: ReadonlySet<string> = new Set();
  /** Each array `apply` gave out: the feed's array under it and the ids it laid over. */
  readonly #layers = new WeakMap<readonly V[], { base: readonly V[]; ids: ReadonlySet<string> }>();
  #last: { base: readonly V[]; ops: readonly CustomerOp[]; rows: V[] } | null = null;
  #checks: Promise<void> = Promise.resolve();
  /** New id -> the temporary one it replaced, for ops renamed here. */
  readonly #renamed = new Map<string, string>();

  constructor(
    private readonly db: FieldmapDb,
    private readonly feed: AheadFeed<V>,
    private readonly view: (rows: CustomerRow[]) => V[],
  ) {}

  /** Main queued `op` (its answer to the enqueue): every view shows it from now on. */
  saved(op: Op): void {
    if (
      op.kind !== 'createCustomer' &&
      op.kind !== 'updateCustomer' &&
      op.kind !== 'deleteCustomer'
    )
      return;
    const at = this.#ops.findIndex((o) => o.opId === op.opId);
    const earlier = this.#ops[at];
    // A save main coalesced into a queued op: the queue already counts that op.
    if (earlier && this.#counted.delete(earlier)) this.#counted.add(op);
    let ops = at < 0 ? [...this.#ops, op] : this.#ops.map((o, i) => (i === at ? op : o));
    // A delete that cancelled a create not yet sent (state 'done'): nothing of it is left.
    if (op.state === 'done') ops = ops.filter((o) => o === op || o.target !== op.target);
    this.#ops = ops;
    // Its mirror may have been reported before the answer came.
    if (this.#held.has(op.opId)) this.#counted.add(op);
    this.#recheck(new Set());
  }

  /**
   * The cache worker applied an outbox mirror; `reached`: its ops the service has; `held`: its
   * queued ops, which the status bar's queue (applied with it) already counts. Taken in this very
   * task, or the bar would count a saved change twice until the check below reads the cache.
   */
  mirrored(reached: readonly string[], held: readonly string[] = []): void {
    this.#held = new Set(held);
    if (this.#ops.length === 0) return;
    for (const op of this.#ops) if (this.#held.has(op.opId)) this.#counted.add(op);
    this.#recheck(new Set(reached));
  }

  #recheck(done: ReadonlySet<string>): void {
    this.#checks = this.#checks
      .then(() => this.#check(done))
      .catch((error: unknown) =>
        console.error('fieldmap: could not read the outbox mirror', error),
      );
  }

  async #check(reached: ReadonlySet<string>): Promise<void> {
    const asked = this.#ops.filter((op) => !this.#landing.has(op));
    if (asked.length === 0) return;
    const held = await this.db.pending.bulkGet(asked.map((op) => op.opId));
    const landed: CustomerOp[] = [];
    for (const [i, op] of asked.entries()) {
      const row = held[i];
      const counted = this.#held.has(op.opId);
      if (reached.has(op.opId) || (counted && holds(row, op))) landed.push(op);
      else if (row && counted) this.#counted.add(op);
      else if (op.state === 'done') {
        // The cancelled create is out of the mirror: the cache no longer shows the customer.
        if ((await this.db.pending.where('target').equals(op.target).count()) === 0)
          landed.push(op);
      }
    }
    if (landed.length === 0) return;
    for (const op of landed) this.#landing.add(op);
    await this.feed.refresh(landed.map((op) => op.target));
    // The rows read back show these ops: the layer lets them go in the same task. (An op renamed
    // meanwhile is a copy with the same payload; a later save of it has its own.)
    const gone = new Map(landed.map((op) => [op.opId, op.payload]));
    const ops = this.#ops.filter((op) => gone.get(op.opId) !== op.payload);
    this.#ops = ops;
    for (const op of [...this.#landing]) if (!ops.includes(op)) this.#landing.delete(op);
    for (const op of [...this.#counted]) if (!ops.includes(op)) this.#counted.delete(op);
  }

  /** Saved changes the cache worker has not applied yet (the status bar counts them queued). */
  get unmirrored(): number {
    return this.#ops.filter(
      (op) => op.state !== 'done' && !this.#landing.has(op) && !this.#counted.has(op),
    ).length;
  }

  /**
   * A create's temporary id became the service's (the cache holds it under that id): its saved
   * ops follow, and its row under the old id, until the page reads the cache again, is hidden.
   */
  renamed(from: string, to: string): void {
    if (!this.#ops.some((op) => op.target === from)) return;
    this.#renamed.set(to, from);
    this.#ops = this.#ops.map((op) => {
      if (op.target !== from) return op;
      const renamed = { ...op, target: to };
      if (this.#landing.delete(op)) this.#landing.add(renamed);
      if (this.#counted.delete(op)) this.#counted.add(renamed);
      return renamed;
    });
  }

  /** `base` (the feed's rows, in id order) with the saved ops laid over it. */
  apply(base: V[]): V[] {
    const ops = this.#ops;
    if (ops.length === 0) return base;
    const last = this.#last;
    if (last?.base === base && last.ops === ops) return last.rows;
    const read = (id: string): V | null => {
      const row = base[lowerBoundById(base, id)];
      return row?.id === id ? row : null;
    };
    const working = new Map<string, CustomerRow | null>();
    for (const op of ops) {
      if (working.has(op.target)) continue;
      working.set(op.target, read(op.target));
      const was = this.#renamed.get(op.target);
      if (was !== undefined && read(was)) working.set(was, null);
    }
    for (const op of ops) applyCustomerOp(working, op);
    const ids: string[] = [];
    const fresh: CustomerRow[] = [];
    for (const [id, row] of working) {
      if (row === read(id)) continue;
      ids.push(id);
      if (row) fresh.push(row);
    }
    const rows = ids.length === 0 ? base : patchById(base, ids, this.view(fresh));
    if (rows !== base) this.#layers.set(rows, { base, ids: new Set(ids) });
    this.#last = { base, ops, rows };
    return rows;
  }

  /** The feed's array under `rows` (an array `apply` gave out) and the ids laid over it. */
  under(rows: readonly V[]): { base: readonly V[]; ids: ReadonlySet<string> } | null {
    return this.#layers.get(rows) ?? null;
  }

  /** The ids that may differ between two arrays `apply` gave out (see CustomerFeed's). */
  changedSince(before: readonly V[], rows: readonly V[]): Set<string> | null {
    const a = this.#layers.get(before);
    const b = this.#layers.get(rows);
    const ids = this.feed.changedSince(a?.base ?? before, b?.base ?? rows);
    if (ids === null) return null;
    for (const id of a?.ids ?? []) ids.add(id);
    for (const id of b?.ids ?? []) ids.add(id);
    return ids;
  }
}
