// A route is stored with its customers' positions at creation: the rep's earlier edits of
// those customers (a moved pin) must reach the service before the route does.
import { afterEach, describe, expect, it } from 'vitest';
import { Harness, USER } from '../support/main';

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe('route creates after edits of their customers', () => {
  it('sends a moved pin before the route through it', async () => {
    h = await Harness.start();
    const mapped = h.serverCustomers().filter((c) => c.latitude !== null && c.latitude !== 0);
    const [moved, other] = mapped;
    await h.outbox.enqueue({
      kind: 'updateCustomer',
      target: moved!.id,
      payload: { latitude: 45.5, longitude: -122.25 },
      base: h.base(moved!.id),
    });
    await h.outbox.enqueue({
      kind: 'createRoute',
      target: 'tmp_00000000-0000-4000-8000-00000000a001',
      payload: { routeName: 'Through the moved pin', customerIds: [other!.id, moved!.id] },
      base: null,
    });
    await h.drain();
    expect(h.outbox.list()).toEqual([]);
    const route = h.service.store.routes(USER).find((r) => r.name === 'Through the moved pin');
    expect(route?.points).toEqual([`${other!.latitude},${other!.longitude}`, '45.5,-122.25']);
  });
});
