// Everything the views read from one account's cache, as live rune state.
import { PALETTE, type Op, type Territory, type UserMeta } from '../../../src-shared';
import { type TimeUnit } from '../../../src-shared/visits';
import { storedTimeSides, unitOfSides } from '../../../src-shared/time-units';
import type { CustomerCache } from '../cache/customer-cache';
import type { SnapshotStage } from '../cache/snapshot-stage';
import type { CustomerView, RouteView } from '../types';
import { KeyCounts } from '../cache/key-counts';
import { CustomersState } from '../features/customers/customers.svelte';
import { LiveQuery } from '../cache/live-query.svelte';
import { PlanStops } from '../features/plan/plan-stops.svelte';
import { NearbyState } from '../features/nearby/nearby.svelte';
import {
  customFieldNames,
  heldCustomFields,
  usedCustomFields,
  type CustomFieldName,
} from '../features/editor/custom-field-names';

export class AccountData {
  readonly customers: CustomersState;
  /** The customers the rep means to visit this week (Plan the week). */
  readonly plan: PlanStops;
  /** Who is near a customer or a point (its search runs in a worker). */
  readonly nearby = new NearbyState();
  #user: LiveQuery<UserMeta | null>;
  #routes: LiveQuery<RouteView[]>;
  #territories: LiveQuery<Territory[]>;
  #lastSync: LiveQuery<number | null>;
  #ops: LiveQuery<Op[]>;
  /** The account's pin colours (the default palette until the service sends its own). */
  readonly colors: string[] = $derived.by(() => {
    const own = this.user?.colors;
    return own?.length ? own : [...PALETTE];
  });
  // What the views below read of every customer, counted again per data version only for the
  // customers that changed (cache/key-counts.ts). The groups come from the list's keys.
  #fieldCounts = new KeyCounts<CustomerView>(heldCustomFields, (base, rows) =>
    this.customers.changedSince(base, rows),
  );
  #timeCounts = new KeyCounts<CustomerView>(storedTimeSides, (base, rows) =>
    this.customers.changedSince(base, rows),
  );
  /** The account's groups, or those its customers use when the service sends none. */
  readonly groups: string[] = $derived.by(() => {
    if (this.user?.groups.length) return this.user.groups;
    return this.customers.groupsUsed;
  });
  /** custom0..custom9 by the account's names, and which any customer uses (custom-field-names.ts). */
  readonly customFields: CustomFieldName[] = $derived.by(() =>
    customFieldNames(
      (this.user as Record<string, unknown> | null)?.['customFields'],
      usedCustomFields(this.#fieldCounts.of(this.customers.all)),
    ),
  );
  /** The account's unit of lastVisit/remindAt (see src-shared/visits.ts). */
  readonly timeUnit: TimeUnit = $derived.by(() => {
    const sides = this.#timeCounts.of(this.customers.all);
    return unitOfSides(sides.get('small') ?? 0, sides.get('large') ?? 0);
  });

  /** `stage`: a snapshot's customers kept while they were saved (cache/snapshot-stage.ts). */
  constructor(
    readonly cache: CustomerCache,
    stage?: SnapshotStage,
  ) {
    const { db } = cache;
    // The mirror of main's outbox, in queue order ('done' ops are already on the service). Read
    // first: until it answers, a restart's status bar cannot say whether changes wait.
    this.#ops = new LiveQuery(async () =>
      (await db.pending.orderBy('seq').toArray()).filter((op) => op.state !== 'done'),
    );
    // The kept snapshot may be shown before its save commits only while no change is queued.
    const quiet = () => this.#ops.current?.length === 0;
    this.customers = new CustomersState(cache, stage && { stage, quiet });
    this.plan = new PlanStops(cache);
    this.#user = new LiveQuery(async () => (await db.user.get('user'))?.value ?? null);
    this.#routes = new LiveQuery(async () =>
      (await db.routes.toArray()).map((r) => ({ ...r, pending: r._pending === 1 })),
    );
    this.#territories = new LiveQuery(() => db.territories.toArray());
    this.#lastSync = new LiveQuery(() => cache.lastSync());
  }

  /** Queued changes not yet on the service, oldest first ([] until the mirror is read). */
  get ops(): Op[] {
    return this.#ops.current ?? [];
  }

  /** The outbox mirror has been read: `ops` is the queue, not an empty list for want of a read. */
  get opsRead(): boolean {
    return this.#ops.current !== undefined;
  }

  get user(): UserMeta | null {
    return this.#user.current ?? null;
  }

  get routes(): RouteView[] {
    return this.#routes.current ?? [];
  }

  get territories(): Territory[] {
    return this.#territories.current ?? [];
  }

  get lastSync(): number | null {
    return this.#lastSync.current ?? null;
  }

  /** True once customers, routes and territories have all been read from the cache. */
  get loaded(): boolean {
    return (
      this.customers.loaded &&
      this.#routes.current !== undefined &&
      this.#territories.current !== undefined
    );
  }

  /** Labels of custom0..custom9, in slot order (customFields' labels). */
  get customFieldLabels(): string[] {
    return this.customFields.map((f) => f.label);
  }

  dispose(): void {
    this.nearby.dispose();
    this.customers.dispose();
    this.#user.dispose();
    this.#routes.dispose();
    this.#territories.dispose();
    this.#lastSync.dispose();
    this.#ops.dispose();
    this.cache.close();
  }
}
