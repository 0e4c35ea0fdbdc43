// The pull half of a sync: four GETs (each validated by the client), one canonical spelling
// of every customer value, and what the renderer needs to hear: the whole snapshot the first
// time, only the difference after.
import type { Customer, Route, Territory, UserMeta } from '../../../src-shared/domain';
import type { EventOf } from '../../../src-shared/ipc-contract';
import { canonicalise } from './merge';
import type { RequestPriority, ServiceApi } from '../ports';
import { diffRecords, fingerprint } from './snapshot-diff';

export interface Pulled {
  user: UserMeta;
  customers: Customer[];
  routes: Route[];
  territories: Territory[];
}

/**
 * GETs the account's data. Nothing is returned (so nothing is kept) unless all four pass.
 * The four are asked at once, customers first: the client's limiter still sends them at its rate
 * (3 a second), but the small three no longer wait for the customers' answer, which at 100k is
 * seconds of the service's time and of parsing (one after the other they added ~0.7 s to a first
 * sync here: two limiter slots and three round trips after the customers). Once all have
 * settled, the first failure in the order user, customers, routes, territories is thrown.
 */
export async function pullAll(
  api: ServiceApi,
  priority: RequestPriority,
  step: () => void,
): Promise<Pulled> {
  const options = { priority };
  const stepped = <T>(request: Promise<T>) =>
    request.then((value) => {
      step();
      return value;
    });
  const customers = stepped(api.listCustomers(options));
  const routes = stepped(api.listRoutes(options));
  const territories = stepped(api.listTerritories(options));
  const user = stepped(api.getUser(options));
  const settled = await Promise.allSettled([user, customers, routes, territories]);
  for (const result of settled) if (result.status === 'rejected') throw result.reason;
  return {
    user: await user,
    customers: (await customers).map(normaliseCustomer),
    routes: await routes,
    territories: await territories,
  };
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

function printsOf(pulled: Pulled): Prints {
  return {
    user: JSON.stringify(pulled.user),
    customers: fingerprint(pulled.customers),
    routes: fingerprint(pulled.routes),
    territories: fingerprint(pulled.territories),
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

  /** Takes a pull; returns the full snapshot the first time, else the delta. */
  take(pulled: Pulled, pulledAt: number): { snapshot: Snapshot } | { delta: Delta } {
    const last = this.#last;
    const previous = this.#prints ?? (last ? printsOf(last) : null);
    this.#last = { accountKey: this.#accountKey, pulledAt, ...pulled };
    if (previous === null) {
      this.#prints = null;
      return { snapshot: this.#last };
    }
    const prints = printsOf(pulled);
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
