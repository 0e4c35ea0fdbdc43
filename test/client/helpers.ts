// Shared set-up of the client suites: a reference service on loopback and a client for it.
import { ServiceClient, type ServiceClientOptions } from '../../src-main/core/service/client';
import { RateLimiter } from '../../src-main/core/service/rate-limiter';
import { isServiceError } from '../../src-main/core/service/errors';
import type { ErrorInfo } from '../../src-shared/errors';
import { mulberry32 } from '../support/prng';
import { testBoundMs } from '../support/until';

export const REP = { username: 'rep', password: 'correct horse battery staple' } as const;

/** A client with a generous limiter (the service runs with its limit off unless a test says). */
export function clientFor(
  url: string,
  overrides: Partial<ServiceClientOptions> = {},
): ServiceClient {
  return new ServiceClient({
    baseUrl: url,
    username: REP.username,
    getPassword: async () => REP.password,
    limiter: new RateLimiter({ limit: 1000, windowMs: 1000, marginMs: 0 }),
    timeoutMs: testBoundMs(),
    backoff: { baseMs: 20, capMs: 200, random: mulberry32(7) },
    ...overrides,
  });
}

/** The ErrorInfo of the ServiceError a promise rejects with (fails the test otherwise). */
export async function errorOf(promise: Promise<unknown>): Promise<ErrorInfo> {
  try {
    await promise;
  } catch (e) {
    if (isServiceError(e)) return e.info;
    throw new Error(`expected a ServiceError, got ${String(e)}`, { cause: e });
  }
  throw new Error('expected the call to fail');
}
