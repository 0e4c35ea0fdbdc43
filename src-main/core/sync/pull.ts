// The pull half of a sync: four GETs (each validated by the client), one canonical spelling
// of every customer value, and what the renderer needs to hear: the whole snapshot the first
// time, only the difference after.
import {
  CUSTOM_FIELD_KEYS,
  type Customer,
  type Route,
  type Territory,
  type UserMeta,
} from '../../../src-shared/domain';
import type { Acknowledged } from '../../../src-shared/outbox-types';
import type { EventOf } from '../../../src-shared/ipc-contract';
import type { OpenSnapshotStream } from '../../../src-shared/data-pieces';
import { canonicalise } from './merge';
import type { Clock, RequestPriority, ServiceApi } from '../ports';
import { diffRecords, fingerprintInSlices, printOf } from './snapshot-diff';
import type { DurableFs } from '../durable-fs';
import * as v from 'valibot';
import type { PullTimes } from './progress';

export interface Pulled {
  user: UserMeta;
  customers: Customer[];
  routes: Route[];
  territories: Territory[];
}

/** Where a pull may send its snapshot while it reads it (a first pull: see pullAll). */
export interface PullStream {
  open: OpenSnapshotStream;
  accountKey: string;
  pulledAt: number;
}

/** What a pull tells the sync's progress (SyncProgress). */
export interface PullProgress {
  /** One GET answered. */
  step(): void;
  /** The customers' GET is asked for now (its answer is the next step). */
  listing(): void;
}

/**
 * GETs the account's data. Nothing is returned (so nothing is kept) unless all four pass.
 * With `stream` (a first pull, on a transport that streams) the snapshot is sent WHILE the
 * customers are parsed and validated, a slice at a time, instead of after: the renderer's
 * save overlaps main's reading (one core each). The customers' body is
 * read whole first, then routes and territories (the GETs keep their order), so the stream's
 * counts are known when it opens; a slice that fails validation aborts the stream (the
 * renderer rolls its save back and keeps its cache) and the pull fails as before.
 * `streamed`: the snapshot went out this way (the caller must not send it again). `listMs`: how
 * long the customers' GET took on `clock` (what the next push expects a list to take, bases.ts,
 * and the next sync's estimate of the time left, progress.ts); `parseMs`: a streamed list's
 * parsing after it, its hand-off to the page and its waits for it left out (a list that is not
 * streamed is parsed within its `listMs`).
 */
export async function pullAll(
  api: ServiceApi,
  priority: RequestPriority,
  progress: PullProgress,
  clock: Pick<Clock, 'now'>,
  stream?: PullStream,
): Promise<Pulled & { streamed: boolean; listMs: number; parseMs: number }> {
  const options = { priority };
  const step = () => progress.step();
  const user = await api.getUser(options);
  step();
  const listStarted = clock.now();
  progress.listing();
  const tookMs = () => Math.max(0, clock.now() - listStarted);
  const pool = new StringPool();
  const normalise = (c: Customer) => pool.share(normaliseCustomer(c));
  if (!stream || !api.readCustomers) {
    const customers = (await api.listCustomers(options)).map(normalise);
    const listMs = tookMs();
    step();
    const routes = await api.listRoutes(options);
    step();
    const territories = await api.listTerritories(options);
    step();
    return { user, customers, routes, territories, streamed: false, listMs, parseMs: 0 };
  }
  const reader = await api.readCustomers(options);
  const listMs = tookMs();
  step();
  const routes = await api.listRoutes(options);
  step();
  const territories = await api.listTerritories(options);
  step();
  const head = { accountKey: stream.accountKey, pulledAt: stream.pulledAt, user };
  const sink = stream.open(
    { ...head, customers: [], routes: [], territories: [] },
    { customers: reader.count, routes: routes.length, territories: territories.length },
  );
  const customers: Customer[] = [];
  let parseMs = 0;
  let from = clock.now();
  try {
    for await (const slice of reader.slices()) {
      const normal = slice.map(normalise);
      parseMs += clock.now() - from;
      // Handing the slice to the page is left out: a later pull, whose time this is for, keeps
      // its records to itself (at 100k under load, more time than the parse).
      sink?.add('customers', normal);
      for (const c of normal) customers.push(c);
      // The next slice is read once the page has taken all but a few of the pieces sent: main
      // holds a few pieces on their way, not the account's whole stream for a slow page.
      await sink?.room();
      from = clock.now();
    }
    sink?.add('routes', routes);
    sink?.add('territories', territories);
    sink?.end();
  } catch (error) {
    sink?.abort();
    throw error;
  }
  return { user, customers, routes, territories, streamed: sink !== null, listMs, parseMs };
}

