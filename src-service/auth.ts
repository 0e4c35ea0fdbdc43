// HTTP Basic credentials from the Authorization header, and signing a request in with them.
import type { Account } from './account';
import type { FailedSignInThrottle } from './rate-limit';
import type { ServiceStore } from './store';

export interface Credentials {
  username: string;
  password: string;
}

/** The credentials of a well-formed Basic header; null when missing or malformed. */
export function parseBasicAuth(header: string | undefined): Credentials | null {
  if (!header) return null;
  const m = /^Basic ([A-Za-z0-9+/]+={0,2})$/i.exec(header.trim());
  if (!m) return null;
  const decoded = Buffer.from(m[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

export type SignIn =
  | { ok: true; account: Account }
  | { ok: false; status: 401 }
  | { ok: false; status: 429; retryAfterMs: number };

/**
 * The account of a request's Basic credentials. A client IP with too many recent failures is
 * refused before any hashing (the check is the costly part); the hash runs on async scrypt.
 */
export async function signIn(
  store: Pick<ServiceStore, 'authenticate'>,
  throttle: FailedSignInThrottle,
  ip: string,
  header: string | undefined,
  stats: { passwordChecks: number },
): Promise<SignIn> {
  const credentials = parseBasicAuth(header);
  if (!credentials) return { ok: false, status: 401 };
  const admission = throttle.begin(ip);
  if (!admission.ok) return { ok: false, status: 429, retryAfterMs: admission.retryAfterMs };
  let account: Account | undefined;
  try {
    stats.passwordChecks++;
    account = await store.authenticate(credentials.username, credentials.password);
  } finally {
    throttle.end(ip, account !== undefined);
  }
  return account ? { ok: true, account } : { ok: false, status: 401 };
}
