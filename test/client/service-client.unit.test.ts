// ServiceClient against the reference service over real HTTP on loopback: every endpoint, every
// error kind of the taxonomy, and the gap variants the schemas must tolerate.
import { createServer } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src-service/index';
import { RateLimiter } from '../../src-main/core/service/rate-limiter';
import { extractIdCandidates } from '../../src-main/core/service/id-candidates';
import { emptyCustomerFields, type CustomerFields } from '../../src-shared/domain';
import { matchesSearch } from '../../src-shared/search';
import { clientFor, errorOf, REP } from '../support/service';

let service: RunningService;

beforeAll(async () => {
  service = await startService({ rate: 0, accounts: [{ ...REP, customers: 40, seed: 3 }] });
});
afterAll(() => service.stop());
afterEach(() => {
  service.configure({
    allow: ['127.0.0.0/8', '::1'],
    faults: { errorRate: 0, resetBeforeRate: 0, resetAfterRate: 0, latencyMs: 0 },
    variants: { forbiddenBody: 'json' },
  });
});

const fields = (changes: Partial<CustomerFields>): CustomerFields => ({
  ...emptyCustomerFields(),
  ...changes,
});

const customersNamed = (name: string) =>
  service.store.customers(REP.username).filter((c) => c.name === name);

describe('ServiceClient endpoints', () => {
  it('reads the user, customers, one customer, routes and territories as the service holds them', async () => {
    const client = clientFor(service.url);
    const user = await client.getUser();
    expect(user.username).toBe(REP.username);
    expect(user).toHaveProperty('customFields'); // unknown extra fields are kept
    expect(await client.listCustomers()).toEqual(service.store.customers(REP.username));
    const one = service.store.customers(REP.username)[5]!;
    expect(await client.getCustomer(one.id)).toEqual(one);
    expect(await client.listRoutes()).toEqual(service.store.routes(REP.username));
    expect(await client.listTerritories()).toEqual(service.store.territories(REP.username));
  });

  it('searches with terms that need encoding, and "." through the shared search rule', async () => {
    const client = clientFor(service.url);
    const odd = service.store.createCustomerDirect(REP.username, {
      name: "O'Brien & Sons / #1 ?50% é",
    });
    const found = await client.searchCustomers('sons / #1 ?50% É');
    expect(found.map((c) => c.id)).toEqual([odd.id]);
    const all = service.store.customers(REP.username);
    const city = all[0]!.city;
    expect(await client.searchCustomers(city)).toEqual(all.filter((c) => matchesSearch(c, city)));
    const dotted = await client.searchCustomers('.');
    expect(dotted.length).toBeGreaterThan(0);
    expect(dotted).toEqual(all.filter((c) => matchesSearch(c, '.')));
    expect((await errorOf(client.searchCustomers('  '))).kind).toBe('InvalidRequest');
  });

  it('creates, updates and deletes a customer; the create message yields the new id', async () => {
    const client = clientFor(service.url);
    const created = await client.createCustomer(fields({ name: 'Ada Field', city: 'Leeds' }));
    const [record] = customersNamed('Ada Field');
    expect(record).toBeDefined();
    expect(extractIdCandidates(created.message)).toContain(record!.id);

    const updated = await client.updateCustomer(
      record!.id,
      fields({ name: 'Ada Field', city: 'York', dealAmount: 1200 }),
    );
    expect(updated.message).toContain(record!.id);
    expect(service.store.customer(REP.username, record!.id)).toMatchObject({
      city: 'York',
      dealAmount: 1200,
    });

    const deleted = await client.deleteCustomer(record!.id);
    expect(deleted.message).toContain(record!.id);
    expect(service.store.customer(REP.username, record!.id)).toBeUndefined();
    // Delete of a missing record: status 404 lets the engine count it as done.
    expect(await errorOf(client.deleteCustomer(record!.id))).toMatchObject({
      kind: 'Rejected',
      status: 404,
    });
  });

  it('creates a route from mapped customers and merges custom fields', async () => {
    const client = clientFor(service.url);
    const mapped = service.store
      .customers(REP.username)
      .filter((c) => typeof c.latitude === 'number' && c.latitude !== 0)
      .slice(0, 2);
    const before = service.store.routes(REP.username).length;
    await client.createRoute({ routeName: 'Tuesday', customerIds: mapped.map((c) => c.id) });
    const routes = await client.listRoutes();
    expect(routes).toHaveLength(before + 1);
    expect(routes.find((r) => r.name === 'Tuesday')?.points).toEqual(
      mapped.map((c) => `${c.latitude},${c.longitude}`),
    );

    await client.updateCustomFields({ 'Visits per week': 7 });
    expect((await client.getUser())['customFields']).toMatchObject({ 'Visits per week': 7 });
  });
});

