// A service that stores values in its own form (trimmed and collapsed whitespace, upper-cased
// state, HTML entities, coordinates rounded to 5 decimals, dealAmount as "1234.50"). The client
// must recognise its own committed record in that form: never a second POST of a create that
// the service committed, never "created record not found" for one it can see.
import { afterEach, describe, expect, it } from 'vitest';
import type { CustomerFields } from '../../src-shared/domain';
import { foldText } from '../../src-main/core/sync/creates/match';
import { Harness, newFields, tempId } from '../support/main';

const RUNS = 20;
const CREATES = 10;

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

/** Fields as a rep types them: stray spaces, lower-case state, 7 decimals, cents as 1234.5. */
function messy(i: number): CustomerFields {
  const names = ['Rosa  Vik', ' Tia Moe ', 'Ana\tLund', 'Bo  Berg ', "O'Hara & Sons"];
  return newFields(`${names[i % names.length]} ${i}`, {
    company: i % 2 === 0 ? 'Vik & Moe  Ltd ' : '',
    address: ` ${10 + i}  Harbour   Road`,
    city: 'saint  paul',
    state: 'mn',
    zip: ' 55101',
    email: i % 3 === 0 ? 'Rosa.Vik@Example.COM ' : '',
    latitude: 44.9537029 + i / 1_000_003,
    longitude: -93.0899578 - i / 1_000_007,
    dealAmount: i % 2 === 0 ? 1234.5 : 99.999,
    notes: `  line one\n line two <b>${i}</b> `,
    groups: [' vip ', 'north'],
  });
}

describe('a normalising store', () => {
  it(`${RUNS} seeded runs of ${CREATES} creates with 30% resets after commit: exactly one record and one POST each`, async () => {
    for (let seed = 1; seed <= RUNS; seed++) {
      h = await Harness.start({
        seed,
        variants: { store: 'normalising' },
        faults: { seed, resetAfterRate: 0.3 },
      });
      await h.engine.syncNow();
      const before = h.serverCustomers().length;
      const sent = Array.from({ length: CREATES }, (_, i) => messy(i));
      for (const [i, fields] of sent.entries()) {
        await h.outbox.enqueue({
          kind: 'createCustomer',
          target: tempId(i + 1),
          payload: fields,
          base: null,
        });
      }
      await h.drain(20);

      const all = h.serverCustomers();
      const context = `seed ${seed}`;
      expect(all.length, context).toBe(before + CREATES);
      for (const fields of sent) {
        const copies = all.filter((c) => foldText(c.name) === foldText(fields.name));
        expect(copies, `${context}: ${fields.name}`).toHaveLength(1);
        // Every create went out once: resets after commit were reconciled, never resent.
        expect(h.service.customerPosts()[fields.name], `${context}: ${fields.name}`).toBe(1);
      }
      expect(h.outbox.list(), context).toEqual([]);
      expect(h.resolvedIds().size, context).toBe(CREATES);
      await h.dispose();
      h = undefined;
    }
  }, 300_000);

  it('recognises its records when the answer names the id: none flagged "not found"', async () => {
    h = await Harness.start({ variants: { store: 'normalising', createMessage: 'with-id' } });
    await h.engine.syncNow();
    for (let i = 0; i < 5; i++) {
      await h.outbox.enqueue({
        kind: 'createCustomer',
        target: tempId(i + 1),
        payload: messy(i),
        base: null,
      });
    }
    await h.drain();
    expect(h.outbox.list()).toEqual([]);
    expect(h.resolvedIds().size).toBe(5);
    expect(Object.values(h.service.customerPosts())).toEqual([1, 1, 1, 1, 1]);
  });
});
