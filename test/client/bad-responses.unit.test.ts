// Bodies the reference service never sends, from a tiny HTTP server of this test on loopback:
// each must become a BadResponse naming the field, never a half-read result.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService } from '../../src-service/index';
import { clientFor, errorOf } from '../support/service';

type Responder = (req: IncomingMessage, res: ServerResponse) => void;
let respond: Responder = (_req, res) => res.end();
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => respond(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const ts = { date: '2024-01-02 03:04:05', timezone_type: 3, timezone: 'UTC' };
const customer = (changes: Record<string, unknown> = {}) => ({
  id: 'Abc123defG',
  name: 'Ada',
  company: '',
  address: '',
  city: '',
  state: '',
  zip: '',
  country: '',
  email: '',
  phone: '',
  color: 'blue',
  groups: [],
  dealAmount: null,
  notes: '',
  latitude: 51.5,
  longitude: -0.1,
  lastVisit: 0,
  numVisits: 0,
  remindAt: 0,
  remindType: '',
  ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`custom${i}`, ''])),
  createdAt: ts,
  updatedAt: ts,
  ...changes,
});

function json(body: unknown, status = 200): Responder {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
}

/** Sends `chunks` without a Content-Length (chunked), as a streaming server would. */
function chunked(chunks: string[]): Responder {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    for (const chunk of chunks) res.write(chunk);
    res.end();
  };
}

