// Every customer of the cache as views, and the list's filtered, sorted, searched slice of them.
import { untrack } from 'svelte';
import { positionOf } from '../../../../src-shared';
import type { CustomerCache } from '../../cache/customer-cache';
import type { CustomerRow } from '../../cache/schema';
import { CustomerIndex, type SortDirection, type SortKey } from './customer-index';
import { ListKeys, ReadKeys } from './list-keys';
import { VisitFilterState } from '../visits/visit-filter.svelte';
import type { CustomerView } from '../../types';
import { CustomerFeed, type FeedStage } from '../../cache/customer-feed.svelte';
import { SavedAhead } from '../../cache/saved-ahead.svelte';
import { ListSorter } from './list-sorter';
import type { SortPort } from './list-sort-worker';
import { indexOfId } from './list-runs';
import { patchById } from '../../cache/id-order';
import { PickedRecords } from './picked-records';
import { afterPaint } from '../../ui/after-paint';
import { listInputGate } from '../../map/redraw-gate';
import { storageFailureOf, type StorageFailure } from '../../cache/storage-failure';

/**
 * How long the map waits for typing to pause before it follows a new search term (the list
 * follows every key). Any other filter change reaches the map at once; the last state wins.
 */
export const MAP_SEARCH_DELAY_MS = 200;

/** Turns cache rows into views in place (rows are fresh objects from IndexedDB: no copy needed). */
function toViews(rows: CustomerRow[]): CustomerView[] {
  for (const row of rows) {
    const view = row as CustomerRow & CustomerView;
    view.pending = row._pending === 1;
    view.position = positionOf(row);
  }
  return rows as CustomerView[];
}

/**
 * Longest wait for the sort worker's order before the UI thread sorts (see #showSort): only for a
 * worker that neither answers nor fails. On a busy laptop the worker answers seconds after a
 * sort click (it gets its columns once the page is free), and a tight bound would put a long
 * UI-thread sort into a later step.
 */
const SORT_WAIT_MS = 10_000;

export class CustomersState {
  #live: CustomerFeed<CustomerView & CustomerRow>;
  /** What the rep saved, shown over the feed's rows until they show it (saved-ahead.svelte.ts). */
  readonly #ahead: SavedAhead<CustomerView & CustomerRow>;
  #term = $state('');
  /** The search term the map shows: `#term` once typing has paused (MAP_SEARCH_DELAY_MS). */
  #mapTerm = $state('');
  #mapTermTimer: ReturnType<typeof setTimeout> | null = null;
  /** The map's last filtered set (not reactive): kept while the map waits for typing to pause. */
  #lastMapShown: CustomerView[] | null = null;
  #color = $state<string | null>(null);
  #group = $state<string | null>(null);
  #sortKey = $state<SortKey>('name');
  #sortDirection = $state<SortDirection>('asc');

