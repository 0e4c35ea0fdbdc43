// Which proxy a URL goes through, read from the environment the way undici's EnvHttpProxyAgent
// and curl read it: https_proxy/HTTPS_PROXY for https, http_proxy/HTTP_PROXY for http (lowercase
// first), no_proxy/NO_PROXY a comma or space separated list of hosts, domain suffixes (".corp",
// "corp" and "*.corp" alike), host:port, or "*". Loopback never takes a proxy (as Chromium).
import { isLoopbackHost } from '../service/base-url';

export type ProxyEnv = Readonly<Record<string, string | undefined>>;

const pick = (env: ProxyEnv, name: string): string | undefined =>
  (env[name.toLowerCase()] ?? env[name.toUpperCase()])?.trim() || undefined;

function bypassed(url: URL, noProxy: string | undefined): boolean {
  if (!noProxy) return false;
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    if (entry === '*') return true;
    const match = /^(.*?)(?::(\d+))?$/.exec(entry);
    const name = (match?.[1] ?? entry).replace(/^\*?\./, '').replace(/^\[|\]$/g, '');
    if (match?.[2] && match[2] !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}

/** The proxy URL for `url`, or null for a direct connection. */
export function proxyFor(url: URL, env: ProxyEnv): URL | null {
  if (isLoopbackHost(url.hostname)) return null;
  const setting = pick(env, url.protocol === 'https:' ? 'https_proxy' : 'http_proxy');
  if (!setting || bypassed(url, pick(env, 'no_proxy'))) return null;
  try {
    // "proxy.corp:3128" without a scheme means http://, as curl reads it.
    return new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(setting) ? setting : `http://${setting}`);
  } catch {
    throw new TypeError(`the proxy setting "${setting}" is not an address`);
  }
}