describe('bad responses become BadResponse naming the field', () => {
  it('a wrong type inside a list names its index and field', async () => {
    respond = json([customer(), customer({ dealAmount: true })]);
    expect(await errorOf(clientFor(url).listCustomers())).toMatchObject({
      kind: 'BadResponse',
      field: '[1].dealAmount',
    });
  });

  it('a list read in slices names a bad field by its place in the whole list', async () => {
    // LIST_SLICE is 2,000: 9,001 customers are five slices, the bad one in the fourth.
    const list = Array.from({ length: 9_001 }, (_, i) => customer({ id: `id${i}`, name: `C${i}` }));
    respond = json(list);
    const got = await clientFor(url).listCustomers();
    expect(got.map((c) => c.name)).toEqual(list.map((c) => c.name));
    list[7_321] = customer({ id: 'bad', dealAmount: true });
    respond = json(list);
    expect(await errorOf(clientFor(url).listCustomers())).toMatchObject({
      kind: 'BadResponse',
      field: '[7321].dealAmount',
    });
  });

  it('a wrong type in a nested timestamp names the nested path', async () => {
    respond = json([customer({ createdAt: { ...ts, timezone_type: 7 } })]);
    expect(await errorOf(clientFor(url).listCustomers())).toMatchObject({
      field: '[0].createdAt.timezone_type',
    });
  });

  it('a timestamp date in another format names its path; an unknown zone is accepted as sent', async () => {
    respond = json([customer({ updatedAt: { ...ts, date: '23/11/2026 02:47' } })]);
    expect(await errorOf(clientFor(url).listCustomers())).toMatchObject({
      kind: 'BadResponse',
      field: '[0].updatedAt.date',
    });
    const odd = { date: '2026-11-23 02:47:23.000000', timezone_type: 3, timezone: 'Mars/Olympus' };
    respond = json([customer({ createdAt: odd })]);
    const [got] = await clientFor(url).listCustomers();
    expect(got!.createdAt).toEqual(odd);
  });

  it('a missing field names it', async () => {
    const { name: _name, ...nameless } = customer();
    respond = json(nameless);
    expect(await errorOf(clientFor(url).getCustomer('Abc123defG'))).toMatchObject({
      kind: 'BadResponse',
      field: 'name',
    });
  });

  it('a number field holding a string that is no number names it', async () => {
    // "12" would be read as 12 (PDO's form: php-shapes.ts); "twelve" is no number.
    respond = json({ username: 'u', name: '', phone: '', numPins: 'twelve' });
    expect(await errorOf(clientFor(url).getUser())).toMatchObject({ field: 'numPins' });
  });

  it('a write answer whose message is no string names "message"; one without a message is done', async () => {
    respond = json({ message: { text: 'Object created' } }, 201);
    const error = await errorOf(clientFor(url).createRoute({ routeName: 'r', customerIds: ['a'] }));
    expect(error).toMatchObject({ kind: 'BadResponse', field: 'message' });
    // The status says it was done (docs/service-readings.md): no message is an empty one.
    respond = json({ msg: 'Object created' }, 201);
    const done = await clientFor(url).createRoute({ routeName: 'r', customerIds: ['a'] });
    expect(done).toMatchObject({ message: '', msg: 'Object created' });
  });

  it('other forms a PHP answer takes: 3.0, a bare message, {"success": false}, false', async () => {
    // json_encode of a float that holds an int: JSON's 3.
    respond = json(`[${JSON.stringify(customer()).replace('"numVisits":0', '"numVisits":3.0')}]`);
    expect((await clientFor(url).listCustomers())[0]!.numVisits).toBe(3);
    respond = json('"Object created"', 201);
    const client = clientFor(url);
    expect(await client.createRoute({ routeName: 'r', customerIds: ['a'] })).toEqual({
      message: 'Object created',
    });
    respond = json({ success: false, message: 'Could not save' });
    expect(await errorOf(client.deleteCustomer('Abc123defG'))).toMatchObject({
      kind: 'Rejected',
      status: 200,
      detail: 'the service answered 200 with an error: Could not save',
    });
    respond = json('false');
    expect(await errorOf(client.createCustomer(customer() as never))).toMatchObject({
      kind: 'Ambiguous',
      detail: 'the service answered 200 with an error: false',
    });
    expect(await errorOf(client.listRoutes())).toMatchObject({ kind: 'BadResponse' });
  });

  it('a list that is not an array is refused at the root', async () => {
    respond = json({ customers: [] });
    expect(await errorOf(clientFor(url).listCustomers())).toMatchObject({ field: '(body)' });
  });

  it('an HTML page with status 200 is BadResponse, not data', async () => {
    respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!DOCTYPE html><html><body>Sign in to the captive portal</body></html>');
    };
    const error = await errorOf(clientFor(url).listTerritories());
    expect(error.kind).toBe('BadResponse');
    expect(error.detail).toMatch(/HTML/);
  });

  it('truncated JSON, plain text and an empty body are BadResponse', async () => {
    const full = JSON.stringify([customer(), customer()]);
    for (const body of [full.slice(0, full.length - 40), 'OK', '']) {
      respond = json(body);
      const error = await errorOf(clientFor(url).listCustomers());
      expect(error.kind).toBe('BadResponse');
      expect(error.detail).toMatch(/JSON|empty/);
    }
  });

  it('a 10 MB string field is refused by name, in a list and in one record', async () => {
    const huge = 'x'.repeat(10 * 1024 * 1024);
    respond = json([customer(), customer({ notes: huge })]);
    expect(await errorOf(clientFor(url).listCustomers())).toMatchObject({
      kind: 'BadResponse',
      field: '[1].notes',
    });
    respond = json(customer({ company: huge }));
    expect(await errorOf(clientFor(url).getCustomer('Abc123defG'))).toMatchObject({
      field: 'company',
    });
  });

  it('a body over the size cap is refused, with or without a Content-Length', async () => {
    const client = clientFor(url, { bodyLimits: { list: 64 * 1024, message: 1024 } });
    const big = JSON.stringify(Array.from({ length: 200 }, () => customer()));
    respond = json(big);
    expect((await errorOf(client.listRoutes())).detail).toMatch(/larger than 64 KiB/);
    respond = chunked([big.slice(0, 40_000), big.slice(40_000)]);
    expect((await errorOf(client.listRoutes())).detail).toMatch(/larger than 64 KiB/);
    respond = json({ message: 'm'.repeat(5000) }, 201);
    expect((await errorOf(client.createCustomer(customer() as never))).kind).toBe('BadResponse');
  });

  it('a write answered with headers, then cut off, is Ambiguous with the status it got', async () => {
    respond = (_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.write('{"message": "Customer object cr');
      setTimeout(() => res.socket?.destroy(), 20);
    };
    expect(await errorOf(clientFor(url).deleteCustomer('Abc123defG'))).toMatchObject({
      kind: 'Ambiguous',
      status: 201,
    });
  });

  it('a valid body is accepted and unknown extra fields are kept', async () => {
    respond = json([customer({ source: 'import' })]);
    const [one] = await clientFor(url).listCustomers();
    expect(one).toMatchObject({ id: 'Abc123defG', source: 'import' });
    // A record's own `error` field does not make it an error body.
    respond = json(customer({ error: 'geocoding failed' }));
    expect(await clientFor(url).getCustomer('Abc123defG')).toMatchObject({
      error: 'geocoding failed',
    });
  });
});

describe('certificates are never ignored', () => {
  it('a self-signed certificate is refused: Offline, naming the certificate', async () => {
    const service = await startService({ tls: true, rate: 0 });
    try {
      const error = await errorOf(clientFor(service.url).getUser());
      expect(error.kind).toBe('Offline');
      expect(error.detail).toMatch(/certificate/);
      expect(service.stats().requests).toBe(0);
    } finally {
      await service.stop();
    }
  });
});