describe('ServiceClient error taxonomy', () => {
  it('401: a wrong password is Unauthorized, asked once', async () => {
    const client = clientFor(service.url, { getPassword: async () => 'wrong' });
    service.resetStats();
    expect(await errorOf(client.getUser())).toMatchObject({ kind: 'Unauthorized', status: 401 });
    expect(service.stats().requests).toBe(1);
  });

  it('no password available: NotSignedIn, and nothing is sent', async () => {
    service.resetStats();
    const client = clientFor(service.url, {
      getPassword: () => Promise.reject(new Error('keychain locked')),
    });
    expect((await errorOf(client.getUser())).kind).toBe('NotSignedIn');
    expect(service.stats().requests).toBe(0);
  });

  it.each(['json', 'html'] as const)('403 with a %s body is NotAllowListed', async (body) => {
    service.configure({ allow: ['10.0.0.0/8'], variants: { forbiddenBody: body } });
    const client = clientFor(service.url);
    expect(await errorOf(client.listCustomers())).toMatchObject({
      kind: 'NotAllowListed',
      status: 403,
    });
    expect(await errorOf(client.createCustomer(fields({ name: 'Nope' })))).toMatchObject({
      kind: 'NotAllowListed',
    });
    expect(customersNamed('Nope')).toHaveLength(0);
  });

  it('404 and 400 are Rejected with the status and the service message as detail', async () => {
    const client = clientFor(service.url);
    expect(await errorOf(client.getCustomer('doesNotExist1'))).toMatchObject({
      kind: 'Rejected',
      status: 404,
    });
    const badColor = await errorOf(
      client.createCustomer(fields({ name: 'C', color: 'chartreuse' })),
    );
    expect(badColor).toMatchObject({ kind: 'Rejected', status: 400 });
    expect(badColor.detail).toMatch(/color/i);
    const extra = { ...fields({ name: 'D' }), id: 'mine' } as CustomerFields;
    const unknown = await errorOf(client.createCustomer(extra));
    expect(unknown).toMatchObject({ kind: 'Rejected', status: 400 });
    expect(unknown.detail).toMatch(/\bid\b/);
  });

  it('5xx is ServerError; a GET is retried a bounded number of times, a POST never', async () => {
    service.configure({ faults: { errorRate: 1 } });
    const client = clientFor(service.url, { maxIdempotentRetries: 2 });
    service.resetStats();
    const read = await errorOf(client.getUser());
    expect(read.kind).toBe('ServerError');
    expect([500, 502]).toContain(read.status);
    expect(service.stats().requests).toBe(3);
    service.resetStats();
    expect((await errorOf(client.createCustomer(fields({ name: 'Five' })))).kind).toBe(
      'ServerError',
    );
    expect(service.stats().requests).toBe(1);
  });

  it.each([
    ['retry-after', 429],
    ['503', 503],
  ] as const)('pushed back (%s) beyond maxRetries is RateLimited', async (rateLimited, status) => {
    service.configure({ rate: 1, variants: { rateLimited } });
    try {
      const client = clientFor(service.url, { maxRetries: 0 });
      // At 1 request per second, of two at once at least the second is refused.
      const outcomes = await Promise.allSettled([client.getUser(), client.getUser()]);
      const reasons = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
      expect(reasons.length).toBeGreaterThan(0);
      for (const reason of reasons) {
        expect(reason.info).toMatchObject({ kind: 'RateLimited', status });
      }
    } finally {
      service.configure({ rate: 0, variants: { rateLimited: 'retry-after' } });
    }
  });

  it('a refused connection is Offline, for reads and writes', async () => {
    const port = await closedPort();
    const client = clientFor(`http://127.0.0.1:${port}`);
    expect(await errorOf(client.getUser())).toMatchObject({
      kind: 'Offline',
      detail: 'ECONNREFUSED',
    });
    expect((await errorOf(client.createCustomer(fields({ name: 'Off' }))))?.kind).toBe('Offline');
  });

  it('a POST reset after commit is Ambiguous and is NOT resent: exactly one new customer', async () => {
    const client = clientFor(service.url);
    service.configure({ faults: { resetAfterRate: 1 } });
    service.resetStats();
    const error = await errorOf(client.createCustomer(fields({ name: 'Exactly Once' })));
    expect(error.kind).toBe('Ambiguous');
    expect(service.stats().requests).toBe(1);
    expect(customersNamed('Exactly Once')).toHaveLength(1);
  });

  it('a POST reset before commit is also Ambiguous to the client (and nothing was created)', async () => {
    const client = clientFor(service.url);
    service.configure({ faults: { resetBeforeRate: 1 } });
    service.resetStats();
    expect((await errorOf(client.createCustomer(fields({ name: 'Never There' })))).kind).toBe(
      'Ambiguous',
    );
    expect(service.stats().requests).toBe(1);
    expect(customersNamed('Never There')).toHaveLength(0);
  });

  it('a GET reset is retried, then Ambiguous', async () => {
    const client = clientFor(service.url, { maxIdempotentRetries: 1 });
    service.configure({ faults: { resetAfterRate: 1 } });
    service.resetStats();
    expect((await errorOf(client.listRoutes())).kind).toBe('Ambiguous');
    expect(service.stats().requests).toBe(2);
  });

  it('no answer within the timeout after sending a write is Ambiguous', async () => {
    const client = clientFor(service.url, { timeoutMs: 150 });
    service.configure({ faults: { latencyMs: 600 } });
    service.resetStats();
    const error = await errorOf(client.updateCustomFields({ Slow: 1 }));
    expect(error.kind).toBe('Ambiguous');
    expect(service.stats().requests).toBe(1);
  });

  it('a request cancelled while waiting for the limiter is never sent', async () => {
    const client = clientFor(service.url, {
      limiter: new RateLimiter({ limit: 1, windowMs: 1000 }),
    });
    service.configure({ faults: { latencyMs: 200 } });
    service.resetStats();
    const first = client.getUser();
    const controller = new AbortController();
    const second = client.createCustomer(fields({ name: 'Cancelled' }), {
      signal: controller.signal,
    });
    controller.abort(new Error('rep closed the form'));
    await expect(second).rejects.toThrow('rep closed the form');
    await first;
    expect(service.stats().requests).toBe(1);
    expect(customersNamed('Cancelled')).toHaveLength(0);
  });

  it('refuses a user name Basic auth cannot carry', () => {
    for (const username of ['', 'a:b', 'a\nb']) {
      expect(() => clientFor(service.url, { username })).toThrow(/InvalidRequest/);
    }
  });

  it('never puts the password in an error or in the client object', async () => {
    const secret = 'Pa55-not-this-one';
    const client = clientFor(service.url, { getPassword: async () => secret });
    const error = await client.getUser().catch((e: unknown) => e);
    const texts = [JSON.stringify(error), String(error), (error as Error).stack ?? ''];
    texts.push(JSON.stringify(client), JSON.stringify(Object.entries(client)));
    for (const text of texts) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(Buffer.from(`${REP.username}:${secret}`).toString('base64'));
    }
  });
});

