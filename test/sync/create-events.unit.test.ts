// The order main announces a create's acknowledgement in: the renderer renames the record it
// shows on 'ids:resolved', so that must come before the outbox change that drops the create
// (the other way round the new customer vanished from every view until the next pull).
import { afterEach, describe, expect, it } from 'vitest';
import { Harness, newFields, tempId } from '../support/main';

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe("a create's acknowledgement", () => {
  it('announces the server id before the outbox change that drops the create, in one step', async () => {
    h = await Harness.start();
    const order: string[] = [];
    h.outbox.onChange((ops) =>
      order.push(ops.some((op) => op.kind === 'createCustomer') ? 'create queued' : 'create gone'),
    );
    await h.engine.syncNow();
    const temp = tempId(7);
    await h.outbox.enqueue({
      kind: 'createCustomer',
      target: temp,
      payload: newFields('Ordered Create'),
      base: null,
    });
    const engineEvents = h.events.length;
    const emit = h.events.push.bind(h.events);
    h.events.push = (...items) => {
      for (const e of items) if (e.event === 'ids:resolved') order.push('ids:resolved');
      return emit(...items);
    };
    order.length = 0;
    await h.engine.syncNow();
    expect(h.events.length).toBeGreaterThan(engineEvents);
    // Marked in flight, the id, then one change in which the create is gone.
    expect(order).toEqual(['create queued', 'ids:resolved', 'create gone']);
    expect(h.outbox.list()).toEqual([]);
  });
});
