// Search: case-insensitive substring over name, company, address, city, state, zip, country only.
import { describe, expect, it } from 'vitest';
import { matchesSearch } from '../../src-shared/search';
import { call, serve } from '../support/service';

describe('reference service: search', () => {
  it('matches each searched field, case-insensitively, and returns an array', async () => {
    const s = await serve();
    const make = (fields: Record<string, unknown>) =>
      s.store.createCustomerDirect('demo', fields).id;
    const byName = make({ name: 'Quixotic Widgets' });
    const byCompany = make({ name: 'a', company: 'QUIXOTIC holdings' });
    const byAddress = make({ name: 'b', address: '1 Quixotic Way' });
    const byCity = make({ name: 'c', city: 'Quixoticville' });
    const byState = make({ name: 'd', state: 'quixotic' });
    const byZip = make({ name: 'e', zip: 'QX-quixotic' });
    const byCountry = make({ name: 'f', country: 'Quixotia Quixotic' });
    make({
      name: 'g',
      email: 'quixotic@example.com',
      notes: 'quixotic',
      custom0: 'quixotic',
      phone: 'quixotic',
    });
    const res = await call(s, 'GET', '/api/v1/customers/search/qUiXoTiC');
    expect(res.status).toBe(200);
    expect(res.json.map((c: { id: string }) => c.id).sort()).toEqual(
      [byName, byCompany, byAddress, byCity, byState, byZip, byCountry].sort(),
    );
    const none = await call(s, 'GET', '/api/v1/customers/search/zzqqxxnothing');
    expect(none.status).toBe(200);
    expect(none.json).toEqual([]);
  });

  it('URL-decodes the term (spaces, UTF-8, reserved characters)', async () => {
    const s = await serve();
    const cafe = s.store.createCustomerDirect('demo', {
      name: 'Café Olé',
      address: '12 Elm St #4/B',
    }).id;
    const spaced = await call(s, 'GET', '/api/v1/customers/search/caf%C3%A9%20ol');
    expect(spaced.json.map((c: { id: string }) => c.id)).toEqual([cafe]);
    const upper = await call(s, 'GET', '/api/v1/customers/search/CAF%C3%89');
    expect(upper.json.map((c: { id: string }) => c.id)).toEqual([cafe]);
    const slash = await call(s, 'GET', `/api/v1/customers/search/${encodeURIComponent('#4/B')}`);
    expect(slash.json.map((c: { id: string }) => c.id)).toEqual([cafe]);
  });

  it('agrees with the shared matchesSearch rule on the demo data', async () => {
    const s = await serve({
      accounts: [{ username: 'demo', password: 'demo', customers: 400, seed: 5 }],
    });
    for (const term of ['ave', 'TX', 'montréal', 'united', '606', 'smith', 'dental']) {
      const res = await call(s, 'GET', `/api/v1/customers/search/${encodeURIComponent(term)}`);
      const expected = s.store.customers('demo').filter((c) => matchesSearch(c, term));
      expect(res.json, term).toEqual(expected);
    }
  });

  it('refuses an empty, blank or badly encoded term with 400', async () => {
    const s = await serve();
    for (const path of ['search/', 'search', 'search/%20%20', 'search/%09', 'search/%E0%A4%A']) {
      const res = await call(s, 'GET', `/api/v1/customers/${path}`);
      expect(res.status, path).toBe(400);
      expect(res.json.error).toBe('invalid_search');
    }
  });
});
