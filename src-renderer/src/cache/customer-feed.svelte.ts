// The cache's customers as rune state for the UI thread, kept in step with the cache without
// re-reading all of it on every write: one getAll of a large account is a long task of
// deserialisation on the UI thread, and a liveQuery would run it again after each edit, visit or
// resolved id.
// - A write that replaced the table (a snapshot) is read back in pieces of READ_PIECE customers,
//   all in ONE read-only transaction: each piece is its own short task, and the reader still sees
//   one committed state (never half of a snapshot: a write waits for the reading transaction).
// - Any other write (the outbox mirror, a delta, a resolved id) names the keys it changed
//   (Dexie's 'storagemutated', broadcast from the cache worker): only those are read, and patched
//   into a new array in the cache's order (primary key order), so every other record keeps its
//   object and ListKeys and the map's diff reuse their work for it.
// `current` is undefined until the first read answers.
import { Dexie, type ObservabilitySet } from 'dexie';
import type { CustomerRow, FieldmapDb } from './schema';
import { patchById } from './id-order';
import type { SnapshotStage } from './snapshot-stage';
import { FEED_READ_ALL_MARK } from './feed-mark';
// A message, not a timer: a hidden window's timers are throttled (a second or more each), and a
// read yielding between its pieces by setTimeout would crawl while the app is minimised.
import { nextTask } from '../ui/next-task';

/** A snapshot the page kept, for one account's feed (cache/snapshot-stage.ts). */
export interface FeedStage {
  stage: SnapshotStage;
  accountKey: string;
  /**
   * True when the rep has no queued change (the outbox mirror as the page last read it), so the
   * overlay is empty and a snapshot is shown in the cache exactly as it came.
   */
  quiet: () => boolean;
}

/** Customers per read of a full read-back: each read a short task of deserialisation. */
export const READ_PIECE = 2_500;
/**
 * Customers per task when a kept snapshot becomes views: no read to wait on, so a piece is only
 * the views' and the list keys' work (onPiece), kept to a few tens of ms on a busy laptop.
 */
export const VIEW_PIECE = 2_500;
/** Above this many changed keys one full read-back is cheaper than reading each key. */
const MAX_PATCH = 20_000;

/** Longest wait for the last pieces of a kept snapshot the cache already committed. */
const SETTLE_WAIT_MS = 10_000;

/** How many patches back changedSince follows before it answers "unknown". */
const MAX_STEPS = 16;

type Found = Array<CustomerRow | undefined>;

type Patch<V> = { base: readonly V[]; ids: ReadonlySet<string> };

type RangeNode = { from?: unknown; to?: unknown; l?: RangeNode; r?: RangeNode };

/** The keys of a mutated part, or 'all' when it holds a range (a clear, a delete by range). */
function keysOf(node: RangeNode | undefined, into: Set<string>): Set<string> | 'all' {
  const stack = node ? [node] : [];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if ('from' in n) {
      if (n.from !== n.to || typeof n.from !== 'string') return 'all';
      into.add(n.from);
      if (into.size > MAX_PATCH) return 'all';
    }
    if (n.l) stack.push(n.l);
    if (n.r) stack.push(n.r);
  }
  return into;
}

const defined = (rows: Found): CustomerRow[] =>
  rows.filter((row): row is CustomerRow => row !== undefined);

export class CustomerFeed<V extends CustomerRow> {
  #current = $state.raw<V[] | undefined>(undefined);
  #error = $state.raw<unknown>(null);
  /** Keys changed since the last read, or 'all' when the next read must read everything. */
  #dirty: Set<string> | 'all' | null = 'all';
  #reading = false;
  #disposed = false;
  readonly #part: string;
  readonly #onMutated = (parts: ObservabilitySet) => this.#mutated(parts);
  /** Each array #patch gave out: the array it patched and the ids it read again. */
  readonly #patches = new WeakMap<readonly V[], Patch<V>>();
  /** A kept snapshot, whole, to show before its save commits (#preview). */
  #previewWanted: string | null = null;
  /** The kept snapshot shown before its commit, as views (the very array `current` gave out). */
  #previewed: { stream: string; views: V[] } | null = null;
  readonly #unlisten: () => void;
  /** Reads of the cache begun so far, and those waiting for one begun after their call. */
  #reads = 0;
  #waiting: Array<{ after: number; resolve: () => void }> = [];
  private readonly stage: SnapshotStage | undefined;
  private readonly accountKey: string | undefined;
  private readonly quiet: () => boolean;