  /** The keys of the data version before, reused for unchanged records (not reactive). */
  #previousKeys: ListKeys | null = null;
  /** A filter or sort change holds the map's drawing until input pauses (redraw-gate.ts). */
  #visitFilter = new VisitFilterState(() => listInputGate.input());
  /** Keys of each piece of the feed's current full read, with the list's order (not reactive). */
  #pieces = new ReadKeys();
  /** Every sort order of a new data version, computed in a worker (list-sorter.ts). */
  #sorter: ListSorter = new ListSorter(() => {
    const worker = new Worker(new URL('./list-sort.worker.ts', import.meta.url), {
      type: 'module',
    });
    // Without the worker every order is sorted on first use, as before it.
    worker.addEventListener('error', () => this.#sorter.fail());
    return worker as unknown as SortPort;
  });

  // Deriveds are lazy: #live is set by the constructor before anything reads them.
  #all = $derived(this.#read());
  /** New id -> the temporary one it replaced (renamed); a few per session, never read in bulk. */
  readonly #renamed = new Map<string, string>();
  #keys = $derived.by(() => {
    const rows = this.#all;
    const previous = this.#previousKeys;
    // An edit: only the records CustomerFeed read again get new keys.
    const changed = previous ? this.#ahead.changedSince(previous.rows, rows) : null;
    // A full read: the keys its pieces got as they arrived, and new ones for saved rows over it.
    const layer = this.#ahead.under(rows);
    const read = changed === null ? ListKeys.concat(layer?.base ?? rows, this.#pieces.runs) : null;
    const pieces = read && layer ? ListKeys.build(rows, read, layer.ids) : read;
    this.#pieces = new ReadKeys();
    const keys = pieces ?? ListKeys.build(rows, previous, changed);
    this.#previousKeys = keys;
    this.#sorter.request(keys);
    return keys;
  });
  /** The sort the list shows: the chosen one once its order is ready (#showSort). */
  #shownSort = $state.raw<{ key: SortKey; direction: SortDirection }>({
    key: 'name',
    direction: 'asc',
  });
  #sorting = $state(false);
  #sortWait = 0;
  #index = $derived(new CustomerIndex(this.#keys, this.#shownSort.key, this.#shownSort.direction));
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
  /** What pick last answered for each `ids` array (not reactive). */
  #picks = new PickedRecords(
    (base, rows) => this.changedSince(base, rows),
    (id) => this.byId(id),
  );
  /** The version #mapped was last derived from (not reactive). */
  #mappedFrom: { all: CustomerView[]; mapped: CustomerView[] } | null = null;
  /**
   * The customers with a position, in id order. A patched data version changes only the records
   * the feed read again: while a bulk change drains, each acknowledged change is a version, and a
   * filter of 100k records per version was a share of the page's long tasks.
   */
  #mapped = $derived.by(() => {
    const all = this.#all;
    const from = this.#mappedFrom;
    const changed = from ? this.changedSince(from.all, all) : null;
    let mapped: CustomerView[];
    if (!from || changed === null) mapped = all.filter((c) => c.position !== null);
    else if (changed.size === 0) mapped = from.mapped;
    else
      mapped = patchById(
        from.mapped,
        changed,
        [...changed].map((id) => this.#rowOf(all, id)),
      );
    this.#mappedFrom = { all, mapped };
    return mapped;
  });
  #filterActive = $derived(
    this.#term.trim() !== '' ||
      this.#color !== null ||
      this.#group !== null ||
      this.#visitFilter.active,
  );
  /** What the map should show now (see mapShown). */
  #mapTarget = $derived.by(() => {
    if (this.#mapTerm !== this.#term) return this.#lastMapShown;
    this.#lastMapShown = this.#filterActive ? this.#filtered : null;
    return this.#lastMapShown;
  });
  /** #mapTarget as the map has it: a filter change reaches it once the list has painted. */
  #mapShown = $state.raw<CustomerView[] | null>(null);
  /** The data version #mapShown was last given for. */
  #mapAll: CustomerView[] | null = null;
  #cancelMapFollow: (() => void) | null = null;
  #disposeEffects = $effect.root(() => {
    $effect(() => {
      const target = this.#mapTarget;
      const all = this.#all;
      untrack(() => this.#followMap(target, all));
    });
  });
  #mappedShown = $derived(
    this.#mapShown === null ? this.#mapped : this.#mapShown.filter((c) => c.position !== null),
  );
  #unmapped = $derived(this.#index.unmapped);

  /** `kept`: the snapshot the page keeps while it is saved, and whether the rep has queued changes. */
  constructor(cache: CustomerCache, kept?: Omit<FeedStage, 'accountKey'>) {
    // Read in pieces, then patched by the keys each write changed (cache/customer-feed.svelte.ts);
    // a snapshot the page kept while it was saved is adopted instead of read back.
    this.#live = new CustomerFeed(
      cache.db,
      toViews,
      (piece, from) => this.#keysOf(piece, from),
      kept && { ...kept, accountKey: cache.accountKey },
      (rows) => this.#pieces.join(rows),
    );
    this.#ahead = new SavedAhead(cache.db, this.#live, toViews);
  }

  /** The rep's saved changes, shown in every view before the cache has them. */
  get ahead(): SavedAhead<CustomerView & CustomerRow> {
    return this.#ahead;
  }

  /**
   * Hands the map the list's filtered set. A new data version (an edit) goes at once, with its
   * pins; a filter change goes in a task after the list's frame, so the list the rep is looking
   * at paints first and the map's diff (pin-filter.ts) runs after it, never inside that frame.
   */
  #followMap(target: CustomerView[] | null, all: CustomerView[]): void {
    this.#cancelMapFollow?.();
    this.#cancelMapFollow = null;
    if (all !== this.#mapAll) {
      // An edit's pin is drawn at once, even right after a filter change.
      if (this.#mapAll !== null) listInputGate.release();
      this.#mapAll = all;
      this.#mapShown = target;
      return;
    }
    if (target === this.#mapShown) return;
    this.#cancelMapFollow = afterPaint(() => {
      this.#cancelMapFollow = null;
      this.#mapShown = target;
    });
  }

  /** A piece of a full read: its keys and the list's order now, in the piece's own task. */
  #keysOf(piece: readonly CustomerView[], from: number): void {
    if (from === 0) this.#pieces = new ReadKeys();
    const keys = ListKeys.build(piece);
    untrack(() => keys.order(this.#shownSort.key, this.#shownSort.direction));
    this.#pieces.add(keys);
  }

  /** The cache's rows as the feed read them, under what the rep saved since. */
  #read(): CustomerView[] {
    return this.#ahead.apply(this.#live.current ?? []);
  }

  /** True once the first read from the cache has answered. */
  get loaded(): boolean {
    return this.#live.current !== undefined;
  }

  /** Why the last read of the cache failed (the next write read again), or null. */
  get readFailure(): StorageFailure | null {
    const error = this.#live.error;
    return error ? (storageFailureOf(error) ?? 'storage') : null;
  }

  get all(): CustomerView[] {
    return this.#all;
  }

  /**
   * The ids that may differ between two versions of `all` (CustomerFeed.changedSince), the rep's
   * saved changes laid over them included: a version SavedAhead gave out is not the feed's own.
   */
  changedSince(base: readonly CustomerView[], rows: readonly CustomerView[]): Set<string> | null {
    return this.#ahead.changedSince(
      base as readonly (CustomerView & CustomerRow)[],
      rows as readonly (CustomerView & CustomerRow)[],
    );
  }

  get mapped(): CustomerView[] {
    return this.#mapped;
  }

  /** The groups any customer is in, from the list's keys: no pass over the records. */
  get groupsUsed(): string[] {
    const used: string[] = [];
    for (const [group, bits] of this.#keys.groups) if (bits.includes(1)) used.push(group);
    return used.sort();
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

  /** True when a search term or any filter narrows the list (and the map, and the export). */
  get filterActive(): boolean {
    return this.#filterActive;
  }

  /**
   * What the map shows of `mapped`: the list's filtered set (its unmapped records are ignored),
   * or null when no filter is on (every pin). A search term reaches it once typing pauses.
   */
  get mapShown(): readonly CustomerView[] | null {
    return this.#mapShown;
  }

  /** The customers with a position that the map shows now (every mapped one when no filter is on). */
  get mappedShown(): readonly CustomerView[] {
    return this.#mappedShown;
  }

  /** Clears the search term and every filter at once. */
  resetFilters(): void {
    this.term = '';
    this.#color = null;
    this.#group = null;
    this.#visitFilter.set('all');
  }

  get index(): CustomerIndex {
    return this.#index;
  }

  /** The records of `ids` that exist, in their order (PickedRecords). */
  pick(ids: readonly string[]): CustomerView[] {
    return this.#picks.pick(ids, this.#all, this.#renamed.size);
  }

  /** The mapped record of `id` in `rows`, if any. */
  #rowOf(rows: readonly CustomerView[], id: string): CustomerView | undefined {
    const row = rows[indexOfId(rows, id)];
    return row?.position ? row : undefined;
  }

  byId(id: string | null): CustomerView | undefined {
    if (id === null) return undefined;
    // Rows are in id order (the cache's primary key): no 100k-entry map per data version.
    const rows = this.#all;
    const i = indexOfId(rows, id);
    if (i >= 0) return rows[i];
    const was = this.#renamed.get(id);
    return was === undefined ? undefined : this.byId(was);
  }

  /**
   * A create's temporary id became the service's: the selection follows it at once, the rows a
   * read of the cache later. Until then the new id finds the record under its old one, so its
   * details never close and reopen (the map would take the panel's flicker for a resize).
   */
  renamed(from: string, to: string): void {
    this.#renamed.set(to, from);
    this.#ahead.renamed(from, to);
  }

  get term(): string {
    return this.#term;
  }
  set term(value: string) {
    listInputGate.input();
    this.#term = value;
    if (this.#mapTermTimer !== null) clearTimeout(this.#mapTermTimer);
    this.#mapTermTimer = null;
    // Clearing the search shows every pin again at once; a typed term waits for a pause.
    if (value.trim() === '') this.#mapTerm = value;
    else {
      this.#mapTermTimer = setTimeout(() => {
        this.#mapTermTimer = null;
        this.#mapTerm = this.#term;
      }, MAP_SEARCH_DELAY_MS);
    }
  }

  get color(): string | null {
    return this.#color;
  }
  set color(value: string | null) {
    listInputGate.input();
    this.#color = value;
  }

  get group(): string | null {
    return this.#group;
  }
  set group(value: string | null) {
    listInputGate.input();
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
    listInputGate.input();
    if (this.#sortKey === key) this.#sortDirection = this.#sortDirection === 'asc' ? 'desc' : 'asc';
    else {
      this.#sortKey = key;
      this.#sortDirection = key === 'lastVisit' ? 'desc' : 'asc';
    }
    this.#showSort(this.#sortKey, this.#sortDirection);
  }

  /** True while the list waits for the order it was asked for (see #showSort). */
  get sorting(): boolean {
    return this.#sorting;
  }

  /**
   * Shows a sort at once when its order is known, or when no sort worker is computing this data
   * version's orders. While the worker is (right after a sync or a large change), the list waits
   * for its answer (see SORT_WAIT_MS) instead of sorting 100k on the UI thread: a sort clicked
   * then would be a long task that freezes the window. The button answers at
   * once and the list says it is sorting until the order shows.
   */
  #showSort(key: SortKey, direction: SortDirection): void {
    const wait = ++this.#sortWait;
    const keys = untrack(() => this.#keys);
    if (keys.hasOrder(key, 'asc') || !this.#sorter.pending(keys)) {
      this.#sorting = false;
      this.#shownSort = { key, direction };
      return;
    }
    this.#sorting = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    void Promise.race([
      this.#sorter.answered(keys),
      new Promise((resolve) => (timer = setTimeout(resolve, SORT_WAIT_MS))),
    ]).then(() => {
      clearTimeout(timer);
      if (wait !== this.#sortWait) return;
      this.#sorting = false;
      this.#shownSort = { key, direction };
    });
  }

  dispose(): void {
    if (this.#mapTermTimer !== null) clearTimeout(this.#mapTermTimer);
    this.#cancelMapFollow?.();
    this.#disposeEffects();
    this.#sorter.dispose();
    this.#live.dispose();
  }
}
