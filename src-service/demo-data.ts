// Seeded demo data (placeholder generator; the realistic one replaces it).
import type { Account } from './account';
import { defaultFields } from './customers';
import { newId } from './ids';
import { Random } from './prng';

export function generateAccountData(
  account: Account,
  count: number,
  seed: number,
  now: number,
): void {
  const rnd = Random.seeded(seed);
  account.groups = ['Prospects', 'Key accounts'];
  for (let i = 0; i < count; i++) {
    const id = newId(rnd.next);
    account.customers.set(id, {
      id,
      ...defaultFields(),
      name: `Customer ${i}`,
      city: 'Chicago',
      state: 'IL',
      country: 'US',
      latitude: 41.8 + rnd.gauss() * 0.1,
      longitude: -87.6 + rnd.gauss() * 0.1,
      createdAtMs: now,
      updatedAtMs: now,
    });
  }
}
