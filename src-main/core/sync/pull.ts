// The pull half of a sync: four GETs (each validated by the client), one canonical spelling
// of every customer value, and what the renderer needs to hear: the whole snapshot the first
// time, only the difference after.
import type { Customer, Route, Territory, UserMeta } from '../../../src-shared/domain';
import type { Acknowledged } from '../../../src-shared/outbox-types';
import type { EventOf } from '../../../src-shared/ipc-contract';
import type { OpenSnapshotStream } from '../../../src-shared/data-pieces';
import { canonicalise } from './merge';
import type { RequestPriority, ServiceApi } from '../ports';
import { diffRecords, fingerprintInSlices } from './snapshot-diff';

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

/**
 * GETs the account's data. Nothing is returned (so nothing is kept) unless all four pass.
 * With `stream` (a first pull, on a transport that streams) the snapshot is sent WHILE the
 * customers are parsed and validated, a slice at a time, instead of after: the renderer's
 * save overlaps main's reading (~2.4 s at 100k here, one core each). The customers' body is
 * read whole first, then routes and territories (the GETs keep their order), so the stream's
 * counts are known when it opens; a slice that fails validation aborts the stream (the
 * renderer rolls its save back and keeps its cache) and the pull fails as before.
 * `streamed`: the snapshot went out this way (the caller must not send it again). `listMs`: how
 * long the customers' GET took (what the next push expects a list to take; bases.ts).
 */
export async function pullAll(
  api: ServiceApi,
  priority: RequestPriority,
  step: () => void,
  stream?: PullStream,
): Promise<Pulled & { streamed: boolean; listMs: number }> {
  const options = { priority };
  const user = await api.getUser(options);
  step();
  const listStarted = performance.now();
  if (!stream || !api.readCustomers) {
    const customers = (await api.listCustomers(options)).map(normaliseCustomer);
    const listMs = performance.now() - listStarted;
    step();
    const routes = await api.listRoutes(options);
    step();
    const territories = await api.listTerritories(options);
    step();
    return { user, customers, routes, territories, streamed: false, listMs };
  }
  const reader = await api.readCustomers(options);
  const listMs = performance.now() - listStarted;
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
  try {
    for await (const slice of reader.slices()) {
      const normal = slice.map(normaliseCustomer);
      sink?.add('customers', normal);
      for (const c of normal) customers.push(c);
    }
    sink?.add('routes', routes);
    sink?.add('territories', territories);
    sink?.end();
  } catch (error) {
    sink?.abort();
    throw error;
  }
  return { user, customers, routes, territories, streamed: sink !== null, listMs };
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
    user: JSON.stringify(pulled.user),
    customers: await fingerprintInSlices(pulled.customers),
    routes: await fingerprintInSlices(pulled.routes),
    territories: await fingerprintInSlices(pulled.territories),
  };
}

/**
 * The last pulled data, kept in memory to diff the next pull against and to resend it. A first
 * pull goes out as a snapshot without its fingerprints: they are taken at the next pull (one
 * JSON.stringify per record, ~1.3 s of main's time at 100k customers under load, which sat
 * between the customers' GET and the first piece sent).
 */
export class SnapshotKeeper {
  readonly #accountKey: string;
  #last: Snapshot | null = null;
  #prints: Prints | null = null;

  constructor(accountKey: string) {
    this.#accountKey = accountKey;
  }

  get snapshot(): Snapshot | null {
    return this.#last;
  }

  /**
   * Takes what the service acknowledged into the kept data, as the cache takes it: a resend then
   * carries it, and the next pull's diff is against what the cache holds (the pulled record of
   * an update differs from the kept one, if only in its updatedAt, so it is sent again).
   */
  acknowledge({ upserted, deleted }: Acknowledged): void {
    const last = this.#last;
    if (!last) return;
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
    const prints = this.#prints?.customers;
    for (const id of deleted) prints?.delete(id);
    for (const c of upserted) prints?.set(c.id, JSON.stringify(c));
  }

  /**
   * Takes a pull; returns the full snapshot the first time, else the delta. The fingerprints
   * are taken in slices (main's event loop runs between them); the new data is kept only once
   * they are done, so a resend asked meanwhile sends the data before it, which the delta follows.
   */
  async take(pulled: Pulled, pulledAt: number): Promise<{ snapshot: Snapshot } | { delta: Delta }> {
    const last = this.#last;
    const previous = this.#prints ?? (last ? await printsOf(last) : null);
    const next = { accountKey: this.#accountKey, pulledAt, ...pulled };
    if (previous === null) {
      this.#last = next;
      this.#prints = null;
      return { snapshot: next };
    }
    const prints = await printsOf(pulled);
    this.#last = next;
    this.#prints = prints;
    return {
      delta: {
        accountKey: this.#accountKey,
        pulledAt,
        user: previous.user === prints.user ? null : pulled.user,
        customers: diffRecords(previous.customers, pulled.customers, prints.customers),
        routes: diffRecords(previous.routes, pulled.routes, prints.routes),
        territories: diffRecords(previous.territories, pulled.territories, prints.territories),
      },
    };
  }
}
