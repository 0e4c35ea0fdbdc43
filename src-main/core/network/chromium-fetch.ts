// Main's fetch under Electron: net.fetch, Chromium's network stack (the system's proxy settings
// and PAC, the OS certificate store), brought to the shape the service client and the basemap
// expect. Electron's documented differences from Node's fetch, handled here:
// - a redirect is never a Response: with redirect 'manual' or 'error' net.fetch rejects
//   ("Redirect was cancelled" / "Attempted to redirect…"), so a refused redirect becomes
//   REDIRECT_REFUSED (the client's BadResponse), and nothing is followed;
// - a request without an origin is sent with the session's credentials unless it says 'omit';
// - a failure is Error("net::ERR_…") with no code: the code is that string, the ones with a Node
//   equivalent are given it (so "nothing answers" reads the same), and a proxy or certificate
//   failure names its cause (the proxy from the session's resolveProxy, the issuer from the
//   certificate verifier the shell installs: certificateIssuerOf).
import { ConnectionFailure, REDIRECT_REFUSED } from './connection-failure';

export interface ChromiumNetwork {
  /** Electron's net.fetch. */
  fetch: typeof globalThis.fetch;
  /** session.resolveProxy: "PROXY host:port; DIRECT", "DIRECT"… */
  resolveProxy(url: string): Promise<string>;
  /** The issuer's name of the last certificate Chromium refused for `hostname`, if any. */
  certificateIssuerOf(hostname: string): string | undefined;
}

const NODE_CODES: Record<string, string> = {
  'net::ERR_NAME_NOT_RESOLVED': 'ENOTFOUND',
  'net::ERR_CONNECTION_REFUSED': 'ECONNREFUSED',
  'net::ERR_ADDRESS_UNREACHABLE': 'EHOSTUNREACH',
  'net::ERR_INTERNET_DISCONNECTED': 'ENETDOWN',
  'net::ERR_CONNECTION_TIMED_OUT': 'UND_ERR_CONNECT_TIMEOUT',
  'net::ERR_CONNECTION_RESET': 'ECONNRESET',
};

const PROXY_ERROR = /^net::ERR_(PROXY_|TUNNEL_CONNECTION_FAILED|MANDATORY_PROXY)/;
const CERT_ERROR = /^net::ERR_(CERT_|SSL_PINNED|BAD_SSL_CLIENT_AUTH)/;
const REDIRECT_ERROR = /^(Redirect was cancelled|Attempted to redirect)/;

/** The first proxy of a PAC-style answer ("PROXY host:port; DIRECT"), or null for DIRECT. */
export function firstProxy(answer: string): string | null {
  const first = answer.split(';')[0]?.trim() ?? '';
  const match = /^(?:PROXY|HTTPS|SOCKS\d?)\s+(\S+)$/i.exec(first);
  return match?.[1] ?? null;
}

export function chromiumFetch(network: ChromiumNetwork): typeof globalThis.fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    try {
      // No cookie jar or cached HTTP auth of the session rides along (net.fetch would include
      // them for a request without an origin): each call carries exactly its own headers.
      return await network.fetch(input, { ...init, credentials: 'omit' });
    } catch (e) {
      const message = e instanceof Error ? e.message : '';
      if (REDIRECT_ERROR.test(message)) throw new ConnectionFailure(REDIRECT_REFUSED, undefined, e);
      if (!message.startsWith('net::')) throw e;
      if (PROXY_ERROR.test(message)) {
        const proxy = firstProxy(await network.resolveProxy(url).catch(() => 'DIRECT'));
        throw new ConnectionFailure(
          message,
          { kind: 'proxy', proxy: proxy ?? 'the system proxy' },
          e,
        );
      }
      if (CERT_ERROR.test(message)) {
        const issuer = network.certificateIssuerOf(new URL(url).hostname);
        throw new ConnectionFailure(
          message,
          { kind: 'certificate', ...(issuer ? { issuer } : {}) },
          e,
        );
      }
      throw new ConnectionFailure(NODE_CODES[message] ?? message, undefined, e);
    }
  };
}
