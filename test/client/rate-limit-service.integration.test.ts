// The limiter and the 429/503 handling in real time against the reference service at its real
// limit of 3 requests per second. No timing is asserted: the service's own count of 429s is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src-service/index';
import { RateLimiter } from '../../src-main/core/service/rate-limiter';
import { emptyCustomerFields } from '../../src-shared/domain';
import { mulberry32 } from '../support/prng';
import { clientFor, REP } from '../support/service';

let service: RunningService;

beforeAll(async () => {
  service = await startService({ rate: 3, accounts: [{ ...REP, customers: 10, seed: 5 }] });
});
afterAll(() => service.stop());

describe('rate limit against the service at 3 requests per second', () => {
  it('a limiter at the service limit gets no 429 while mixing priorities and methods', async () => {
    const client = clientFor(service.url, {
      limiter: new RateLimiter({ limit: 3, windowMs: 1000 }),
    });
    const ids = service.store.customers(REP.username).map((c) => c.id);
    service.resetStats();
    const calls = Array.from({ length: 12 }, (_, i) =>
      i % 3 === 0
        ? client.getUser({ priority: 'user' })
        : client.updateCustomer(
            ids[i % ids.length]!,
            { ...emptyCustomerFields(), name: `Renamed ${i}` },
            { priority: 'background' },
          ),
    );
    await Promise.all(calls);
    expect(service.stats()).toMatchObject({ requests: 12, rateLimited: 0 });
  });

  it('a user read overtakes queued background writes', async () => {
    const client = clientFor(service.url, {
      limiter: new RateLimiter({ limit: 3, windowMs: 1000 }),
    });
    const ids = service.store.customers(REP.username).map((c) => c.id);
    const done: string[] = [];
    const background = Array.from({ length: 9 }, (_, i) =>
      client
        .updateCustomer(
          ids[i]!,
          { ...emptyCustomerFields(), name: `Queued ${i}` },
          { priority: 'background' },
        )
        .then(() => done.push(`bg${i}`)),
    );
    const user = client.getUser({ priority: 'user' }).then(() => done.push('user'));
    await Promise.all([...background, user]);
    // With FIFO it would go 10th; first in its queue, it takes the first slot that frees, a
    // full window before background 5..8 can start.
    for (const later of ['bg5', 'bg6', 'bg7', 'bg8']) {
      expect(done.indexOf('user')).toBeLessThan(done.indexOf(later));
    }
  });

  it.each(['retry-after', 'no-retry-after', '503'] as const)(
    'a client limiter misconfigured to 10/s is pushed back (%s) and still delivers every request once',
    async (rateLimited) => {
      service.configure({ variants: { rateLimited } });
      const client = clientFor(service.url, {
        limiter: new RateLimiter({ limit: 10, windowMs: 1000, marginMs: 0 }),
        backoff: { baseMs: 250, capMs: 2_000, random: mulberry32(11) },
      });
      const tag = `Burst ${rateLimited}`;
      service.resetStats();
      const calls = Array.from({ length: 15 }, (_, i) =>
        i % 2 === 0
          ? client.createCustomer({ ...emptyCustomerFields(), name: `${tag} ${i}` })
          : client.listRoutes(),
      );
      const results = await Promise.all(calls);
      expect(results).toHaveLength(15);
      const stats = service.stats();
      expect(stats.rateLimited).toBeGreaterThan(0); // the service did push back
      expect(stats.requests - stats.rateLimited).toBe(15); // and each call got through once
      const created = service.store
        .customers(REP.username)
        .filter((c) => c.name.startsWith(tag))
        .map((c) => c.name)
        .sort();
      expect(created).toEqual(Array.from({ length: 8 }, (_, i) => `${tag} ${i * 2}`).sort());
      // Pushed back, the limiter paused everyone rather than letting the queue keep hammering.
      expect(client.limiter.pausedUntil).toBeGreaterThan(0);
    },
  );
});
