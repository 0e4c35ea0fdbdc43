// Main's fetch outside Electron (the browser runner, tests, and the app's fallback): Node's own
// fetch, with a dispatcher from the `undici` package per request so it honours the proxy
// variables (proxy-env.ts) and an extra trust store, and a failure that names its cause
// (connection-failure.ts). Node reads NODE_EXTRA_CA_CERTS only when the process starts, so an
// extra CA file named later is read here: FIELDMAP_EXTRA_CA_CERTS, else a NODE_EXTRA_CA_CERTS
// other than the one Node loaded.
import { readFileSync } from 'node:fs';
import type { LookupFunction } from 'node:net';
import * as tls from 'node:tls';
import { Agent, ProxyAgent, type Dispatcher } from 'undici';
import { CERTIFICATE_CODE } from '../service/errors';
import { ConnectionFailure } from './connection-failure';
import { untrustedCertificateIssuer } from './diagnose';
import { LOCAL_ADDRESS_REFUSED } from './local-address-guard';
import { proxyFor, type ProxyEnv } from './proxy-env';

// Codes of a connection that never opened: through a proxy, that connection is the proxy's.
const NOT_OPENED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

// undici's ProxyAgent refuses a tunnel with this message (its only record of the status).
const TUNNEL_REFUSED = /^Proxy response \((\d+)\) !== 200 when HTTP Tunneling/;

function readPems(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new Error(`the extra CA file ${file} could not be read`, { cause: e });
  }
  const pems = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g);
  if (!pems) throw new Error(`no PEM certificate in ${file}`);
  return pems;
}

const loadedAtStart = () => process.env.NODE_EXTRA_CA_CERTS?.trim() || undefined;

/** The PEM certificates of the extra CA file the environment names, or [] (a bad file throws). */
export function extraCaCertificates(env: ProxyEnv): string[] {
  const own = env.FIELDMAP_EXTRA_CA_CERTS?.trim();
  if (own) return readPems(own);
  // The file Node loaded when it started is in its default store already.
  const node = env.NODE_EXTRA_CA_CERTS?.trim();
  return node && node !== loadedAtStart() ? readPems(node) : [];
}

/**
 * Node's default trust store, which a `ca` option replaces: Node 23+ (Electron 45) lists it
 * whole; Node 20 lists its roots, and the file it loaded at start is read again.
 */
function defaultCertificates(): string[] {
  const list = (tls as { getCACertificates?: (type: 'default') => string[] }).getCACertificates;
  if (list) return list('default');
  const atStart = loadedAtStart();
  return [...tls.rootCertificates, ...(atStart ? readPems(atStart) : [])];
}

/** A dispatcher whose handler tells `seen` the error undici failed with (fetch keeps only a summary). */
function recording(base: Dispatcher, seen: (error: unknown) => void): Dispatcher {
  const wrap = (handler: object) =>
    new Proxy(handler, {
      get(target, key) {
        const value: unknown = Reflect.get(target, key, target);
        if (typeof value !== 'function') return value;
        if (key === 'onError') {
          return (error: unknown) => (seen(error), value.call(target, error));
        }
        if (key === 'onResponseError') {
          return (controller: unknown, error: unknown) => (
            seen(error),
            value.call(target, controller, error)
          );
        }
        return value.bind(target);
      },
    });
  return Object.assign(Object.create(base) as Dispatcher, {
    dispatch: (options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) =>
      base.dispatch(options, wrap(handler) as Dispatcher.DispatchHandler),
  });
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export interface EnvNetwork {
  fetch: typeof globalThis.fetch;
  /** Closes the proxies' and the trust store's connection pools. */
  close(): Promise<void>;
}

export interface EnvFetchOptions {
  /**
   * The lookup of every direct connection (local-address-guard.ts). Through a proxy the proxy
   * resolves the name, so it is not used there.
   */
  lookup?: LookupFunction;
}

/** A fetch built from `env` (default process.env): proxies, NO_PROXY and the extra CA file. */
export function fetchFromEnv(
  env: ProxyEnv = process.env,
  options: EnvFetchOptions = {},
): EnvNetwork {
  const extra = extraCaCertificates(env);
  const ca = extra.length > 0 ? [...defaultCertificates(), ...extra] : undefined;
  // One context for every connection: a `ca` list would be parsed again for each.
  const tlsOptions = ca ? { secureContext: tls.createSecureContext({ ca }) } : {};
  const lookup = options.lookup ? { lookup: options.lookup } : {};
  const direct =
    ca || options.lookup ? new Agent({ connect: { ...tlsOptions, ...lookup } }) : undefined;
  const proxies = new Map<string, ProxyAgent>();
  const agentFor = (proxy: URL): ProxyAgent => {
    let agent = proxies.get(proxy.href);
    if (!agent) {
      agent = new ProxyAgent({ uri: proxy.href, requestTls: tlsOptions, proxyTls: tlsOptions });
      proxies.set(proxy.href, agent);
    }
    return agent;
  };

  const fetch: typeof globalThis.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    const proxy = proxyFor(url, env);
    const base = proxy ? agentFor(proxy) : direct;
    let seen: unknown;
    const dispatcher = base ? recording(base, (error) => (seen = error)) : undefined;
    try {
      // `dispatcher` is Node's fetch's extension (undici underneath), absent from the DOM types.
      return await globalThis.fetch(input, {
        ...init,
        ...(dispatcher ? { dispatcher } : {}),
      } as RequestInit);
    } catch (e) {
      if (signal?.aborted) throw e;
      const cause = seen ?? (e as { cause?: unknown }).cause;
      const code = codeOf(cause);
      if (code === LOCAL_ADDRESS_REFUSED) throw new ConnectionFailure(code, undefined, cause);
      const refused = cause instanceof Error ? TUNNEL_REFUSED.exec(cause.message) : null;
      if (proxy && refused) {
        const status = Number(refused[1]);
        throw new ConnectionFailure(
          'PROXY_REFUSED',
          { kind: 'proxy', proxy: proxy.host, status },
          e,
        );
      }
      if (proxy && code && NOT_OPENED.has(code)) {
        throw new ConnectionFailure(code, { kind: 'proxy', proxy: proxy.host }, e);
      }
      if (code && CERTIFICATE_CODE.test(code) && url.protocol === 'https:') {
        const issuer = await untrustedCertificateIssuer(url, proxy, ca);
        throw new ConnectionFailure(
          code,
          { kind: 'certificate', ...(issuer ? { issuer } : {}) },
          e,
        );
      }
      throw e;
    }
  };
  return {
    fetch,
    close: async () => {
      await Promise.all([direct?.close(), ...[...proxies.values()].map((agent) => agent.close())]);
    },
  };
}
