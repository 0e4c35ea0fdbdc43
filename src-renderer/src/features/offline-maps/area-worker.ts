// The areas "Download my area" proposes, off the UI thread: clustering 100k customers (and
// splitting and counting cities) held the page for seconds, so a module worker makes the plan
// (area-plan.ts) and the page only names it (proposed-areas.ts). The page sends positions as two
// Float64Array columns, transferred, with the cities as strings; the worker answers with the plan,
// a few hundred small objects at most. One side runs in the worker (serveAreas), the other in the
// page (AreaPlanner); both talk over any MessagePort-like pair.
import type { LngLat } from '../../../../src-shared';
import { planAreas, type AreaPlan, type PlacedCustomer } from './area-plan';

/** A customer as the page holds it (CustomerView): where (null when unmapped) and its city. */
export interface Located {
  position: LngLat | null;
  city: string;
}

export interface AreaRequest {
  id: number;
  /** The mapped customers as columns; absent when they are those of the last request. */
  customers?: { lng: Float64Array; lat: Float64Array; cities: string[] };
  territories: Array<{ name: string; points: LngLat[] }>;
}

export type AreaAnswer =
  { kind: 'plan'; id: number; areas: AreaPlan[] } | { kind: 'error'; id: number; message: string };

/** The part of a MessagePort (or a Worker, or a worker's global scope) both sides use. */
export interface AreaPort {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent) => unknown) | null;
}

/** The worker's side: one plan per request, in the order asked, on the last customers sent. */
export function serveAreas(port: AreaPort): void {
  let customers: PlacedCustomer[] = [];
  port.onmessage = (event) => {
    const { id, territories, customers: sent } = event.data as AreaRequest;
    try {
      if (sent) {
        const { lng, lat, cities } = sent;
        customers = Array.from(cities, (city, i) => ({ at: [lng[i]!, lat[i]!], city }));
      }
      const answer: AreaAnswer = { kind: 'plan', id, areas: planAreas(customers, territories) };
      port.postMessage(answer);
    } catch (error) {
      port.postMessage({ kind: 'error', id, message: String(error) } satisfies AreaAnswer);
    }
  };
}

/**
 * The page's side: `plan` sends the customers and territories and resolves with the plan; an
 * answer to a request a newer one has replaced is dropped (its promise resolves null), so the
 * panel never shows areas of customers it no longer has.
 */
export class AreaPlanner {
  #port: AreaPort;
  #latest = 0;
  #sent: readonly Located[] | null = null;
  #broken: Error | null = null;
  #waiting = new Map<
    number,
    { resolve: (areas: AreaPlan[] | null) => void; reject: (e: Error) => void }
  >();

  constructor(port: AreaPort) {
    this.#port = port;
    port.onmessage = (event) => this.#answer(event.data as AreaAnswer);
  }

  /**
   * Customers without a position are left out. A list already sent (the same array) is not sent
   * again: the worker plans on the one it holds.
   */
  plan(
    customers: readonly Located[],
    territories: ReadonlyArray<{ name: string; points: readonly LngLat[] }>,
  ): Promise<AreaPlan[] | null> {
    const id = ++this.#latest;
    if (this.#broken) return Promise.reject(this.#broken);
    const request: AreaRequest = {
      id,
      territories: territories.map((t) => ({ name: t.name, points: [...t.points] })),
    };
    const transfer: Transferable[] = [];
    if (customers !== this.#sent) {
      this.#sent = customers;
      const mapped = customers.filter((c) => c.position !== null);
      const lng = new Float64Array(mapped.length);
      const lat = new Float64Array(mapped.length);
      const cities = mapped.map((c, i) => {
        [lng[i], lat[i]] = c.position!;
        return c.city;
      });
      request.customers = { lng, lat, cities };
      transfer.push(lng.buffer, lat.buffer);
    }
    return new Promise((resolve, reject) => {
      for (const waiting of this.#waiting.values()) waiting.resolve(null);
      this.#waiting.clear();
      this.#waiting.set(id, { resolve, reject });
      this.#port.postMessage(request, transfer);
    });
  }

  /** Rejects the plan still waiting and every later one (the worker failed or is going away). */
  fail(error: Error): void {
    this.#broken = error;
    for (const waiting of this.#waiting.values()) waiting.reject(error);
    this.#waiting.clear();
  }

  #answer(answer: AreaAnswer): void {
    const waiting = this.#waiting.get(answer.id);
    if (!waiting) return;
    this.#waiting.delete(answer.id);
    if (answer.kind === 'error') waiting.reject(new Error(answer.message));
    else waiting.resolve(answer.areas);
  }
}
