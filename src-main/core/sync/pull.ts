// The pull half of a sync: four GETs (each validated by the client), one canonical spelling
// of every customer value, and what the renderer needs to hear: the whole snapshot the first
// time, only the difference after.
import type { Customer, Route, Territory, UserMeta } from '../../../src-shared/domain';
import type { EventOf } from '../../../src-shared/ipc-contract';
import { canonicalise } from './merge';
import type { RequestPriority, ServiceApi } from '../ports';
import { diffRecords, fingerprintInSlices } from './snapshot-diff';

export interface Pulled {
  user: UserMeta;
  customers: Customer[];
  routes: Route[];
  territories: Territory[];
}

/** GETs the account's data. Nothing is returned (so nothing is kept) unless all four pass. */
export async function pullAll(
  api: ServiceApi,
  priority: RequestPriority,
  step: () => void,
): Promise<Pulled> {
  const options = { priority };
  const user = await api.getUser(options);
  step();
  const customers = (await api.listCustomers(options)).map(normaliseCustomer);
  step();
  const routes = await api.listRoutes(options);
  step();
  const territories = await api.listTerritories(options);
  step();
  return { user, customers, routes, territories };
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