/**
 * The values many customers share (a town, a state, a colour, a group, a custom field's choice,
 * a time zone) as one string each: JSON.parse makes a string per record, and main keeps the
 * last pull's records (SnapshotKeeper), ~a fifth of their memory in such copies at 100k.
 */
const SHARED_FIELDS = [
  'city',
  'state',
  'zip',
  'country',
  'color',
  'remindType',
  ...CUSTOM_FIELD_KEYS,
] as const;

const ZONE = ['timezone'] as const;

/** One pull's shared values; `share` rewrites a customer of its own in place. */
class StringPool {
  readonly #strings = new Map<string, string>();

  #one(value: string): string {
    const had = this.#strings.get(value);
    if (had !== undefined) return had;
    this.#strings.set(value, value);
    return value;
  }

  /** Each string value of `fields` of `record` (only those present) as the pool's copy. */
  #all(record: Record<string, unknown>, fields: readonly string[]): void {
    for (const field of fields) {
      const value = record[field];
      if (typeof value === 'string' && value !== '') record[field] = this.#one(value);
    }
  }

  share(c: Customer): Customer {
    this.#all(c as Record<string, unknown>, SHARED_FIELDS);
    if (Array.isArray(c.groups)) c.groups = c.groups.map((g) => this.#one(g));
    for (const at of [c.createdAt, c.updatedAt] as unknown[])
      if (typeof at === 'object' && at !== null) this.#all(at as Record<string, unknown>, ZONE);
    return c;
  }
}

/** A customer with its writable values in canonical form; id, timestamps and extras kept. */
export function normaliseCustomer(c: Customer): Customer {
  return canonicalise({ ...c });
}

type Snapshot = EventOf<'data:snapshot'>;
type Delta = EventOf<'data:delta'>;

type Prints = {
  user: string;
  customers: Map<string, string>;
  routes: Map<string, string>;
  territories: Map<string, string>;
};

async function printsOf(pulled: Pulled): Promise<Prints> {
  return {
    user: printOf(pulled.user),
    customers: await fingerprintInSlices(pulled.customers),
    routes: await fingerprintInSlices(pulled.routes),
    territories: await fingerprintInSlices(pulled.territories),
  };
}

const idsOf = (records: ReadonlyArray<{ id: string }>) => records.map((r) => r.id);

/** Where the keeper saves the prints of the last pull the cache was sent, and through what. */
export interface PrintsStore {
  fs: DurableFs;
  file: string;
}

/** Largest prints file read back (~45 bytes a record): anything larger is not ours. */
const PRINTS_FILE_MAX_BYTES = 64 * 1024 * 1024;
const PRINTS_VERSION = 1;
const PrintPairs = v.array(v.tuple([v.string(), v.string()]));
/** The saved prints: [id, print] pairs per kind, of the pull at `pulledAt`. */
const PrintsFileSchema = v.object({
  version: v.literal(PRINTS_VERSION),
  accountKey: v.string(),
  pulledAt: v.number(),
  user: v.string(),
  customers: PrintPairs,
  routes: PrintPairs,
  territories: PrintPairs,
  /** How long that pull's customers GET took (what the first push after a restart expects). */
  listMs: v.optional(v.number(), 0),
  /** The pull's time from its list on, unloaded (progress.ts PullTimes: the next time left). */
  pull: v.optional(
    v.object({ listMs: v.number(), waitMs: v.optional(v.number(), 0), afterMs: v.number() }),
  ),
});
type PrintsFile = v.InferOutput<typeof PrintsFileSchema>;

/** A saved pull's times, when they are some (null: none, or not a time). */
function knownPull(pull: PullTimes | undefined): PullTimes | null {
  if (!pull) return null;
  const { listMs, waitMs = 0, afterMs } = pull;
  return listMs >= 0 && waitMs >= 0 && afterMs >= 0 && listMs + waitMs > 0 ? pull : null;
}