  /**
   * `view` turns fresh rows into what the UI reads (in place: they are new objects). `onPiece`
   * sees each piece of a full read as it arrives (`from`: its index in the answer; 0 starts a
   * new read), so the reader can do its own work per piece instead of in one task at the end.
   * `onRead` sees a full read's whole answer, in a task between its last piece's and the one
   * that shows it (`current`), for the reader's work over all of it.
   */
  constructor(
    private readonly db: FieldmapDb,
    private readonly view: (rows: CustomerRow[]) => V[],
    private readonly onPiece?: (piece: readonly V[], from: number) => void,
    kept?: FeedStage,
    private readonly onRead?: (rows: readonly V[]) => void,
  ) {
    this.stage = kept?.stage;
    this.accountKey = kept?.accountKey;
    this.quiet = kept?.quiet ?? (() => false);
    this.#part = `idb://${db.name}/customers/`;
    Dexie.on('storagemutated', this.#onMutated);
    this.#unlisten =
      this.stage?.listen({
        whole: (stream, accountKey) => {
          if (accountKey !== this.accountKey) return;
          this.#previewWanted = stream;
          void this.#read();
        },
        gone: (stream) => {
          if (this.#previewWanted === stream) this.#previewWanted = null;
          // A snapshot shown before its save, whose save failed (or that a newer one replaced):
          // the list goes back to what the cache holds.
          if (this.#previewed?.stream !== stream) return;
          this.#previewed = null;
          this.#dirty = 'all';
          void this.#read();
        },
      }) ?? (() => undefined);
    void this.#read();
  }

  get current(): V[] | undefined {
    return this.#current;
  }

  /**
   * The ids that may differ between `base` and `rows`, two arrays this feed gave out, `rows`
   * patched (maybe in several steps) from `base`; null when a full read came between them.
   */
  changedSince(base: readonly V[], rows: readonly V[]): Set<string> | null {
    const ids = new Set<string>();
    let at = rows;
    for (let steps = 0; at !== base; steps++) {
      const patch = this.#patches.get(at);
      if (!patch || steps >= MAX_STEPS) return null;
      for (const id of patch.ids) ids.add(id);
      at = patch.base;
    }
    return ids;
  }

  get error(): unknown {
    return this.#error;
  }

  /**
   * Reads `ids` again; resolves once `current` holds a read of the cache begun after this call
   * (so it shows every write committed before it).
   */
  refresh(ids: Iterable<string>): Promise<void> {
    const dirty = this.#dirty;
    if (dirty !== 'all') {
      const into = dirty ?? new Set<string>();
      for (const id of ids) into.add(id);
      this.#dirty = into;
    }
    const after = this.#reads;
    const read = new Promise<void>((resolve) => this.#waiting.push({ after, resolve }));
    void this.#read();
    return read;
  }

  dispose(): void {
    this.#disposed = true;
    this.#waiting = [];
    this.#unlisten();
    Dexie.on('storagemutated').unsubscribe(this.#onMutated);
  }

  #mutated(parts: ObservabilitySet): void {
    const part = parts[this.#part] as RangeNode | undefined;
    if (!part || this.#dirty === 'all') {
      if (part) void this.#read();
      return;
    }
    this.#dirty = keysOf(part, this.#dirty ?? new Set());
    void this.#read();
  }

  /** Reads what changed, one read at a time; writes during a read are read after it. */
  async #read(): Promise<void> {
    if (this.#reading) return;
    this.#reading = true;
    try {
      while (!this.#disposed) {
        const dirty = this.#dirty;
        if (dirty === null) {
          const stream = this.#previewWanted;
          this.#previewWanted = null;
          if (stream === null) break;
          const views = await this.#preview(stream);
          if (views && !this.#disposed) this.#current = views;
          continue;
        }
        this.#dirty = null;
        const read = ++this.#reads;
        const base = this.#current;
        // Every record a new object: every view redoes all of its work (the bench counts these).
        if (dirty === 'all') performance.mark(FEED_READ_ALL_MARK);
        const next =
          dirty === 'all' || base === undefined
            ? await this.#readAll()
            : await this.#patch(base, dirty);
        if (!this.#disposed) this.#current = next;
        this.#error = null;
        const due = this.#waiting.filter((w) => w.after < read);
        this.#waiting = this.#waiting.filter((w) => w.after >= read);
        for (const w of due) w.resolve();
      }
    } catch (error) {
      this.#error = error;
    } finally {
      this.#reading = false;
    }
  }

  /**
   * Every customer: the snapshot the page kept while it was saved, when the cache holds exactly
   * that snapshot under its overlay (snapshot-stage.ts), else read in pieces in one read-only
   * transaction (one committed state).
   */
  async #readAll(): Promise<V[]> {
    let kept = await this.#adopt(true);
    // The cache committed a kept stream whose last pieces the page has not heard of yet.
    // (They are on their way: the worker told of each before writing it. The bound only keeps a
    // bug from leaving the list empty: the read-back after it is right anyway.)
    if (kept !== null && 'wait' in kept) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        this.stage?.settled(kept.wait),
        new Promise((resolve) => (timer = setTimeout(resolve, SETTLE_WAIT_MS))),
      ]);
      clearTimeout(timer);
      if (this.#disposed) return [];
      kept = await this.#adopt(false);
    }
    const previewed = this.#previewed;
    this.#previewed = null;
    if (kept === null || 'wait' in kept) {
      // Nothing to adopt: a kept copy that is complete will not be (its commit was not this
      // one, or another change of the server data came first), so it is not held any longer.
      this.stage?.dropSettled();
      return this.#whole(await this.#readBack());
    }
    if (previewed?.stream === kept.stream && this.#current === previewed.views) {
      // Shown already: only the rows the overlay changed are new (none over a clean cache, and
      // then the list keeps its very array, so nothing downstream runs again).
      if (kept.ids.length === 0) return previewed.views;
      const rows = patchById(previewed.views, kept.ids, this.view(defined(kept.found)));
      this.#patches.set(rows, { base: previewed.views, ids: new Set(kept.ids) });
      return rows;
    }
    return this.#viewsInPieces(patchById(kept.kept, kept.ids, kept.found));
  }

  /**
   * Rows as views in pieces, each in its own task, as a read-back's would be (onPiece each); the
   * caller's use of them (the list's keys joined, what derives from them) in a task of its own.
   */
  async #viewsInPieces(rows: readonly CustomerRow[]): Promise<V[]> {
    const views: V[] = [];
    for (let from = 0; from < rows.length && !this.#disposed; from += VIEW_PIECE) {
      if (from > 0) await nextTask();
      const piece = this.view(rows.slice(from, from + VIEW_PIECE));
      this.onPiece?.(piece, from);
      for (const row of piece) views.push(row);
    }
    if (rows.length === 0) {
      this.onPiece?.([], 0);
      return views;
    }
    return this.#whole(views);
  }

  /**
   * A full read's answer, shown in a task of its own, after the reader's `onRead` in another
   * (neither added to the last piece's task).
   */
  async #whole(rows: V[]): Promise<V[]> {
    await nextTask();
    if (!this.onRead || this.#disposed) return rows;
    this.onRead(rows);
    await nextTask();
    return rows;
  }

  /**
   * A kept snapshot whose pieces all came, shown before its save commits (else the list's keys
   * and the map's pins are built after the commit, while the save's last seconds leave a core
   * idle). Only over an empty list while the rep has no queued change, so that what
   * is shown is what the commit will hold (the overlay is empty; the cache itself cannot be asked:
   * the save's transaction holds its tables until the commit). The status still reads "Saving…"
   * until then. The commit is adopted without building anything again (#readAll); a failed save
   * lets the stream go, and the list reads the cache back (the listener's `gone`).
   */
  async #preview(stream: string): Promise<V[] | null> {
    const stage = this.stage;
    if (!stage || this.#current?.length !== 0 || !this.quiet()) return null;
    const rows = await stage.merged(stream);
    if (!rows || this.#disposed || this.#current?.length !== 0 || !this.quiet()) return null;
    const views = await this.#viewsInPieces(rows);
    if (this.#disposed || !stage.has(stream)) return null;
    this.#previewed = { stream, views };
    return views;
  }

  /**
   * The kept snapshot and the overlay's rows when the committed cache names it (one read-only
   * transaction); `wait` when it names a stream still arriving (`mayWait`); else null.
   */
  async #adopt(
    mayWait: boolean,
  ): Promise<
    { stream: string; kept: CustomerRow[]; ids: string[]; found: Found } | { wait: string } | null
  > {
    const stage = this.stage;
    if (!stage) return null;
    const { customers, meta, server } = this.db;
    type Read =
      | { wait: string }
      | { stream: string; kept: CustomerRow[]; ids: string[]; found: Found }
      | null;
    const read = await this.db.transaction(
      'r',
      customers,
      meta,
      server,
      async (): Promise<Read> => {
        const marker = await meta.get('snapshotStream');
        const stream = typeof marker?.value === 'string' ? marker.value : null;
        if (stream === null) return null;
        if (mayWait && stage.pending(stream)) return { wait: stream };
        if (!stage.has(stream)) return null;
        // The server data is the kept snapshot's records; what the overlay changed is in
        // `server` (undoOverlay relies on the same): those rows are read from the cache.
        const ids = (await server.toCollection().primaryKeys()) as string[];
        const found = await customers.bulkGet(ids);
        const kept = stage.take(stream);
        return kept ? { stream, kept, ids, found } : null;
      },
    );
    return read;
  }

  /**
   * Every customer read back in pieces, in one read-only transaction of the customers alone. The
   * next piece is asked for before this one's views are built, so IndexedDB reads it meanwhile.
   */
  #readBack(): Promise<V[]> {
    const { customers } = this.db;
    return this.db.transaction('r', customers, async () => {
      const rows: V[] = [];
      const after = (last?: string) =>
        (last === undefined ? customers.toCollection() : customers.where(':id').above(last))
          .limit(READ_PIECE)
          .toArray();
      let next: Promise<CustomerRow[]> | null = after();
      try {
        while (next !== null) {
          const piece: CustomerRow[] = await next;
          next =
            piece.length < READ_PIECE || this.#disposed ? null : after(piece[piece.length - 1]!.id);
          const views = this.view(piece);
          this.onPiece?.(views, rows.length);
          for (const row of views) rows.push(row);
        }
        return rows;
      } finally {
        // A view that threw leaves the next read unawaited: its failure is the transaction's.
        void next?.catch(() => undefined);
      }
    });
  }

  /** `base` with the changed keys read again: replaced, removed or inserted in key order. */
  async #patch(base: V[], keys: Set<string>): Promise<V[]> {
    const rows = await this.#patched(base, keys);
    this.#patches.set(rows, { base, ids: keys });
    return rows;
  }

  async #patched(base: V[], keys: Set<string>): Promise<V[]> {
    const ids = [...keys];
    const found = await this.db.customers.bulkGet(ids);
    return patchById(base, ids, this.view(defined(found)));
  }
}
