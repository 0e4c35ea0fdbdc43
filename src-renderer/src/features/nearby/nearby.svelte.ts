// Nearby as the rep uses it: a centre (a customer, or a point such as the map centre), a radius,
// and the customers within it, nearest first: the first NEARBY_LIMIT of them, with how many there
// are in all. The search runs in a module worker (nearby-worker.ts), so the page stays free at
// 100k customers. One per account (AccountData owns it); the worker starts with the first search.
import { text } from './text';
import type { LngLat } from '../../../../src-shared';
import type { CustomerView } from '../../types';
import { NearbyClient, type NearbyPort } from './nearby-worker';

export type NearbyCenter = { kind: 'customer'; id: string } | { kind: 'point'; at: LngLat };

/** The radius picker's choices, in km. */
export const NEARBY_RADII_KM = [1, 2, 5, 10, 25, 50] as const;
/** Rows shown at most (the total within the radius is shown too). */
export const NEARBY_LIMIT = 200;

export interface NearbyResult {
  /** The search this answers: the centre's position and the radius. */
  at: LngLat;
  radiusKm: number;
  hits: Array<{ customer: CustomerView; meters: number }>;
  total: number;
}

export type NearbyView =
  | { state: 'closed' }
  /** The centre customer is unknown or has no position: `problem` says so. */
  | { state: 'problem'; problem: string }
  | { state: 'searching'; at: LngLat }
  | { state: 'ready'; result: NearbyResult }
  | { state: 'failed'; problem: string };

export class NearbyState {
  #center = $state.raw<NearbyCenter | null>(null);
  // 5 km, or 5 mi where the rep reads miles.
  #radiusKm = $state(text.radiiKm([5])[0] ?? 5);
  #result = $state.raw<NearbyResult | null>(null);
  #failure = $state<string | null>(null);
  #client: NearbyClient<CustomerView> | null = null;
  #worker: Worker | null = null;
  #seq = 0;

  get center(): NearbyCenter | null {
    return this.#center;
  }

  get radiusKm(): number {
    return this.#radiusKm;
  }

  set radiusKm(km: number) {
    this.#radiusKm = km;
  }

  /** Starts a search around a customer or a point (the radius stays what the rep chose). */
  open(center: NearbyCenter): void {
    this.#center = center;
    this.#result = null;
    this.#failure = null;
  }

  close(): void {
    this.#center = null;
    this.#result = null;
    this.#failure = null;
    this.#seq++;
  }

  /** What the panel shows for the current customers (`byId` finds the centre customer). */
  view(byId: (id: string) => CustomerView | undefined): NearbyView {
    const center = this.#center;
    if (!center) return { state: 'closed' };
    const at = centerPosition(center, byId);
    if (typeof at === 'string') return { state: 'problem', problem: at };
    if (this.#failure !== null) return { state: 'failed', problem: this.#failure };
    const result = this.#result;
    if (result && result.radiusKm === this.#radiusKm && samePoint(result.at, at))
      return { state: 'ready', result };
    return { state: 'searching', at };
  }

  /** What the map draws while the panel is open: the circle searched and the pins found. */
  highlight(
    byId: (id: string) => CustomerView | undefined,
  ): { center: LngLat; radiusMeters: number; points: LngLat[] } | null {
    const view = this.view(byId);
    if (view.state !== 'ready') return null;
    const { at, radiusKm, hits } = view.result;
    const points = hits.flatMap((h) => (h.customer.position ? [h.customer.position] : []));
    return { center: at, radiusMeters: radiusKm * 1000, points };
  }

  /**
   * Searches around the centre in `customers` (the account's data version: a new array after any
   * change). The last call wins; an older answer arriving late is dropped.
   */
  async search(
    customers: readonly CustomerView[],
    byId: (id: string) => CustomerView | undefined,
  ): Promise<void> {
    const center = this.#center;
    const radiusKm = this.#radiusKm;
    const seq = ++this.#seq;
    if (!center) return;
    const at = centerPosition(center, byId);
    if (typeof at === 'string') return;
    const exclude = center.kind === 'customer' ? byId(center.id) : undefined;
    try {
      const answer = await this.#clientFor().search(customers, at, radiusKm * 1000, {
        limit: NEARBY_LIMIT,
        exclude,
      });
      if (seq !== this.#seq) return;
      this.#failure = null;
      this.#result = {
        at,
        radiusKm,
        total: answer.total,
        hits: answer.hits.map((h) => ({ customer: h.item, meters: h.meters })),
      };
    } catch (error) {
      if (seq !== this.#seq) return;
      this.#failure = text.failed(error instanceof Error ? error.message : String(error));
    }
  }

  dispose(): void {
    this.close();
    this.#client?.fail(new Error('the account was closed'));
    this.#worker?.terminate();
    this.#worker = null;
    this.#client = null;
  }

  #clientFor(): NearbyClient<CustomerView> {
    if (this.#client) return this.#client;
    const worker = new Worker(new URL('./nearby.worker.ts', import.meta.url), { type: 'module' });
    const client = new NearbyClient<CustomerView>(worker as unknown as NearbyPort);
    worker.addEventListener('error', (event) => {
      client.fail(new Error(event.message || 'the search worker did not start'));
      // The next search starts a new worker.
      if (this.#worker === worker) {
        this.#worker = null;
        this.#client = null;
      }
      worker.terminate();
    });
    this.#worker = worker;
    this.#client = client;
    return client;
  }
}

/** The centre's position, or what is wrong with it. */
function centerPosition(
  center: NearbyCenter,
  byId: (id: string) => CustomerView | undefined,
): LngLat | string {
  if (center.kind === 'point') return center.at;
  const customer = byId(center.id);
  if (!customer) return text.gone;
  if (!customer.position) return text.noPosition(customer.name);
  return customer.position;
}

function samePoint(a: LngLat, b: LngLat): boolean {
  return a[0] === b[0] && a[1] === b[1];
}