/** The saved prints, or null when the file is missing, damaged or another account's. */
function printsFrom(
  value: unknown,
  accountKey: string,
): { prints: Prints; pulledAt: number; listMs: number; pull: PullTimes | null } | null {
  const read = v.safeParse(PrintsFileSchema, value);
  if (!read.success || read.output.accountKey !== accountKey) return null;
  const file = read.output;
  return {
    prints: {
      user: file.user,
      customers: new Map(file.customers),
      routes: new Map(file.routes),
      territories: new Map(file.territories),
    },
    pulledAt: file.pulledAt,
    listMs: file.listMs >= 0 ? file.listMs : 0,
    pull: knownPull(file.pull),
  };
}

/**
 * The last pulled data, kept in memory to diff the next pull against and to resend it, and its
 * prints saved (`store`) so that the first pull after a restart sends the cache only what changed
 * too, instead of every record again. A delta names the pull it follows (`base`): the cache
 * applies it only over that pull, and otherwise asks for the snapshot (a new road). A first pull
 * goes out as a snapshot without its prints: they are taken after it (save), not between the
 * customers' GET and the first piece sent.
 */
export class SnapshotKeeper {
  readonly #accountKey: string;
  readonly #store: PrintsStore | null;
  #last: Snapshot | null = null;
  /**
   * Where each customer is in #last while #last is this keeper's own copy, handed to no one
   * since (null: it may be shared; the next acknowledgement copies it first).
   */
  #own: Map<string, number> | null = null;
  #prints: Prints | null = null;
  /** The pull the prints describe when they were read from the store (nothing kept in memory). */
  #loadedAt: number | null = null;
  /** How long the saved pull's customers GET took, as read back (0: unknown). */
  #loadedListMs = 0;
  /** The saved pull's time from its list on, unloaded, as read back (null: unknown). */
  #loadedPull: PullTimes | null = null;
  /**
   * The last take's delta while the kept pull is exactly what it made (no acknowledgement since):
   * a page whose road opened after it was sent, over a cache holding its base, gets it again.
   */
  #delta: Delta | null = null;
  /** Bumped by every take: a save of older prints is not written over newer ones. */
  #version = 0;
  /** The prints file's last write (never rejects). */
  #writing: Promise<void> = Promise.resolve();

  constructor(accountKey: string, store: PrintsStore | null = null) {
    this.#accountKey = accountKey;
    this.#store = store;
  }

  get snapshot(): Snapshot | null {
    this.#own = null;
    return this.#last;
  }

  /** The next pull can go out as a delta (a pull is kept, or its prints were read back). */
  get canDiff(): boolean {
    return this.#last !== null || this.#prints !== null;
  }

  /**
   * How long the saved pull's customers GET took (0: unknown): after a restart, what the first
   * push expects a list to take, so a few updates go with a GET each, not a whole list.
   */
  get savedListMs(): number {
    return this.#loadedListMs;
  }

  /** The saved pull's time from its list on, unloaded (null: unknown): the next time left's. */
  get savedPull(): PullTimes | null {
    return this.#loadedPull;
  }

