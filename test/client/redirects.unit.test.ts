// Redirects are refused: a 3xx from the service is a BadResponse, never followed. Service A is
// the reference service with its redirect fault on; the redirect points at server B, a tiny
// server of this test on another loopback host and port that records what reaches it and
// answers as a service would (so following the redirect would "succeed").
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../src-service/index';
import { emptyCustomerFields } from '../../src-shared/domain';
import { NETWORK_NAMES, openNetwork, type TestNetwork } from '../support/test-networks';
import { clientFor, errorOf, REP } from '../support/service';

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
}

let a: RunningService;
let b: Server;
let bUrl: string;
let seen: Seen[] = [];
let userMeta: unknown;

function record(req: IncomingMessage): Promise<Seen> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () =>
      resolve({
        method: req.method ?? '',
        url: req.url ?? '',
        authorization: req.headers.authorization,
        body: Buffer.concat(chunks).toString('utf8'),
      }),
    );
  });
}

beforeAll(async () => {
  a = await startService({
    rate: 0,
    accounts: [{ username: REP.username, password: REP.password, customers: 5, seed: 3 }],
  });
  const { customFields: _ignored, ...meta } = a.store.user(REP.username)!;
  userMeta = meta;
  b = createServer((req, res) => {
    void record(req).then((s) => {
      seen.push(s);
      const body = req.method === 'GET' ? userMeta : { message: 'Object created abc123XYZ' };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  // Another loopback host (127.0.0.2) and port than the service's 127.0.0.1.
  await new Promise<void>((resolve) => b.listen(0, '127.0.0.2', resolve));
  bUrl = `http://127.0.0.2:${(b.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await a.stop();
  b.closeAllConnections();
  await new Promise<void>((resolve) => b.close(() => resolve()));
});

beforeEach(() => {
  seen = [];
  a.configure({ faults: { redirectStatus: 0, redirectTo: '' } });
});

describe('the service client refuses redirects', () => {
  it('the reference service redirect fault answers the 3xx with a Location on B', async () => {
    a.configure({ faults: { redirectStatus: 302, redirectTo: bUrl } });
    const res = await fetch(`${a.url}/api/v1/user`, {
      headers: { authorization: `Basic ${btoa(`${REP.username}:${REP.password}`)}` },
      redirect: 'manual',
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${bUrl}/api/v1/user`);
  });
});

// Each guard, over each road main's requests can take (support/test-networks.ts).
describe.each(NETWORK_NAMES)('over %s, the service client refuses redirects', (name) => {
  let network: TestNetwork;
  let over: RunningService;
  let url: string;
  const client = () => clientFor(url, network.fetch ? { fetch: network.fetch } : {});
  const withStatus = (status: number) => (network.redirectStatus ? { status } : {});

  beforeAll(async () => {
    network = await openNetwork(name);
    ({ service: over, url } = await network.startService({
      rate: 0,
      accounts: [{ username: REP.username, password: REP.password, customers: 5, seed: 3 }],
    }));
  });

  afterAll(async () => {
    await over.stop();
    await network.close();
  });

  beforeEach(() => over.configure({ faults: { redirectStatus: 0, redirectTo: '' } }));

  for (const status of [301, 302, 303, 307, 308]) {
    it(`a ${status} on GET /user to another host is BadResponse: no login via B`, async () => {
      over.configure({ faults: { redirectStatus: status, redirectTo: bUrl } });
      const info = await errorOf(client().getUser());
      expect(info).toMatchObject({ kind: 'BadResponse', ...withStatus(status) });
      expect(seen).toEqual([]);
    });
  }

  it('a 307 on a write is BadResponse: the body is not re-sent anywhere', async () => {
    over.configure({ faults: { redirectStatus: 307, redirectTo: bUrl } });
    const before = over.store.customers(REP.username).length;
    const info = await errorOf(
      client().createCustomer({ ...emptyCustomerFields(), name: 'Secret lead' }),
    );
    expect(info).toMatchObject({ kind: 'BadResponse', ...withStatus(307) });
    expect(seen).toEqual([]);
    expect(over.store.customers(REP.username)).toHaveLength(before);
  });

  it('a 308 on an update is BadResponse and B never sees the rep credentials', async () => {
    const id = over.store.customers(REP.username)[0]!.id;
    over.configure({ faults: { redirectStatus: 308, redirectTo: bUrl } });
    const fields = { ...emptyCustomerFields(), name: 'Moved', notes: 'moved?' };
    const info = await errorOf(client().updateCustomer(id, fields));
    expect(info.kind).toBe('BadResponse');
    expect(seen).toEqual([]);
    expect(over.store.customer(REP.username, id)!.notes).not.toBe('moved?');
  });

  it('a redirect is not retried as a transient failure (one request reaches A)', async () => {
    over.configure({ faults: { redirectStatus: 302, redirectTo: bUrl } });
    over.resetStats();
    await errorOf(client().listCustomers());
    expect(over.stats().requests).toBe(1);
  });
});
