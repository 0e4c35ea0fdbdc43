// Creates whose outcome stays ambiguous go to the rep ("Is this the customer you created?"),
// never out again by themselves; Retry reconciles first. And a create answered 502 settles on
// the next list instead of waiting out the absence grace.
import { afterEach, describe, expect, it } from 'vitest';
import type { ServiceApi } from '../../src-main/core/ports';
import type { Faults } from '../../src-service/index';
import { AMBIGUOUS_CREATE_DETAIL } from '../../src-main/core/sync/creates/evidence';
import { Harness, newFields, tempId, USER } from '../support/main';

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

/** Reopens the engine on a client whose customer POSTs meet `faultsFor(n)` (n from 1). */
async function withPostFaults(
  harness: Harness,
  faultsFor: (n: number) => Partial<Faults>,
  after: (n: number) => void = () => undefined,
): Promise<void> {
  let posts = 0;
  const api = new Proxy(harness.client, {
    get(target, key, receiver) {
      if (key === 'createCustomer') {
        return async (...args: Parameters<ServiceApi['createCustomer']>) => {
          posts++;
          harness.service.configure({ faults: { seed: posts, ...faultsFor(posts) } });
          try {
            return await target.createCustomer(...args);
          } finally {
            harness.service.configure({
              faults: {
                errorRate: 0,
                resetBeforeRate: 0,
                resetAfterRate: 0,
                errorAfterCommitRate: 0,
              },
            });
            after(posts);
          }
        };
      }
      const value = Reflect.get(target, key, receiver) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  await harness.close();
  await harness.open({ api });
}

describe('a create whose record cannot be told apart', () => {
  it('asks the rep with the candidates; Retry reconciles; choosing adopts the id', async () => {
    h = await Harness.start({ variants: { store: 'normalising' } });
    await h.engine.syncNow();
    const before = h.serverCustomers().length;
    const fields = newFields('Rosa Vik', { city: 'Bergen', phone: '555-0101' });
    const op = await h.outbox.enqueue({
      kind: 'createCustomer',
      target: tempId(1),
      payload: fields,
      base: null,
    });
    // The POST commits, its answer is lost; someone edits the new record right away.
    const harness = h;
    await withPostFaults(
      h,
      () => ({ resetAfterRate: 1 }),
      () => {
        const record = harness.serverCustomers().find((c) => c.name === 'Rosa Vik');
        if (record)
          harness.service.store.updateCustomerDirect(USER, record.id, { phone: '555-9999' });
      },
    );
    await h.drain();
    const record = h.serverCustomers().find((c) => c.name === 'Rosa Vik')!;
    const flagged = h.outbox.get(op.opId)!;
    expect(flagged.state).toBe('needs-attention');
    expect(flagged.lastError?.detail).toBe(AMBIGUOUS_CREATE_DETAIL);
    expect(flagged.lastError?.message).toContain('Is this the customer you created?');
    const offered = await h.engine.createCandidates(op.opId);
    expect(offered?.map((c) => c.id)).toEqual([record.id]);

    // Retry: reconciled again, still ambiguous, never a blind POST.
    await h.outbox.retry(op.opId);
    await h.drain();
    expect(h.outbox.get(op.opId)?.state).toBe('needs-attention');
    expect(h.service.customerPosts()['Rosa Vik']).toBe(1);

    await h.engine.decideCreate(op.opId, record.id);
    expect(h.outbox.list()).toEqual([]);
    expect(h.resolvedIds().get(tempId(1))).toBe(record.id);
    await h.drain();
    expect(h.serverCustomers()).toHaveLength(before + 1);
    expect(h.service.customerPosts()['Rosa Vik']).toBe(1);
  });

  it('"None of these: create it" is the only path to a resend', async () => {
    h = await Harness.start();
    await h.engine.syncNow();
    const before = h.serverCustomers().length;
    const op = await h.outbox.enqueue({
      kind: 'createCustomer',
      target: tempId(2),
      payload: newFields('Tia Moe', { city: 'Oslo', company: 'Moe AS' }),
      base: null,
    });
    // Lost answer, no commit; but someone else creates a look-alike meanwhile.
    const harness = h;
    await withPostFaults(
      h,
      (n) => (n === 1 ? { resetBeforeRate: 1 } : {}),
      (n) => {
        if (n === 1) {
          harness.service.store.createCustomerDirect(USER, { name: 'Tia Moe', city: 'Trondheim' });
        }
      },
    );
    await h.drain();
    expect(h.outbox.get(op.opId)?.state).toBe('needs-attention');
    expect((await h.engine.createCandidates(op.opId))?.map((c) => c.city)).toEqual(['Trondheim']);
    expect(h.service.customerPosts()['Tia Moe']).toBeUndefined();

    await h.engine.decideCreate(op.opId, null);
    await h.drain();
    expect(h.outbox.list()).toEqual([]);
    expect(h.service.customerPosts()['Tia Moe']).toBe(1);
    expect(h.serverCustomers()).toHaveLength(before + 2);
  });
});

describe('a create answered 502', () => {
  it('settles on the next list, without waiting out the 2-minute grace', async () => {
    h = await Harness.start({ engine: { push: { absenceGraceMs: 120_000 } } });
    await h.engine.syncNow();
    const before = h.serverCustomers().length;
    // Odd POSTs: committed, then 502. Even ones: 502 without a commit.
    await withPostFaults(h, (n) =>
      n % 2 === 1 ? { errorAfterCommitRate: 1 } : { errorRate: 1, seed: 2 },
    );
    const names = Array.from({ length: 14 }, (_, i) => `Gateway ${i}`);
    for (const [i, name] of names.entries()) {
      await h.outbox.enqueue({
        kind: 'createCustomer',
        target: tempId(i + 10),
        payload: newFields(name),
        base: null,
      });
    }
    // No sleeping: three syncs in a row must settle everything.
    for (let i = 0; i < 3 && h.outbox.list().length > 0; i++) await h.engine.syncNow();
    expect(h.outbox.list()).toEqual([]);
    const all = h.serverCustomers();
    expect(all).toHaveLength(before + names.length);
    for (const name of names) expect(all.filter((c) => c.name === name)).toHaveLength(1);
  });
});
