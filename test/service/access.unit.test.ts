// Access control: Basic auth (401), the IP allow-list (403, checked first), the rate limit.
// The rate limit runs on a FakeClock: its window moves only when the test moves it, so a slow
// machine cannot spread "concurrent" requests over two windows.
import { describe, expect, it } from 'vitest';
import { AllowList } from '../../src-service/allow-list';
import { SlidingWindowLimiter } from '../../src-service/rate-limit';
import type { ServiceOptions } from '../../src-service/index';
import { FakeClock } from '../support/clock';
import { basic, call, serve } from '../support/service';

/** A service whose rate limit sees only the time the test gives it. */
async function serveLimited(rate: number, options: ServiceOptions = {}) {
  const clock = new FakeClock();
  const service = await serve({ rate, clock, ...options });
  return { service, clock };
}

describe('reference service: authentication', () => {
  it('answers 401 with a JSON body and WWW-Authenticate for missing or wrong credentials', async () => {
    const s = await serve();
    const auths: (string | null)[] = [
      null,
      basic('demo', 'wrong'),
      basic('demo', ''),
      basic('nobody', 'demo'),
      basic('demo2', 'demo'),
      'Bearer abc',
      'Basic !!!notbase64',
      `Basic ${Buffer.from('demo').toString('base64')}`,
    ];
    for (const auth of auths) {
      const res = await call(s, 'GET', '/api/v1/customers', { auth });
      expect(res.status, String(auth)).toBe(401);
      expect(res.json).toMatchObject({ error: 'unauthorized' });
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    }
  });

  it('requires credentials on every endpoint, including writes, which change nothing', async () => {
    const s = await serve();
    const before = s.store.customers('demo');
    const id = before[0]!.id;
    const requests: [string, string, unknown][] = [
      ['GET', '/api/v1/customers', undefined],
      ['GET', `/api/v1/customers/${id}`, undefined],
      ['GET', '/api/v1/customers/search/a', undefined],
      ['POST', '/api/v1/customers', { name: 'x' }],
      ['PUT', `/api/v1/customers/${id}`, { name: 'x' }],
      ['DELETE', `/api/v1/customers/${id}`, undefined],
      ['GET', '/api/v1/routes', undefined],
      ['POST', '/api/v1/routes', { routeName: 'r', customerIds: [id] }],
      ['GET', '/api/v1/territories', undefined],
      ['GET', '/api/v1/user', undefined],
      ['PUT', '/api/v1/user/customfields', { a: 1 }],
    ];
    for (const [method, path, body] of requests) {
      const res = await call(s, method, path, { body, auth: basic('demo', 'nope') });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
    expect(s.store.customers('demo')).toEqual(before);
  });

  it('accepts a password containing a colon and UTF-8', async () => {
    const s = await serve({ accounts: [{ username: 'rep', password: 'p:ss wörd', customers: 2 }] });
    expect((await call(s, 'GET', '/api/v1/user', { auth: basic('rep', 'p:ss wörd') })).status).toBe(
      200,
    );
    expect((await call(s, 'GET', '/api/v1/user', { auth: basic('rep', 'p') })).status).toBe(401);
  });
});

describe('reference service: IP allow-list', () => {
  it('answers 403 (JSON) to a client off the list, before checking credentials', async () => {
    const s = await serve({ allow: ['10.0.0.0/8', '2001:db8::/32'] });
    const res = await call(s, 'GET', '/api/v1/customers');
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.json).toMatchObject({ error: 'forbidden' });
    const noAuth = await call(s, 'GET', '/api/v1/customers', { auth: null });
    expect(noAuth.status).toBe(403);
    const write = await call(s, 'POST', '/api/v1/customers', { body: { name: 'x' } });
    expect(write.status).toBe(403);
    expect(s.store.customers('demo')).toHaveLength(40);
    s.configure({ allow: ['127.0.0.1'] });
    expect((await call(s, 'GET', '/api/v1/user')).status).toBe(200);
  });

  it('answers 403 as an HTML page in the html variant', async () => {
    const s = await serve({ allow: ['192.168.1.0/24'], variants: { forbiddenBody: 'html' } });
    const res = await call(s, 'GET', '/api/v1/user');
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toMatch(/^<!DOCTYPE html>/);
    expect(res.json).toBeUndefined();
  });

  it('allows IPv6 loopback and IPv4-mapped loopback by default', async () => {
    const v6 = await serve({ host: '::1' });
    expect(v6.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
    expect((await call(v6, 'GET', '/api/v1/user')).status).toBe(200);
    const dual = await serve({ host: '::' });
    const mapped = await fetch(`http://127.0.0.1:${dual.port}/api/v1/user`, {
      headers: { Authorization: basic('demo', 'demo') },
    });
    expect(mapped.status).toBe(200);
  });

  it('matches addresses and CIDR ranges, IPv4-mapped as IPv4', () => {
    const list = new AllowList(['127.0.0.1', '10.1.0.0/16', 'fd00::/8']);
    expect(list.allows('127.0.0.1')).toBe(true);
    expect(list.allows('::ffff:127.0.0.1')).toBe(true);
    expect(list.allows('127.0.0.2')).toBe(false);
    expect(list.allows('10.1.200.3')).toBe(true);
    expect(list.allows('10.2.0.1')).toBe(false);
    expect(list.allows('fd12::1')).toBe(true);
    expect(list.allows('::1')).toBe(false);
    expect(list.allows(undefined)).toBe(false);
    expect(() => new AllowList(['not-an-ip'])).toThrow(/not an IP/);
    expect(() => new AllowList(['10.0.0.0/33'])).toThrow(/prefix/);
  });
});

describe('reference service: rate limit', () => {
  it('of 20 concurrent requests within one second, exactly 3 succeed; the rest get 429 + Retry-After', async () => {
    const { service: s } = await serveLimited(3);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => call(s, 'GET', '/api/v1/user')),
    );
    const ok = answers.filter((a) => a.status === 200);
    const limited = answers.filter((a) => a.status === 429);
    expect(ok).toHaveLength(3);
    expect(limited).toHaveLength(17);
    for (const a of limited) {
      expect(a.json).toMatchObject({ error: 'rate_limited' });
      const retryAfter = a.headers.get('retry-after');
      expect(retryAfter).toMatch(/^\d+$/);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    }
    expect(s.stats()).toEqual({ requests: 20, rateLimited: 17, passwordChecks: 20 });
    s.resetStats();
    expect(s.stats()).toEqual({ requests: 0, rateLimited: 0, passwordChecks: 0 });
  });

  it('limits each account on its own', async () => {
    const { service: s } = await serveLimited(3);
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, () => call(s, 'GET', '/api/v1/user')),
      ...Array.from({ length: 5 }, () =>
        call(s, 'GET', '/api/v1/user', { auth: basic('demo2', 'demo2') }),
      ),
    ]);
    const okBy = (name: string) =>
      answers.filter((a) => a.status === 200 && a.json.username === name);
    expect(okBy('demo')).toHaveLength(3);
    expect(okBy('demo2')).toHaveLength(3);
  });

  it('frees slots after one second; rejected requests take no slot', async () => {
    const { service: s, clock } = await serveLimited(3);
    const first = await Promise.all(
      Array.from({ length: 3 }, () => call(s, 'GET', '/api/v1/user')),
    );
    expect(first.map((a) => a.status)).toEqual([200, 200, 200]);
    // Rejected requests keep arriving; if they took slots the window would never free.
    for (let i = 0; i < 4; i++) {
      const refused = await call(s, 'GET', '/api/v1/user');
      expect(refused.status).toBe(429);
      // Whole seconds until the first slot frees (1000 ms after the first three).
      expect(refused.headers.get('retry-after')).toBe('1');
      await clock.advance(200);
    }
    // 999 ms after the first three: still full.
    await clock.advance(199);
    expect((await call(s, 'GET', '/api/v1/user')).status).toBe(429);
    // 1000 ms after them: their slots are free again, and only theirs.
    await clock.advance(1);
    const later = await Promise.all(
      Array.from({ length: 4 }, () => call(s, 'GET', '/api/v1/user')),
    );
    expect(later.map((a) => a.status).sort()).toEqual([200, 200, 200, 429]);
  });

  it('does not count requests refused by auth', async () => {
    const { service: s } = await serveLimited(3);
    for (let i = 0; i < 5; i++) {
      expect((await call(s, 'GET', '/api/v1/user', { auth: basic('demo', 'bad') })).status).toBe(
        401,
      );
    }
    const answers = await Promise.all(
      Array.from({ length: 3 }, () => call(s, 'GET', '/api/v1/user')),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
  });

  it('answers 429 without Retry-After, or 503, per variant; rate 0 disables the limit', async () => {
    const { service: s } = await serveLimited(1, { variants: { rateLimited: 'no-retry-after' } });
    const a = await Promise.all([call(s, 'GET', '/api/v1/user'), call(s, 'GET', '/api/v1/user')]);
    const limited = a.find((x) => x.status !== 200)!;
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeNull();
    s.configure({ variants: { rateLimited: '503' } });
    const b = await call(s, 'GET', '/api/v1/user');
    expect(b.status).toBe(503);
    expect(b.json).toMatchObject({ error: 'service_unavailable' });
    s.configure({ rate: 0 });
    const c = await Promise.all(Array.from({ length: 10 }, () => call(s, 'GET', '/api/v1/user')));
    expect(c.every((x) => x.status === 200)).toBe(true);
  });

  it('computes Retry-After as the time until the oldest request leaves the window', () => {
    let now = 10_000;
    const limiter = new SlidingWindowLimiter(3, () => now);
    expect(limiter.admit('a')).toEqual({ ok: true });
    now += 100;
    limiter.admit('a');
    now += 100;
    limiter.admit('a');
    now = 10_700;
    expect(limiter.admit('a')).toEqual({ ok: false, retryAfterMs: 300 });
    expect(limiter.admit('b')).toEqual({ ok: true });
    now = 11_000;
    expect(limiter.admit('a')).toEqual({ ok: true });
    expect(limiter.admit('a')).toEqual({ ok: false, retryAfterMs: 100 });
  });
});
