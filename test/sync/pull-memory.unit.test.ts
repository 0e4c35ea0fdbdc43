// What a pull's records hold in main (pull.ts): main keeps the last pull's customers between
// syncs (SnapshotKeeper), so the values many customers share (a town, a state, a colour, a
// group, a custom field's choice, a time zone) are one string each, not one per record as
// JSON.parse makes them.
import { afterEach, describe, expect, it } from 'vitest';
import { normaliseCustomer, pullAll } from '../../src-main/core/sync/pull';
import type { Customer } from '../../src-shared/domain';
import { Harness } from '../support/main';
import { collectedMemory } from '../support/heap';

let h: Harness | null = null;

afterEach(async () => {
  await h?.dispose();
  h = null;
});

describe("a pull's records", () => {
  it('share the values many customers have: less held than the same records with strings of their own', async () => {
    const heap = async () => (await collectedMemory()).heapUsed;
    h = await Harness.start({ customers: 20_000 });
    const progress = { step: () => undefined, listing: () => undefined };
    const clock = { now: () => 0 };
    const start = await heap();
    // The same list read and normalised as the pull does, each value its own string.
    let apart: Customer[] | null = (await h.client.listCustomers()).map(normaliseCustomer);
    const held = (await heap()) - start;
    let kept: Customer[] | null = (await pullAll(h.client, 'user', progress, clock)).customers;
    const pulled = (await heap()) - start - held;
    expect(kept).toEqual(apart);
    apart = null;
    kept = null;
    expect(apart ?? kept).toBeNull();
    // A fifth less, the seeded account's share of such values.
    expect(pulled).toBeLessThan(held * 0.9);
  }, 120_000);
});
