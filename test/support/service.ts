// The reference service, as tests drive it: start one on loopback (stopped when the test ends),
// call it over real HTTP (serve, call, basic), and a real ServiceClient for it (clientFor, REP).
import { onTestFinished } from 'vitest';
import { startService, type RunningService, type ServiceOptions } from '../../src-service/index';
import { ServiceClient, type ServiceClientOptions } from '../../src-main/core/service/client';
import { RateLimiter } from '../../src-main/core/service/rate-limiter';
import { isServiceError } from '../../src-main/core/service/errors';
import type { ErrorInfo } from '../../src-shared/errors';
import { mulberry32 } from './prng';
import { testBoundMs } from './until';

/** Starts a service that is stopped after the current test. Small accounts, no rate limit. */
export async function serve(options: ServiceOptions = {}): Promise<RunningService> {
  const service = await startService({
    rate: 0,
    accounts: [
      { username: 'demo', password: 'demo', customers: 40, seed: 11 },
      { username: 'demo2', password: 'demo2', customers: 40, seed: 12 },
    ],
    ...options,
  });
  // Registered here rather than at the module's top, so that scripts outside vitest (the
  // limiter's throughput measure) can use this file's other helpers.
  onTestFinished(() => service.stop());
  return service;
}

export function basic(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body (undefined when not JSON). */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test convenience over varied bodies
}

/** One request as `user` (default demo:demo); body objects are sent as JSON. */
export async function call(
  service: RunningService,
  method: string,
  path: string,
  opts: { body?: unknown; raw?: string; contentType?: string; auth?: string | null } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  const auth = opts.auth === undefined ? basic('demo', 'demo') : opts.auth;
  if (auth !== null) headers.Authorization = auth;
  let body: string | undefined;
  if (opts.raw !== undefined || opts.body !== undefined) {
    body = opts.raw ?? JSON.stringify(opts.body);
    headers['Content-Type'] = opts.contentType ?? 'application/json';
  }
  const res = await fetch(service.url + path, { method, headers, body });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** The id in a "with-id" create message. */
export function idFromMessage(message: string): string {
  const m = /with id ([A-Za-z0-9]{10})$/.exec(message);
  if (!m) throw new Error(`no id in "${message}"`);
  return m[1] as string;
}

// Shared set-up of the client suites: a reference service on loopback and a client for it.
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
