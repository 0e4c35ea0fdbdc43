// Measures the limiter against the reference service at 3 requests/s: `npx tsx
// test/client/limiter-throughput.ts [count]`. Prints requests/s and the service's 429 count.
// A measurement, not a test (speed belongs outside the test suite).
import { startService } from '../../src-service/index';
import { RateLimiter } from '../../src-main/core/service/rate-limiter';
import { emptyCustomerFields } from '../../src-shared/domain';
import { clientFor, REP } from '../support/service';

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 60);
  const service = await startService({ rate: 3, accounts: [{ ...REP, customers: 50, seed: 9 }] });
  try {
    const client = clientFor(service.url, { limiter: new RateLimiter() });
    const ids = service.store.customers(REP.username).map((c) => c.id);
    const started = performance.now();
    await Promise.all(
      Array.from({ length: count }, (_, i) =>
        client.updateCustomer(
          ids[i % ids.length]!,
          { ...emptyCustomerFields(), name: `Drain ${i}` },
          { priority: 'background' },
        ),
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    const stats = service.stats();
    console.log(
      JSON.stringify({
        requests: count,
        seconds: Number(seconds.toFixed(2)),
        // The first 3 go out at t=0, so n requests span (n/3 - 1) windows.
        requests_per_s: Number((count / seconds).toFixed(3)),
        steady_requests_per_s: Number(((count - 3) / seconds).toFixed(3)),
        server_requests: stats.requests,
        server_429s: stats.rateLimited,
      }),
    );
  } finally {
    await service.stop();
  }
}

void main();
