// Pure rules: the https-only base URL check, Retry-After parsing, backoff, transport mapping.
import { describe, expect, it } from 'vitest';
import { isLoopbackHost, validateBaseUrl } from '../../src-main/core/service/base-url';
import {
  httpStatusError,
  isServiceError,
  ServiceError,
  transportError,
} from '../../src-main/core/service/errors';
import { backoffDelay, parseRetryAfter } from '../../src-main/core/service/retry';
import { errorInfo } from '../../src-shared/errors';

describe('validateBaseUrl', () => {
  it.each([
    ['https://crm.example.com', 'https://crm.example.com'],
    ['  https://crm.example.com/  ', 'https://crm.example.com'],
    ['https://crm.example.com/mmc/', 'https://crm.example.com/mmc'],
    ['https://crm.example.com/api/v1/', 'https://crm.example.com'],
    ['HTTPS://CRM.Example.com:8443', 'https://crm.example.com:8443'],
    ['http://localhost:3000', 'http://localhost:3000'],
    ['http://127.0.0.1:41234', 'http://127.0.0.1:41234'],
    ['http://127.8.9.10', 'http://127.8.9.10'],
    ['http://[::1]:8080/', 'http://[::1]:8080'],
  ])('accepts %s as %s', (input, expected) => {
    expect(validateBaseUrl(input)).toEqual({ ok: true, baseUrl: expected });
  });

  it.each([
    ['http://crm.example.com', /https/],
    ['http://10.0.0.5', /only allowed for this computer/],
    ['http://128.0.0.1', /https/],
    ['http://localhost.evil.com', /https/],
    ['ftp://crm.example.com', /https/],
    ['https://rep:secret@crm.example.com', /user name and password/],
    ['https://crm.example.com/?x=1', /"\?" or "#"/],
    ['https://crm.example.com/#top', /"\?" or "#"/],
    ['crm.example.com', /not a web address/],
    ['', /Enter the address/],
  ])('refuses %s with a message a rep understands', (input, message) => {
    const result = validateBaseUrl(input);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.kind).toBe('InvalidRequest');
    expect(result.error.message).toMatch(message);
    expect(JSON.stringify(result)).not.toContain('secret');
  });

  it('knows the loopback hosts', () => {
    for (const host of ['localhost', '127.0.0.1', '127.255.0.9', '[::1]', '::ffff:7f00:1']) {
      expect(isLoopbackHost(host)).toBe(true);
    }
    for (const host of ['10.0.0.1', '::2', 'localhost.example', '1270.0.0.1']) {
      expect(isLoopbackHost(host)).toBe(false);
    }
  });
});

describe('Retry-After and backoff', () => {
  const now = Date.parse('2025-03-01T10:00:00Z');

  it('reads seconds and HTTP dates, and ignores junk', () => {
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter('0.5', now)).toBe(500);
    expect(parseRetryAfter('Sat, 01 Mar 2025 10:00:03 GMT', now)).toBe(3000);
    expect(parseRetryAfter('Sat, 01 Mar 2025 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('99999', now)).toBe(120_000);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });

  it('uses full jitter under an exponential, capped ceiling', () => {
    const policy = (r: number) => ({ baseMs: 100, capMs: 1000, random: () => r });
    expect(backoffDelay(0, policy(0.999))).toBe(99);
    expect(backoffDelay(3, policy(0.5))).toBe(400);
    expect(backoffDelay(20, policy(0.999))).toBe(999);
    expect(backoffDelay(5, policy(0))).toBe(0);
  });
});

describe('error mapping', () => {
  const fetchFailure = (code: string) =>
    Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error(code), { code }),
    });

  it('maps transport failures: nothing sent is Offline, anything else Ambiguous', () => {
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT']) {
      expect(transportError(fetchFailure(code)).info.kind).toBe('Offline');
    }
    for (const code of ['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE', 'UND_ERR_HEADERS_TIMEOUT']) {
      expect(transportError(fetchFailure(code)).info.kind).toBe('Ambiguous');
    }
    expect(transportError(new Error('mystery')).info.kind).toBe('Ambiguous');
    expect(transportError(fetchFailure('DEPTH_ZERO_SELF_SIGNED_CERT')).info).toMatchObject({
      kind: 'Offline',
      detail: expect.stringMatching(/certificate/),
    });
  });

  it('maps statuses to kinds, keeping status and the service text', () => {
    const cases: Array<[number, string]> = [
      [401, 'Unauthorized'],
      [403, 'NotAllowListed'],
      [429, 'RateLimited'],
      [503, 'RateLimited'],
      [500, 'ServerError'],
      [502, 'ServerError'],
      [400, 'Rejected'],
      [404, 'Rejected'],
      [409, 'Rejected'],
    ];
    for (const [status, kind] of cases) {
      expect(httpStatusError(status, 'why').info).toMatchObject({ kind, status, detail: 'why' });
    }
  });

  it('isServiceError narrows by kind', () => {
    const e = new ServiceError(errorInfo('Offline'));
    expect(isServiceError(e)).toBe(true);
    expect(isServiceError(e, 'Offline')).toBe(true);
    expect(isServiceError(e, 'Ambiguous')).toBe(false);
    expect(isServiceError(new Error('x'))).toBe(false);
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('ServiceError');
  });
});
