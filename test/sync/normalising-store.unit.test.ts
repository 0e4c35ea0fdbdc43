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
const harnesses: Harness[] = [];
afterEach(async () => {
  await Promise.all([h, ...harnesses.splice(0)].map((x) => x?.dispose()));
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
  // The seeds are independent (each its own service, outbox and engine), so they run side by
  // side: a run spends most of its time waiting out the absence grace of a reset create.
  it(`${RUNS} seeded runs of ${CREATES} creates with 30% resets after commit: exactly one record and one POST each`, async () => {
    const run = async (seed: number) => {
      const harness = await Harness.start({
        seed,
        variants: { store: 'normalising' },
        faults: { seed, resetAfterRate: 0.3 },
      });
      harnesses.push(harness);
      await harness.engine.syncNow();
      const before = harness.serverCustomers().length;
      const sent = Array.from({ length: CREATES }, (_, i) => messy(i));
      for (const [i, fields] of sent.entries()) {
        await harness.outbox.enqueue({
          kind: 'createCustomer',
          target: tempId(i + 1),
          payload: fields,
          base: null,
        });
      }
      await harness.drain(20);

      const all = harness.serverCustomers();
      const context = `seed ${seed}`;
      expect(all.length, context).toBe(before + CREATES);
      for (const fields of sent) {
        const copies = all.filter((c) => foldText(c.name) === foldText(fields.name));
        expect(copies, `${context}: ${fields.name}`).toHaveLength(1);
        // Every create went out once: resets after commit were reconciled, never resent.
        expect(harness.service.customerPosts()[fields.name], `${context}: ${fields.name}`).toBe(1);
      }
      expect(harness.outbox.list(), context).toEqual([]);
      expect(harness.resolvedIds().size, context).toBe(CREATES);
    };
    // Every run settles before the test ends, so afterEach disposes all of their harnesses.
    const results = await Promise.allSettled(Array.from({ length: RUNS }, (_, i) => run(i + 1)));
    for (const result of results) if (result.status === 'rejected') throw result.reason;
  });

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
