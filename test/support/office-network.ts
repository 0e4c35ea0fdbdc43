// An office network on loopback: a CONNECT proxy (the only road to the service, which sits
// behind a name nothing resolves), and a test CA that signs the service's certificate, so
// main's trust store knows it only when told to (FIELDMAP_EXTRA_CA_CERTS).
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { generate } from 'selfsigned';

/** The service's name: `.test` never resolves, so only the proxy can reach it. */
export const SERVICE_HOST = 'service.fieldmap.test';
export const CA_NAME = 'Fieldmap Test Office CA';

export interface TestCa {
  /** The CA's certificate, written to `caFile` too. */
  caCert: string;
  caFile: string;
  /** The service's certificate for SERVICE_HOST, signed by the CA, and its key. */
  tls: { cert: string; key: string };
}

/** A CA and a certificate for SERVICE_HOST it signed; the CA's PEM goes to `<dir>/ca.pem`. */
export async function makeTestCa(dir: string): Promise<TestCa> {
  const notAfterDate = new Date(Date.now() + 7 * 24 * 3600 * 1000);
  const ca = await generate([{ name: 'commonName', value: CA_NAME }], {
    keySize: 2048,
    algorithm: 'sha256',
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const leaf = await generate([{ name: 'commonName', value: SERVICE_HOST }], {
    keySize: 2048,
    algorithm: 'sha256',
    notAfterDate,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: SERVICE_HOST }] },
    ],
  });
  const caFile = join(dir, 'ca.pem');
  await writeFile(caFile, ca.cert);
  return { caCert: ca.cert, caFile, tls: { cert: leaf.cert, key: leaf.private } };
}

export interface ConnectProxy {
  /** host:port, as HTTPS_PROXY takes it. */
  readonly address: string;
  /** Every CONNECT target asked for, in order. */
  readonly connects: string[];
  /** Answer every CONNECT with this status instead of a tunnel (null: tunnel). */
  refuseWith: number | null;
  /** Cuts every open tunnel (a proxy that changed its policy does so), so the next request asks anew. */
  dropTunnels(): void;
  close(): Promise<void>;
}

/** A CONNECT proxy on loopback that tunnels SERVICE_HOST:port to 127.0.0.1:port, and nothing else. */
export async function startConnectProxy(): Promise<ConnectProxy> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((_req, res) => {
    res.statusCode = 405; // a tunnel-only proxy: plain requests are not carried
    res.end();
  });
  const proxy: ConnectProxy = {
    address: '',
    connects: [],
    refuseWith: null,
    dropTunnels: () => {
      for (const socket of sockets) socket.destroy();
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  server.on('connect', (req, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    const target = req.url ?? '';
    proxy.connects.push(target);
    const match = /^([^:]+):(\d+)$/.exec(target);
    if (proxy.refuseWith !== null || !match || match[1] !== SERVICE_HOST) {
      const status = proxy.refuseWith ?? 403;
      client.end(`HTTP/1.1 ${status} Refused\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    const upstream = connect(Number(match[2]), '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  Object.assign(proxy, { address: `127.0.0.1:${(server.address() as AddressInfo).port}` });
  return proxy;
}
