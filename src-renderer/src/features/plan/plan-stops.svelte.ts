// The customers the rep means to visit this week: the pool "Plan the week" spreads over days.
// Stops come from the popup ("Add to plan"), Nearby ("Add to today's plan") and the bulk actions
// of a lasso; "today" pins a stop to the first day. Kept in the account's cache (meta row 'plan'),
// so it survives a restart and goes with the account at sign-out.
import type { CustomerCache } from '../../cache/customer-cache';

type Stored = { ids: string[]; today: string[] };

function isStored(value: unknown): value is Stored {
  if (!value || typeof value !== 'object') return false;
  const { ids, today } = value as Record<string, unknown>;
  const strings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'string');
  return strings(ids) && strings(today);
}

export class PlanStops {
  #ids = $state.raw<string[]>([]);
  #today = $state.raw<ReadonlySet<string>>(new Set());
  #loaded: Promise<void>;
  /** Writes run one after another, so the last one wins. */
  #saving: Promise<void> = Promise.resolve();

  constructor(private readonly cache: CustomerCache) {
    this.#loaded = cache.db.meta
      .get('plan')
      .then((row) => {
        if (!isStored(row?.value)) return;
        // Anything added before the read answered stays, after what was stored.
        this.#ids = [...new Set([...row.value.ids, ...this.#ids])];
        this.#today = new Set([...row.value.today, ...this.#today]);
      })
      .catch(() => undefined);
  }

  /** Resolves once the stored plan has been read. */
  loaded(): Promise<void> {
    return this.#loaded;
  }

  /** The planned customers, in the order they were added. */
  get ids(): readonly string[] {
    return this.#ids;
  }

  get count(): number {
    return this.#ids.length;
  }

  has(id: string): boolean {
    return this.#ids.includes(id);
  }

  /** True when the stop is pinned to today (the plan's first day). */
  isToday(id: string): boolean {
    return this.#today.has(id);
  }

  /** Adds customers (already planned ones stay where they are); `today` pins them to day one. */
  add(ids: readonly string[], options: { today?: boolean } = {}): void {
    const known = new Set(this.#ids);
    this.#ids = [...this.#ids, ...ids.filter((id) => !known.has(id) && known.add(id))];
    if (options.today) this.#today = new Set([...this.#today, ...ids]);
    this.#save();
  }

  remove(ids: readonly string[]): void {
    const gone = new Set(ids);
    this.#ids = this.#ids.filter((id) => !gone.has(id));
    this.#today = new Set([...this.#today].filter((id) => !gone.has(id)));
    this.#save();
  }

  clear(): void {
    this.#ids = [];
    this.#today = new Set();
    this.#save();
  }

  /** A created customer got its server id ('ids:resolved'). */
  rename(tempId: string, id: string): void {
    if (!this.has(tempId)) return;
    this.#ids = this.#ids.map((x) => (x === tempId ? id : x));
    if (this.#today.has(tempId))
      this.#today = new Set([...this.#today].map((x) => (x === tempId ? id : x)));
    this.#save();
  }

  #save(): void {
    const value: Stored = { ids: [...this.#ids], today: [...this.#today] };
    this.#saving = this.#saving
      .then(() => this.#loaded)
      .then(() => this.cache.db.meta.put({ key: 'plan', value }))
      .then(() => undefined)
      .catch((error: unknown) => console.error('fieldmap: the plan was not saved', error));
  }
}
