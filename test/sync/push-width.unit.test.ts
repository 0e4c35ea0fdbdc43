// Changes of different customers go three at a time (push.ts TARGETS_AT_ONCE), so a change's own
// work (merge, fsync, the page told) does not come on top of the service's rate (one customer's
// changes still go in order: edits-during-push.unit). The service holds the answers (an after-commit gate): what reached
// it while they wait is what the push sent at once.
import { afterEach, describe, expect, it } from 'vitest';
import { Harness, USER } from '../support/main';
import { until } from '../support/until';

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const puts = (harness: Harness) =>
  Object.values(harness.service.customerPuts()).reduce((a, b) => a + b, 0);

describe('a push of many changes', () => {
  it('sends the changes of three customers at once, no more', async () => {
    h = await Harness.start({ customers: 12 });
    const customers = h.serverCustomers();
    const color = (c: { color: string }) => (c.color === 'teal' ? 'pink' : 'teal');
    for (const c of customers) {
      await h.outbox.enqueue({
        kind: 'updateCustomer',
        target: c.id,
        payload: { color: color(c) },
        base: h.base(c.id),
      });
    }
    const gate = h.service.hold('PUT', /^\/api\/v1\/customers\/[^/]+$/, 'after-commit');
    const sync = h.engine.syncNow();
    await until(() => puts(h!) >= 3, 'three changes applied while their answers wait');
    // None more starts while three wait for their answers (a round trip of our own meanwhile).
    await h.client.getUser();
    expect(puts(h)).toBe(3);
    gate.release();
    await sync;
    expect(h.outbox.list()).toEqual([]);
    for (const c of customers) expect(h.service.store.customer(USER, c.id)?.color).toBe(color(c));
  });
});
