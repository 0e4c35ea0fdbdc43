// Main's transport guards hold over every road its requests can take (support/test-networks.ts:
// Node's fetch, an office proxy with the env-built fetch, Electron's net.fetch): a body over its
// cap is refused with or without a Content-Length, a body that stops coming is given up after
// the timeout, an unanswered write is Ambiguous and never sent twice, and a region download's
// source that redirects is refused, not followed.
// The servers stall for good (no timer decides the outcome), so only the client's timeout ends
// the wait. Under load a request may not even reach the server within that timeout, or reach it
// after its test: each test counts only its own path, and asserts "never twice", not "arrived".
import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RangeReader } from '../../src-main/core/basemap/region-source';
import { systemClock } from '../../src-main/core/ports';
import { emptyCustomerFields } from '../../src-shared/domain';
import { NETWORK_NAMES, openNetwork, type TestNetwork } from '../support/test-networks';
import { clientFor, errorOf } from '../support/service';

const routes = JSON.stringify(
  Array.from({ length: 400 }, (_, i) => ({ id: `R${i}`, name: `Route ${i}`, points: [] })),
);

describe.each(NETWORK_NAMES)('over %s', (name) => {
  let network: TestNetwork;
  let server: Server;
  let url: string;
  let hits: string[] = [];
  const asked = (what: string) => hits.filter((hit) => hit === what).length;
  let respond: (req: IncomingMessage, res: ServerResponse) => void = () => undefined;
  const client = (extra: Parameters<typeof clientFor>[1] = {}) =>
    clientFor(url, { ...(network.fetch ? { fetch: network.fetch } : {}), ...extra });

  beforeAll(async () => {
    network = await openNetwork(name);
    ({ server, url } = await network.serve((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      respond(req, res);
    }));
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await network.close();
  });

  beforeEach(() => {
    hits = [];
  });

  it('a body over the size cap is refused, with or without a Content-Length', async () => {
    const capped = client({ bodyLimits: { list: 16 * 1024 } });
    respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(routes);
    };
    expect(await errorOf(capped.listRoutes())).toMatchObject({
      kind: 'BadResponse',
      detail: 'response larger than 16 KiB',
    });
    respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
      res.write(routes.slice(0, 10_000));
      res.end(routes.slice(10_000));
    };
    expect(await errorOf(capped.listRoutes())).toMatchObject({
      kind: 'BadResponse',
      detail: 'response larger than 16 KiB',
    });
  });

  it('a body that stops coming is given up after the timeout: Ambiguous, never asked twice', async () => {
    respond = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[{"id": "R1", "na'); // and nothing more, ever
    };
    const info = await errorOf(client({ timeoutMs: 300, maxIdempotentRetries: 0 }).listRoutes());
    expect(info.kind).toBe('Ambiguous');
    expect(asked('GET /api/v1/routes')).toBeLessThanOrEqual(1);
  });

  it('a write without an answer is Ambiguous and never sent twice', async () => {
    respond = () => undefined; // the request arrived; no answer ever comes
    const info = await errorOf(
      client({ timeoutMs: 300 }).createCustomer({ ...emptyCustomerFields(), name: 'Once' }),
    );
    expect(info.kind).toBe('Ambiguous');
    expect(asked('POST /api/v1/customers')).toBeLessThanOrEqual(1);
  });

  it('a region source that redirects is refused, and the other host sees nothing', async () => {
    const elsewhere: string[] = [];
    const other = createServer((req, res) => {
      elsewhere.push(req.url ?? '');
      res.end('PMTiles');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.2', resolve));
    const location = `http://127.0.0.2:${(other.address() as AddressInfo).port}/moved.pmtiles`;
    respond = (_req, res) => {
      res.writeHead(302, { location });
      res.end();
    };
    try {
      // The test's servers are on loopback: as if the rep had typed and confirmed the source.
      const reader = new RangeReader(`${url}/region.pmtiles`, {
        clock: systemClock,
        confirmedLocal: true,
        ...(network.fetch ? { fetch: network.fetch } : {}),
      });
      await expect(reader.read(0, 127)).rejects.toMatchObject({
        code: 'http',
        message: 'The map source redirects elsewhere; give its final URL.',
      });
      expect(asked('GET /region.pmtiles')).toBe(1);
      expect(elsewhere).toEqual([]);
    } finally {
      other.closeAllConnections();
      await new Promise((resolve) => other.close(resolve));
    }
  });
});
