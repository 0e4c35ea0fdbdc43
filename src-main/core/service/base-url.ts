// Checks and normalises the service address a rep types in. https is required because the
// password travels in every request; plain http is allowed only to this computer (the demo
// service and tests), where nothing crosses a network.
import { errorInfo, type ErrorInfo } from '../../../src-shared/errors';

export type BaseUrlResult = { ok: true; baseUrl: string } | { ok: false; error: ErrorInfo };

/** True for localhost, 127.0.0.0/8 and ::1 (also as an IPv4-mapped address). */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host === '::1') return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  // WHATWG URL writes ::ffff:127.0.0.1 as ::ffff:7f00:1 (any ::ffff:7fxx:xxxx is 127/8).
  return /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host);
}

function invalid(message: string, detail?: string): BaseUrlResult {
  return {
    ok: false,
    error: errorInfo('InvalidRequest', { message, ...(detail ? { detail } : {}) }),
  };
}

/**
 * Validates a service address: https (http only for loopback), no user name or password in it,
 * no query or fragment. Returns it without a trailing slash, and without a pasted "/api/v1".
 */
export function validateBaseUrl(input: string): BaseUrlResult {
  const text = input.trim();
  if (text === '')
    return invalid('Enter the address of the service, for example https://example.com');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return invalid('That is not a web address. It should look like https://example.com');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return invalid('Use an https:// address.', `protocol ${url.protocol}`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return invalid(
      'Use an https:// address; plain http is only allowed for this computer (localhost).',
    );
  }
  if (url.username !== '' || url.password !== '') {
    return invalid(
      'Leave the user name and password out of the address; enter them in the sign-in fields.',
    );
  }
  if (url.search !== '' || url.hash !== '' || text.includes('?') || text.includes('#')) {
    return invalid('The address must not contain "?" or "#" parts.');
  }
  let path = url.pathname.replace(/\/+$/, '');
  path = path.replace(/\/api\/v1$/i, '');
  return { ok: true, baseUrl: `${url.protocol}//${url.host}${path}` };
}
