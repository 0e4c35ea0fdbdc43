// The reference service plays a PHP application's habits on the wire, byte for byte: what the
// client tests (test/client/php-habits.unit.test.ts) read is what these show the service sends.
import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../src-service/cli-args';
import { PHP_FATAL_HTML, PHP_WARNING } from '../../src-service/php-habits';
import { basic, call, serve } from '../support/service';

async function raw(url: string, path: string, init: RequestInit = {}) {
  const res = await fetch(url + path, {
    ...init,
    headers: { Authorization: basic('demo', 'demo'), ...(init.headers ?? {}) },
  });
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
}

describe('reference service: PHP habits', () => {
  it('labels, prefixes and styles the bytes of every JSON body', async () => {
    const s = await serve({
      variants: { contentType: 'php-default', bodyPrefix: 'bom', jsonStyle: 'php-pretty' },
    });
    s.store.createCustomerDirect('demo', { name: 'Zoë / 1' });
    const { res, bytes } = await raw(s.url, '/api/v1/customers');
    expect(res.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = Buffer.from(bytes).toString('utf8');
    expect(text).toContain('"name": "Zo\\u00eb \\/ 1"');
    expect(text).toMatch(/^\ufeff\[\n {4}\{\n {8}"id"/);
    s.configure({ variants: { bodyPrefix: 'php-warning' } });
    expect((await call(s, 'GET', '/api/v1/user')).text.startsWith(PHP_WARNING)).toBe(true);
  });

  it('sends ISO-8859-1 bytes, labelled so or mislabelled, and chunked bodies', async () => {
    const s = await serve({ variants: { charset: 'latin1', transfer: 'chunked' } });
    const c = s.store.createCustomerDirect('demo', { name: 'Café' });
    const { res, bytes } = await raw(s.url, `/api/v1/customers/${c.id}`);
    expect(res.headers.get('content-type')).toBe('application/json; charset=ISO-8859-1');
    expect(res.headers.get('content-length')).toBeNull();
    expect(Buffer.from(bytes).toString('latin1')).toContain('"name":"Café"');
    expect(bytes.includes(0xe9)).toBe(true);
    s.configure({ variants: { charset: 'latin1-labelled-utf-8' } });
    const mislabelled = await raw(s.url, `/api/v1/customers/${c.id}`);
    expect(mislabelled.res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(mislabelled.bytes.includes(0xe9)).toBe(true);
  });

  it("gives values PHP's shapes: arrays as keyed objects, numbers as strings, null text, numeric ids", async () => {
    const s = await serve({
      variants: { arrays: 'php-objects', emptyText: 'null', ids: 'numeric' },
    });
    const created = await call(s, 'POST', '/api/v1/customers', {
      body: { name: 'N', groups: ['a', 'b'], numVisits: 3 },
    });
    expect(created.status).toBe(201);
    expect(created.json.message).toBe('Customer object created with id 41');
    let got = (await call(s, 'GET', '/api/v1/customers/41')).json;
    expect(got).toMatchObject({ id: 41, groups: { 0: 'a', 2: 'b' }, numVisits: 3, company: null });
    s.configure({ variants: { numbers: 'strings' } });
    got = (await call(s, 'GET', '/api/v1/customers/41')).json;
    expect(got).toMatchObject({ id: '41', numVisits: '3', createdAt: { timezone_type: '3' } });
    const list = (await call(s, 'GET', '/api/v1/customers')).json;
    expect(Array.isArray(list)).toBe(false);
    expect(Object.keys(list).slice(0, 3)).toEqual(['0', '2', '4']);
  });

  it('answers create messages in each wording', async () => {
    const s = await serve({ variants: { createMessage: 'short-with-id' } });
    const short = await call(s, 'POST', '/api/v1/customers', { body: { name: 'S' } });
    const id = s.store.customers('demo').find((c) => c.name === 'S')!.id;
    expect(short.json).toEqual({ message: `Customer created with id ${id}` });
    s.configure({ variants: { createMessage: 'id-field' } });
    const field = await call(s, 'POST', '/api/v1/customers', { body: { name: 'F' } });
    const fid = s.store.customers('demo').find((c) => c.name === 'F')!.id;
    expect(field.json).toEqual({ message: 'Object created', id: fid });
  });

  it('answers writes 204 with no body, and refusals 200 with the error body', async () => {
    const s = await serve({ variants: { writeStatus: 'no-content' } });
    const put = await call(s, 'PUT', '/api/v1/user/customfields', { body: { a: 1 } });
    expect(put).toMatchObject({ status: 204, text: '' });
    s.configure({ variants: { writeStatus: 'spec', errors: '200' } });
    const refused = await call(s, 'PUT', '/api/v1/customers/nope', { body: { name: 'x' } });
    expect(refused.status).toBe(200);
    expect(refused.json).toEqual({ error: 'not_found', message: 'No customer with id nope.' });
    expect(s.store.customFields('demo')).toMatchObject({ a: 1 });
  });

  it.each([
    ['null', 'null'],
    ['false', 'false'],
    ['empty-array', '[]'],
    ['empty-body', ''],
  ] as const)('answers a missing customer 200 with %s', async (missingCustomer, text) => {
    const s = await serve({ variants: { missingCustomer } });
    const got = await call(s, 'GET', '/api/v1/customers/nope');
    expect(got).toMatchObject({ status: 200, text });
  });

  it.each([
    ['array', 200, '[]'],
    ['object', 200, '{}'],
    ['null', 200, 'null'],
    ['false', 200, 'false'],
    ['404', 404, '{"error":"not_found","message":"No customers found."}'],
  ] as const)('answers a search without hits as %s', async (noHits, status, text) => {
    const s = await serve({ variants: { noHits } });
    expect(await call(s, 'GET', '/api/v1/customers/search/zzzz-none')).toMatchObject({
      status,
      text,
    });
  });

  it("answers a fault with PHP's fatal error page, and Retry-After as an HTTP date", async () => {
    const s = await serve({ variants: { serverError: 'php-html' }, faults: { errorRate: 1 } });
    const failed = await call(s, 'GET', '/api/v1/user');
    expect([500, 502]).toContain(failed.status);
    expect(failed.text).toBe(PHP_FATAL_HTML);
    expect(failed.headers.get('content-type')).toBe('text/html; charset=UTF-8');
    s.configure({
      faults: { errorRate: 0 },
      rate: 1,
      variants: { rateLimited: 'retry-after-date' },
    });
    const answers = await Promise.all([
      call(s, 'GET', '/api/v1/user'),
      call(s, 'GET', '/api/v1/user'),
    ]);
    const pushed = answers.find((a) => a.status === 429)!;
    const when = Date.parse(pushed.headers.get('retry-after')!);
    expect(pushed.headers.get('retry-after')).toMatch(/GMT$/);
    // Later than the answer's own Date (both whole seconds).
    expect(when).toBeGreaterThan(Date.parse(pushed.headers.get('date')!));
  });

  it('takes the habits from the command line, checked like every variant', () => {
    expect(parseCliArgs(['--php', 'contentType=php-default,numbers=strings']).variants).toEqual({
      contentType: 'php-default',
      numbers: 'strings',
    });
    expect(() => parseCliArgs(['--php', 'numbers=words'])).toThrow(/numbers must be one of/);
    expect(() => parseCliArgs(['--php', 'nonsense'])).toThrow(/name=value/);
  });
});