  /**
   * Reads the saved prints back (at start, before the first pull). A missing, damaged or foreign
   * file is ignored: the first pull then sends the whole snapshot, as it always did.
   */
  async load(): Promise<void> {
    const store = this.#store;
    if (!store || this.canDiff) return;
    try {
      const bytes = await store.fs.readIfExists(store.file);
      if (!bytes || bytes.length > PRINTS_FILE_MAX_BYTES) return;
      const read = printsFrom(JSON.parse(bytes.toString('utf8')), this.#accountKey);
      if (!read || this.canDiff) return;
      this.#prints = read.prints;
      this.#loadedAt = read.pulledAt;
      this.#loadedListMs = read.listMs;
      this.#loadedPull = read.pull;
    } catch (error) {
      console.warn("fieldmap: the last pull's prints could not be read back", error);
    }
  }

  /**
   * Saves the prints of the last pull (taking them first after a snapshot, in slices). A failure
   * costs only speed: the first pull after a restart then sends the whole snapshot. `pull` is
   * asked once the prints are taken, before they are written: a first pull's time counts them.
   */
  async save(listMs = 0, pull: () => PullTimes | null = () => null): Promise<void> {
    const store = this.#store;
    const last = this.#last;
    if (!store || !last) return;
    this.#own = null; // read in slices below: never changed under it
    const version = this.#version;
    const prints = this.#prints ?? (await printsOf(last));
    if (version !== this.#version) return;
    this.#prints = prints;
    const times = pull();
    const file: PrintsFile = {
      version: PRINTS_VERSION,
      accountKey: this.#accountKey,
      pulledAt: last.pulledAt,
      user: prints.user,
      customers: [...prints.customers],
      routes: [...prints.routes],
      territories: [...prints.territories],
      listMs,
      ...(times ? { pull: { ...times, waitMs: times.waitMs ?? 0 } } : {}),
    };
    // One write at a time, in the order taken: an older pull's write that took longer must not
    // land over a newer one's.
    const write = this.#writing.then(() => store.fs.writeJson(store.file, file));
    this.#writing = write.catch(() => undefined);
    try {
      await write;
    } catch (error) {
      console.warn("fieldmap: the last pull's prints could not be saved", error);
    }
  }

  /**
   * Takes what the service acknowledged into the kept data, as the cache takes it: a resend then
   * carries it, and the next pull's diff is against what the cache holds (the pulled record of
   * an update differs from the kept one, if only in its updatedAt, so it is sent again).
   */
  acknowledge({ upserted, deleted }: Acknowledged): void {
    this.#delta = null;
    const prints = this.#prints?.customers;
    for (const id of deleted) prints?.delete(id);
    for (const c of upserted) prints?.set(c.id, printOf(c));
    const last = this.#last;
    if (!last) return;
    const own = this.#own;
    if (own && deleted.length === 0) {
      // Its own copy: changed in place. A copy of 100k records per change held main while a bulk
      // change drained.
      const customers = last.customers as Customer[];
      for (const c of upserted) {
        const at = own.get(c.id);
        if (at === undefined) own.set(c.id, customers.push(c) - 1);
        else customers[at] = c;
      }
      return;
    }
    const gone = new Set(deleted);
    const now = new Map(upserted.map((c) => [c.id, c]));
    // A copy: a snapshot handed out earlier (a resend under way) is never changed under it.
    const customers: Customer[] = [];
    for (const c of last.customers) {
      if (gone.has(c.id)) continue;
      customers.push(now.get(c.id) ?? c);
      now.delete(c.id);
    }
    for (const c of now.values()) customers.push(c);
    this.#last = { ...last, customers };
    const at = new Map<string, number>();
    customers.forEach((c, i) => at.has(c.id) || at.set(c.id, i));
    this.#own = at;
  }

  /**
   * Takes a pull; returns the full snapshot the first time, else the delta. The fingerprints
   * are taken in slices (main's event loop runs between them); the new data is kept only once
   * they are done, so a resend asked meanwhile sends the data before it, which the delta follows.
   * After a restart the delta is against the saved prints, which know nothing of what the cache
   * took since (an acknowledged create): it names every id the service has, and the cache drops
   * any other.
   */
  async take(pulled: Pulled, pulledAt: number): Promise<{ snapshot: Snapshot } | { delta: Delta }> {
    this.#version++;
    this.#own = null;
    const last = this.#last;
    const base = last?.pulledAt ?? this.#loadedAt;
    const previous = this.#prints ?? (last ? await printsOf(last) : null);
    const next = { accountKey: this.#accountKey, pulledAt, ...pulled };
    const loaded = last === null && this.#loadedAt !== null;
    this.#loadedAt = null;
    this.#delta = null;
    if (previous === null || base === null) {
      this.#last = next;
      this.#own = null;
      this.#prints = null;
      return { snapshot: next };
    }
    const prints = await printsOf(pulled);
    this.#last = next;
    this.#own = null;
    this.#prints = prints;
    const delta: Delta = {
      accountKey: this.#accountKey,
      pulledAt,
      base,
      present: loaded
        ? {
            customers: idsOf(pulled.customers),
            routes: idsOf(pulled.routes),
            territories: idsOf(pulled.territories),
          }
        : null,
      user: previous.user === prints.user ? null : pulled.user,
      customers: diffRecords(previous.customers, pulled.customers, prints.customers),
      routes: diffRecords(previous.routes, pulled.routes, prints.routes),
      territories: diffRecords(previous.territories, pulled.territories, prints.territories),
    };
    this.#delta = delta;
    return { delta };
  }

  /** The last take's delta when it leads from `base` to the kept pull as it is now, else null. */
  deltaOver(base: number): Delta | null {
    const delta = this.#delta;
    return delta && delta.base === base && delta.pulledAt === this.#last?.pulledAt ? delta : null;
  }
}