describe('ServiceClient tolerates every reading of the gaps', () => {
  const variants = [
    { timezoneType: 1 },
    { timezoneType: 2 },
    { timezoneType: 3 },
    { dealAmount: 'number' },
    { dealAmount: 'string' },
    { unmapped: 'null' },
    { unmapped: 'zero' },
  ] as const;

  it.each(variants)('validates every record under %o', async (variant) => {
    service.store.createCustomerDirect(REP.username, { name: 'Unmapped Co', dealAmount: 99.5 });
    service.configure({ variants: variant });
    try {
      const client = clientFor(service.url);
      const customers = await client.listCustomers();
      expect(customers).toEqual(service.store.customers(REP.username));
      const unmapped = customers.find((c) => c.name === 'Unmapped Co')!;
      expect(unmapped.latitude).toBe(
        'unmapped' in variant && variant.unmapped === 'zero' ? 0 : null,
      );
      if ('dealAmount' in variant) {
        expect(typeof unmapped.dealAmount).toBe(variant.dealAmount);
      }
      if ('timezoneType' in variant) {
        expect(customers[0]!.createdAt.timezone_type).toBe(variant.timezoneType);
        expect((await client.getUser()).createdAt.timezone_type).toBe(variant.timezoneType);
        expect((await client.listRoutes())[0]?.updatedAt.timezone_type).toBe(variant.timezoneType);
      }
    } finally {
      service.configure({ variants: { timezoneType: 3, dealAmount: 'number', unmapped: 'null' } });
    }
  });
});

describe('extractIdCandidates', () => {
  it('finds id-like tokens and skips the words of the message', () => {
    expect(extractIdCandidates('Customer object created with id Ab3dE5gH9k')).toEqual([
      'Ab3dE5gH9k',
    ]);
    expect(extractIdCandidates('Object created')).toEqual([]);
    expect(extractIdCandidates('Created record 5f2b9c0e-1d2a-4b3c-9d8e-7f6a5b4c3d2e.')).toEqual([
      '5f2b9c0e-1d2a-4b3c-9d8e-7f6a5b4c3d2e',
    ]);
    expect(extractIdCandidates('Successfully inserted: abcdefgh (id 12345678)')).toEqual([
      '12345678',
      'abcdefgh',
    ]);
  });

  it('offers a number of any length: an AUTO_INCREMENT id', () => {
    expect(extractIdCandidates('Customer created with id 42')).toEqual(['42']);
    expect(extractIdCandidates('Route created with id 7')).toEqual(['7']);
  });
});

/** A port nothing listens on: bind, note the port, close. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
