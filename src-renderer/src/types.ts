// View types shared by the panels and the map (src-renderer/src/map imports these).
import type { Customer, LngLat, Route, Territory } from '../../src-shared';

export type { Customer, LngLat, Route, Territory };

/** A customer as the views show it: server data with the rep's queued changes applied. */
export type CustomerView = Customer & {
  /** True when a queued op (create, update) has changed this record locally. */
  pending: boolean;
  /** [lng, lat], or null when the customer is unmapped. */
  position: LngLat | null;
};

/** A request to move the map to something; `nonce` makes a repeat request a new value. */
export type FocusRequest = {
  kind: 'customer' | 'territory' | 'route';
  id: string;
  nonce: number;
};

/** A route as stored: pending routes are local creates not yet on the service. */
export type RouteView = Route & { pending?: boolean };
