// The reference service's own limits, over real HTTP: an oversize body is answered 413 as soon
// as it is known to be too big (not after reading it all), failed sign-ins are throttled per IP
// before any password hashing, and password checks run on async scrypt.
import { request, type IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../src-service/server';
import { hashPassword, verifyPassword } from '../../src-service/password';
import { FakeClock } from '../support/clock';
import { basic, call, serve } from '../support/service';

/** Starts a POST whose body is never finished; resolves with the response, if one comes. */
function openPost(
  url: string,
  headers: Record<string, string | number>,
  chunks: Buffer[],
): Promise<{ response: IncomingMessage; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/v1/customers`, {
      method: 'POST',
      headers: {
        authorization: basic('demo', 'demo'),
        'content-type': 'application/json',
        ...headers,
      },
    });
    req.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (c: string) => (body += c));
      response.on('end', () => {
        req.destroy();
        resolve({ response, body });
      });
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    // Never req.end(): the rest of the body "is still on its way".
  });
}

describe('oversize bodies are refused at once', () => {
  it('a Content-Length over the limit gets 413 before the body arrives', async () => {
    const s = await serve();
    const before = s.store.customers('demo').length;
    const { response, body } = await openPost(s.url, { 'content-length': MAX_BODY_BYTES * 5 }, [
      Buffer.from('{"name":"'),
    ]);
    expect(response.statusCode).toBe(413);
    expect(JSON.parse(body)).toMatchObject({ error: 'payload_too_large' });
    expect(s.store.customers('demo')).toHaveLength(before);
  });

  it('a chunked body is refused as soon as it passes the limit', async () => {
    const s = await serve();
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const chunks = Array.from(
      { length: Math.ceil(MAX_BODY_BYTES / chunk.length) + 1 },
      () => chunk,
    );
    const { response } = await openPost(s.url, { 'transfer-encoding': 'chunked' }, chunks);
    expect(response.statusCode).toBe(413);
  });

  it('a body within the limit is still read whole', async () => {
    const s = await serve();
    const res = await call(s, 'POST', '/api/v1/customers', { body: { name: 'Fits' } });
    expect(res.status).toBeLessThan(300);
  });
});

describe('failed sign-ins are throttled per IP, before hashing', () => {
  const wrong = basic('demo', 'not-the-password');

  /** GET /user from a given loopback source address. */
  function userFrom(url: string, localAddress: string, authorization: string) {
    return new Promise<{ status: number; retryAfter: string | undefined }>((resolve, reject) => {
      const req = request(`${url}/api/v1/user`, { localAddress, headers: { authorization } });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] }),
        );
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('after 20 failures in a minute, that IP gets 429 without a password check', async () => {
    const clock = new FakeClock();
    const s = await serve({ clock });
    for (let i = 0; i < 20; i++) {
      expect((await userFrom(s.url, '127.0.0.1', wrong)).status).toBe(401);
    }
    const checks = s.stats().passwordChecks;
    expect(checks).toBe(20);
    // Throttled: even the right password is not checked (no scrypt run) until the window passes.
    const throttled = await userFrom(s.url, '127.0.0.1', basic('demo', 'demo'));
    expect(throttled.status).toBe(429);
    expect(Number(throttled.retryAfter)).toBeGreaterThan(0);
    expect((await userFrom(s.url, '127.0.0.1', wrong)).status).toBe(429);
    expect(s.stats().passwordChecks).toBe(checks);
    // Another IP is not affected.
    expect((await userFrom(s.url, '127.0.0.2', basic('demo', 'demo'))).status).toBe(200);
    clock.advance(60_001);
    expect((await userFrom(s.url, '127.0.0.1', basic('demo', 'demo'))).status).toBe(200);
  });

  it('successful sign-ins do not count', async () => {
    const s = await serve({ clock: new FakeClock() });
    for (let i = 0; i < 30; i++) {
      expect((await userFrom(s.url, '127.0.0.1', basic('demo', 'demo'))).status).toBe(200);
    }
    expect((await userFrom(s.url, '127.0.0.1', wrong)).status).toBe(401);
  });
});

describe('password hashing', () => {
  it('checks passwords with async scrypt (a promise, the event loop free meanwhile)', async () => {
    const stored = hashPassword('s3cret');
    const pending = verifyPassword('s3cret', stored);
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toBe(true);
    expect(await verifyPassword('wrong', stored)).toBe(false);
    expect(await verifyPassword('s3cret', 'not-a-hash')).toBe(false);
  });
});
