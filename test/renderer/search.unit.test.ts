// Local search (the renderer's in-memory index) answers exactly like the service: the same ids
// as src-shared's matchesSearch, and as the reference service's search endpoint over real HTTP,
// for seeded random terms. The index is plain TypeScript, so Node runs it as Chromium would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matchesSearch, positionOf, type Customer } from '../../src-shared';
import { CustomerIndex } from '../../src-renderer/src/features/customers/customer-index';
import type { CustomerView } from '../../src-renderer/src/types';
import { startService, type RunningService } from '../../src-service/index';
import { makeCustomers, makeTerms } from './pages/fixtures';

function viewsOf(customers: Customer[]): CustomerView[] {
  return customers.map((c) => ({ ...c, pending: false, position: positionOf(c) }));
}

// Joined, so a mismatch is one string compare (deep-equal of long arrays is slow).
const ids = (list: Array<{ id: string }>) =>
  list
    .map((c) => c.id)
    .sort()
    .join(' ');

describe('local search', () => {
  it('matches src-shared matchesSearch for 200 random terms over 2k customers', () => {
    const customers = makeCustomers(2_000, 5);
    const index = CustomerIndex.build(viewsOf(customers), 'city', 'desc');
    const terms = [...makeTerms(customers, 200, 6), '', ' ', 'A', '\u0000', 'ß', 'İ'];
    for (const term of terms) {
      expect(ids(index.search(term)), term).toBe(
        ids(customers.filter((c) => matchesSearch(c, term))),
      );
    }
  });
});

describe('local search against the service', () => {
  let service: RunningService;
  const auth = `Basic ${Buffer.from('search:pw').toString('base64')}`;

  beforeAll(async () => {
    service = await startService({
      rate: 0,
      accounts: [{ username: 'search', password: 'pw', customers: 1000, seed: 17 }],
    });
  });

  afterAll(async () => {
    await service?.stop();
  });

  it('returns the same ids as GET /customers/search/{term} for 50 random terms', async () => {
    const get = async (path: string) => {
      const res = await fetch(`${service.url}/api/v1${path}`, { headers: { authorization: auth } });
      expect(res.status, path).toBe(200);
      return (await res.json()) as Customer[];
    };
    const customers = await get('/customers');
    expect(customers.length).toBe(1000);
    const index = CustomerIndex.build(viewsOf(customers));
    // The service refuses a blank term (400); the list treats blank as "no search".
    const terms = makeTerms(customers, 80, 18)
      .filter((t) => t.trim() !== '')
      .slice(0, 50);
    expect(terms.length).toBe(50);
    let nonEmpty = 0;
    for (const term of terms) {
      const remote = await get(`/customers/search/${encodeURIComponent(term)}`);
      const local = index.search(term);
      expect(ids(local), term).toBe(ids(remote));
      if (remote.length > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(30); // the terms really hit customers
  });
});
