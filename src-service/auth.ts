// HTTP Basic credentials from the Authorization header.

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
