// After TLS refused a service's certificate, looks once more to name who issued it (Node's error
// does not say): the same road (through the proxy's tunnel when the request took one), a
// handshake that reads the certificate without trusting it, then the socket is closed. Nothing
// of the request (no path, no password) is sent: at most CONNECT host:port and a TLS hello.
import { request } from 'node:http';
import type { Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

/** How long a look may take; it only names a cause, so giving up says nothing more. */
const LOOK_MS = 10_000;

function tunnel(proxy: URL, host: string, port: number): Promise<Socket | { status: number }> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: proxy.hostname.replace(/^\[|\]$/g, ''),
      port: Number(proxy.port || 80),
      method: 'CONNECT',
      path: `${host.includes(':') ? `[${host}]` : host}:${port}`,
      headers: { host: `${host}:${port}` },
      timeout: LOOK_MS,
    });
    req.once('connect', (res, socket) => {
      if (res.statusCode === 200) return resolve(socket);
      socket.destroy();
      resolve({ status: res.statusCode ?? 0 });
    });
    req.once('response', (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0 });
    });
    req.once('timeout', () => req.destroy(new Error('timeout')));
    req.once('error', reject);
    req.end();
  });
}

/** The issuer's common name ('' when it has none), or undefined when trusted or unreadable. */
function untrustedIssuer(
  socket: Socket | null,
  host: string,
  port: number,
  ca: readonly string[] | undefined,
): Promise<string | undefined> {
  return new Promise((resolve) => {
    // Not trusted on purpose: this handshake only reads who signed the certificate.
    const tls = tlsConnect({
      ...(socket ? { socket } : { host, port }),
      servername: /^[\d.]+$|:/.test(host) ? undefined : host,
      rejectUnauthorized: false,
      ...(ca ? { ca: [...ca] } : {}),
      timeout: LOOK_MS,
    });
    const done = (issuer: string | undefined) => {
      tls.destroy();
      resolve(issuer);
    };
    tls.once('secureConnect', () => {
      if (tls.authorized) return done(undefined);
      const issuer = tls.getPeerCertificate()?.issuer as Record<string, unknown> | undefined;
      const name = issuer?.CN ?? issuer?.O;
      done(typeof name === 'string' ? name : Array.isArray(name) ? String(name[0]) : '');
    });
    tls.once('timeout', () => done(undefined));
    tls.once('error', () => done(undefined));
  });
}

/**
 * The issuer's name of the certificate `url`'s server presents, when this computer does not
 * trust it (undefined: trusted, or nothing could be read). Goes through `proxy` when the request
 * did; `ca` is the trust store the request used.
 */
export async function untrustedCertificateIssuer(
  url: URL,
  proxy: URL | null,
  ca: readonly string[] | undefined,
): Promise<string | undefined> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || 443);
  let socket: Socket | null = null;
  try {
    if (proxy) {
      const road = await tunnel(proxy, host, port);
      if ('status' in road) return undefined;
      socket = road;
    }
    return await untrustedIssuer(socket, host, port, ca);
  } catch {
    return undefined;
  } finally {
    socket?.destroy();
  }
}
