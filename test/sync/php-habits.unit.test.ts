// The sync engine against PHP habits that decide what happens to a rep's change: a missing
// record answered 200 with "nothing", and refusals answered 200. (The habits every answer may
// have are in variants.test.ts: the whole offline session under each.)
import { afterEach, describe, expect, it } from 'vitest';
import type { ServiceStore } from '../../src-service/index';
import { Harness, newFields, tempId, USER } from '../support/main';

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

/** The service stops accepting a colour (the account's palette changed on the service). */
function dropColour(harness: Harness, colour: string): void {
  const account = (harness.service.store as ServiceStore).account(USER)!;
  account.colors = account.colors.filter((c) => c !== colour);
}

describe('a customer deleted on the service, answered 200 with nothing', () => {
  it.each(['null', 'false', 'empty-array'] as const)(
    'as %s: the rep edit waits for the rep as "deleted on the service", nothing is sent',
    async (missingCustomer) => {
      h = await Harness.start({ variants: { missingCustomer } });
      expect((await h.engine.syncNow()).kind).toBe('synced');
      const gone = h.serverCustomers()[0]!;
      const base = h.base(gone.id);
      await h.outbox.enqueue({
        kind: 'updateCustomer',
        target: gone.id,
        payload: { notes: 'called back' },
        base,
      });
      (h.service.store as ServiceStore).account(USER)!.customers.delete(gone.id);
      h.service.resetStats();
      await h.engine.syncNow();
      const [op] = h.outbox.list();
      expect(op).toMatchObject({ state: 'needs-attention' });
      expect(op!.lastError?.detail).toBe('deleted on the service');
      expect(h.service.customerPuts()).toEqual({});
    },
  );
});

describe('refusals answered 200 with an error body', () => {
  it("an update the service refuses is never taken as done: the rep's change waits for the rep", async () => {
    h = await Harness.start({ variants: { errors: '200' } });
    expect((await h.engine.syncNow()).kind).toBe('synced');
    const target = h.serverCustomers().find((c) => c.color !== 'teal')!;
    await h.outbox.enqueue({
      kind: 'updateCustomer',
      target: target.id,
      payload: { color: 'teal', notes: 'moved to the teal list' },
      base: h.base(target.id),
    });
    dropColour(h, 'teal');
    await h.engine.syncNow();
    const [op] = h.outbox.list();
    expect(op).toMatchObject({ state: 'needs-attention', target: target.id });
    expect(op!.lastError).toMatchObject({ kind: 'Rejected', status: 200 });
    expect(op!.lastError?.detail).toMatch(/invalid_field: Field "color"/);
    expect(h.base(target.id).color).toBe(target.color);
  });

  it('a create the service refuses is not counted created, and is never created twice', async () => {
    h = await Harness.start({ variants: { errors: '200' } });
    expect((await h.engine.syncNow()).kind).toBe('synced');
    await h.outbox.enqueue({
      kind: 'createCustomer',
      target: tempId(1),
      payload: newFields('Teal Shop', { color: 'teal' }),
      base: null,
    });
    dropColour(h, 'teal');
    await h.drain(3);
    expect(h.serverCustomers().filter((c) => c.name === 'Teal Shop')).toEqual([]);
    const [op] = h.outbox.list();
    expect(op?.target).toBe(tempId(1));
    // Never "the service said it created this customer": it said the opposite.
    expect(op?.lastError?.message ?? '').not.toMatch(/said it created/);
    expect(h.resolvedIds().size).toBe(0);
    // The service accepts the colour again: exactly one record, one POST that created it.
    (h.service.store as ServiceStore).account(USER)!.colors.push('teal');
    h.service.resetStats();
    await h.drain(5);
    expect(h.serverCustomers().filter((c) => c.name === 'Teal Shop')).toHaveLength(1);
    expect(h.outbox.list()).toEqual([]);
    expect(h.service.customerPosts()['Teal Shop']).toBe(1);
  });
});
