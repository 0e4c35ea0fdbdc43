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

/** The last pulled data, kept in memory to diff the next pull against and to resend it. */
export class SnapshotKeeper {
  readonly #accountKey: string;
  #last: Snapshot | null = null;
  #prints: {
    user: string;
    customers: Map<string, string>;
    routes: Map<string, string>;
    territories: Map<string, string>;
  } | null = null;

  constructor(accountKey: string) {
    this.#accountKey = accountKey;
  }

  get snapshot(): Snapshot | null {
    return this.#last;
  }

  /** Takes a pull; returns the full snapshot the first time, else the delta. */
  take(pulled: Pulled, pulledAt: number): { snapshot: Snapshot } | { delta: Delta } {
    const prints = {
      user: JSON.stringify(pulled.user),
      customers: fingerprint(pulled.customers),
      routes: fingerprint(pulled.routes),
      territories: fingerprint(pulled.territories),
    };
    const previous = this.#prints;
    this.#prints = prints;
    this.#last = { accountKey: this.#accountKey, pulledAt, ...pulled };
    if (previous === null) return { snapshot: this.#last };
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
