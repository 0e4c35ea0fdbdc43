// What main fetches for the renderer's online map, and how the app:// protocol may hand it on.
// A style is https (plain http only on this computer). The hosts a style or TileJSON names are
// learned only when https, and never loopback or private addresses (a style must not make main
// probe the LAN or this computer), except the one origin of a style on this computer or the LAN
// that the rep typed and confirmed in main's dialog (a local tile server): through the proxy the
// renderer reads whatever main may fetch, so any other loopback service stays out of its reach.
// What comes back is served as is only when it is tile or style content; anything else as opaque
// bytes under a sandbox CSP.
import { isLoopbackHost } from '../service/base-url';

/** The style URL setting: https, or http on loopback; nothing else. */
export function checkStyleUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname)) return parsed.href;
  if (parsed.protocol !== 'https:') {
    throw new Error('the style URL must be https (plain http only for this computer)');
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new Error('the style URL must not carry a user name or password');
  }
  return parsed.href;
}

const PRIVATE_V4 = [
  [0x00000000, 8], // 0.0.0.0/8
  [0x0a000000, 8], // 10/8
  [0x64400000, 10], // 100.64/10 (carrier-grade NAT)
  [0x7f000000, 8], // 127/8
  [0xa9fe0000, 16], // 169.254/16 (link-local, cloud metadata)
  [0xac100000, 12], // 172.16/12
  [0xc0a80000, 16], // 192.168/16
] as const;

function ipv4(host: string): number | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.some((p) => p > 255) ? null : parts.reduce((a, p) => a * 256 + p, 0);
}

/** Loopback, private, link-local or unspecified: an address of this computer or its LAN. */
export function isLocalNetworkHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (isLoopbackHost(host) || host.endsWith('.localhost') || host.endsWith('.local')) return true;
  const v4 = ipv4(host);
  if (v4 !== null)
    return PRIVATE_V4.some(([net, bits]) => v4 >>> (32 - bits) === net >>> (32 - bits));
  if (!host.includes(':')) return false;
  // IPv6 (WHATWG writes it compressed, lower-case): unspecified, unique-local fc00::/7,
  // link-local fe80::/10, and IPv4-mapped ::ffff:a.b.c.d of a private IPv4.
  if (host === '::' || /^f[cd][0-9a-f]{0,2}:/.test(host) || /^fe[89ab][0-9a-f]?:/.test(host)) {
    return true;
  }
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(host);
  if (mapped) {
    const v = parseInt(mapped[1]!, 16) * 65536 + parseInt(mapped[2]!, 16);
    return PRIVATE_V4.some(([net, bits]) => v >>> (32 - bits) === net >>> (32 - bits));
  }
  return false;
}

/**
 * Whether a connection to `hostname` that resolved to `address` is refused: a name that does not
 * look local (the URL checks let it through) but resolves to this computer or the LAN, unless it
 * is the host of an origin the rep confirmed.
 */
export function refusedResolution(
  hostname: string,
  address: string,
  confirmedOrigins: readonly string[],
): boolean {
  if (isLocalNetworkHost(hostname)) return false;
  // WHATWG's form of an IPv6 address (::ffff:127.0.0.1 as ::ffff:7f00:1), which the check reads.
  const ip = address.includes(':') ? new URL(`http://[${address}]`).hostname : address;
  if (!isLocalNetworkHost(ip)) return false;
  const host = hostname.toLowerCase();
  return !confirmedOrigins.some((origin) => new URL(origin).hostname === host);
}

/**
 * Whether main may fetch `target` for the renderer's online style. `confirmedLocal` is the
 * origin of a style on this computer or the LAN that the rep confirmed, else null.
 */
export function mayFetchFor(target: URL, confirmedLocal: string | null): boolean {
  if (target.username !== '' || target.password !== '') return false;
  if (isLocalNetworkHost(target.hostname)) {
    const web = target.protocol === 'https:' || target.protocol === 'http:';
    return web && target.origin === confirmedLocal;
  }
  return target.protocol === 'https:';
}

// Tile and style content: JSON (style, TileJSON, sprite index), vector and raster tiles,
// glyph PBFs. Not octet-stream itself: opaque bytes get the sandbox too, which costs nothing.
const PROXY_TYPES = new Set([
  'application/json',
  'application/geo+json',
  'application/x-protobuf',
  'application/vnd.mapbox-vector-tile',
  'application/font-pbf',
  'font/pbf',
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/avif',
]);

/** True when a Content-Type header names tile or style content (served as it came). */
export function isProxyContentType(header: string | null | undefined): boolean {
  const type = header?.split(';')[0]?.trim().toLowerCase();
  return type !== undefined && PROXY_TYPES.has(type);
}

/** Headers for proxied content: its own type when tile or style content, else opaque + sandbox. */
export function proxyContentHeaders(contentType: string): Record<string, string> {
  return isProxyContentType(contentType)
    ? { 'Content-Type': contentType }
    : { 'Content-Type': 'application/octet-stream', 'Content-Security-Policy': 'sandbox' };
}
