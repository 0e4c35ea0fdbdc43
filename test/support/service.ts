// Shared helpers of the reference-service contract suite: start a service, call it over real HTTP.
import { afterEach } from 'vitest';
import { startService, type RunningService, type ServiceOptions } from '../../src-service/index';

const running: RunningService[] = [];

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
  running.push(service);
  return service;
}

afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
});

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
