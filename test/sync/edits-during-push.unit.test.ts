// A rep's edit that lands while the engine is preparing to send the same op (fetching the
// server record or the round's list) must be sent too, never dropped with the op it merged into.
// The hooks below only run an enqueue at a precise moment; every request still goes to the real
// reference service.
import { afterEach, describe, expect, it } from 'vitest';
import { Harness, newFields, tempId, USER } from '../support/main';

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

/**
 * Runs `action` once, on the client's first `method` call, before that request goes: the rep
 * acting while the engine waits for the service. Returns whether it ran.
 */
function beforeFirst(
  harness: Harness,
  method: 'getCustomer' | 'listCustomers',
  action: () => Promise<unknown>,
): () => boolean {
  const client = harness.client as unknown as Record<
    string,
    (...args: unknown[]) => Promise<unknown>
  >;
  const original = client[method]!.bind(harness.client);
  let ran = false;
  client[method] = async (...args) => {
    if (!ran) {
      ran = true;
      await action();
    }
    return original(...args);
  };
  return () => ran;
}

describe('edits queued while the engine prepares a send', () => {
  it('sends a field edited while the update op waits for its fresh server record', async () => {
    h = await Harness.start();
    const [target] = h.serverCustomers();
    const id = target!.id;
    await h.outbox.enqueue({
      kind: 'updateCustomer',
      target: id,
      payload: { notes: 'first edit' },
      base: h.base(id),
    });
    const harness = h;
    const hooked = beforeFirst(h, 'getCustomer', async () => {
      // The rep saves the form again while the engine's GET is on its way.
      await harness.outbox.enqueue({
        kind: 'updateCustomer',
        target: id,
        payload: { city: 'Second Edit City' },
        base: harness.base(id),
      });
    });
    await h.drain();
    expect(hooked()).toBe(true);
    const server = h.service.store.customer(USER, id);
    expect(server?.notes).toBe('first edit');
    expect(server?.city).toBe('Second Edit City');
    expect(h.outbox.list()).toEqual([]);
  });

  it('creates a customer with a field edited while the round fetches its customers list', async () => {
    h = await Harness.start();
    const before = h.serverCustomers().length;
    const tmp = tempId(1);
    await h.outbox.enqueue({
      kind: 'createCustomer',
      target: tmp,
      payload: newFields('Edited Before Send'),
      base: null,
    });
    const harness = h;
    const hooked = beforeFirst(h, 'listCustomers', async () => {
      await harness.outbox.enqueue({
        kind: 'updateCustomer',
        target: tmp,
        payload: { city: 'Edited City' },
        base: null,
      });
    });
    await h.drain();
    expect(hooked()).toBe(true);
    const created = h.serverCustomers().filter((c) => c.name === 'Edited Before Send');
    expect(h.serverCustomers()).toHaveLength(before + 1);
    expect(created).toHaveLength(1);
    expect(created[0]?.city).toBe('Edited City');
    expect(h.outbox.list()).toEqual([]);
  });

  it('does not fail the sync when the create is deleted while the round fetches its list', async () => {
    h = await Harness.start();
    const before = h.serverCustomers().length;
    const tmp = tempId(2);
    await h.outbox.enqueue({
      kind: 'createCustomer',
      target: tmp,
      payload: newFields('Deleted Before Send'),
      base: null,
    });
    const harness = h;
    const hooked = beforeFirst(h, 'listCustomers', async () => {
      await harness.outbox.enqueue({
        kind: 'deleteCustomer',
        target: tmp,
        payload: null,
        base: null,
      });
    });
    const state = await h.engine.syncNow();
    expect(hooked()).toBe(true);
    expect(state.kind).toBe('synced');
    expect(h.serverCustomers()).toHaveLength(before);
    expect(h.outbox.list()).toEqual([]);
  });
});
