// Every customer of the cache as views, and the list's filtered, sorted, searched slice of them.
import { positionOf } from '../../../../src-shared';
import type { CustomerCache } from '../../cache/customer-cache';
import type { CustomerRow } from '../../cache/schema';
import { CustomerIndex, type SortDirection, type SortKey } from './customer-index';
import { ListKeys } from './list-keys';
import { VisitFilterState } from '../visits/visit-filter.svelte';
import type { CustomerView } from '../../types';
import { LiveQuery } from '../../cache/live-query.svelte';

/** Turns cache rows into views in place (rows are fresh objects from IndexedDB: no copy needed). */
function toViews(rows: CustomerRow[]): CustomerView[] {
  for (const row of rows) {
    const view = row as CustomerRow & CustomerView;
    view.pending = row._pending === 1;
    view.position = positionOf(row);
  }
  return rows as CustomerView[];
}

export class CustomersState {
  #live: LiveQuery<CustomerView[]>;
  #term = $state('');
  #color = $state<string | null>(null);
  #group = $state<string | null>(null);
  #sortKey = $state<SortKey>('name');
  #sortDirection = $state<SortDirection>('asc');

  /** The keys of the data version before, reused for unchanged records (not reactive). */
  #previousKeys: ListKeys | null = null;
  #visitFilter = new VisitFilterState();

  // Deriveds are lazy: #live is set by the constructor before anything reads them.
  #all = $derived(this.#read());
  #byId = $derived(new Map(this.#all.map((c) => [c.id, c])));
  #keys = $derived.by(() => {
    const keys = ListKeys.build(this.#all, this.#previousKeys);
    this.#previousKeys = keys;
    return keys;
  });
  #index = $derived(new CustomerIndex(this.#keys, this.#sortKey, this.#sortDirection));
  #visit = $derived.by(() => {
    const visit = this.#visitFilter;
    return visit.active ? { filter: visit.filter, nowMs: visit.now } : undefined;
  });
  #filtered = $derived(
    this.#index.filter({
      term: this.#term,
      color: this.#color,
      group: this.#group,
      visit: this.#visit,
    }),
  );
  #mapped = $derived(this.#all.filter((c) => c.position !== null));
  #mappedShown = $derived.by(() => {
    const test = this.#visit && this.#keys.visitTest(this.#visit.filter, this.#visit.nowMs);
    return test ? this.#mapped.filter((c) => test(this.#keys.byId.get(c.id)!)) : this.#mapped;
  });
  #unmapped = $derived(this.#index.rows.filter((c) => c.position === null));

  constructor(cache: CustomerCache) {
    this.#live = new LiveQuery(async () => toViews(await cache.db.customers.toArray()));
  }

  #read(): CustomerView[] {
    return this.#live.current ?? [];
  }

  /** True once the first read from the cache has answered. */
  get loaded(): boolean {
    return this.#live.current !== undefined;
  }

  get all(): CustomerView[] {
    return this.#all;
  }

  get mapped(): CustomerView[] {
    return this.#mapped;
  }

  get unmapped(): CustomerView[] {
    return this.#unmapped;
  }

  /** The list: search, colour, group and visit filters applied, in display order. */
  get filtered(): CustomerView[] {
    return this.#filtered;
  }

  /** The visit filter of the list and the map (one per account). */
  get visitFilter(): VisitFilterState {
    return this.#visitFilter;
  }

  /** The customers with a position that pass the visit filter: the map's pins. */
  get mappedShown(): CustomerView[] {
    return this.#mappedShown;
  }

  get index(): CustomerIndex {
    return this.#index;
  }

  byId(id: string | null): CustomerView | undefined {
    return id === null ? undefined : this.#byId.get(id);
  }

  get term(): string {
    return this.#term;
  }
  set term(value: string) {
    this.#term = value;
  }

  get color(): string | null {
    return this.#color;
  }
  set color(value: string | null) {
    this.#color = value;
  }

  get group(): string | null {
    return this.#group;
  }
  set group(value: string | null) {
    this.#group = value;
  }

  get sortKey(): SortKey {
    return this.#sortKey;
  }

  get sortDirection(): SortDirection {
    return this.#sortDirection;
  }

  /** Sorts by a column; choosing the current column again flips the direction. */
  sortBy(key: SortKey): void {
    if (this.#sortKey === key) this.#sortDirection = this.#sortDirection === 'asc' ? 'desc' : 'asc';
    else {
      this.#sortKey = key;
      this.#sortDirection = key === 'lastVisit' ? 'desc' : 'asc';
    }
  }

  dispose(): void {
    this.#live.dispose();
  }
}
