// The error an injected fetch rejects with when it can say why the connection failed: Node's
// and Chromium's stacks report that differently (an errno in `cause`, a "net::ERR_…" string),
// so each adapter (env-fetch.ts, chromium-fetch.ts) brings its failure to this one shape.
import type { ConnectionCause } from '../../../src-shared/errors';

/** The code of a redirect the network stack refused to follow (Chromium rejects, Node answers). */
export const REDIRECT_REFUSED = 'REDIRECT_REFUSED';

export class ConnectionFailure extends TypeError {
  override readonly name = 'ConnectionFailure';
  /** Node's errno-style code or Chromium's net error ("net::ERR_…"). */
  readonly code: string;
  readonly connection: ConnectionCause | undefined;

  constructor(code: string, connection: ConnectionCause | undefined, cause?: unknown) {
    super(`fetch failed (${code})`, { cause });
    this.code = code;
    this.connection = connection;
  }
}

/** The ConnectionCause an adapter found, anywhere in a failure's `cause` chain. */
export function connectionCauseOf(e: unknown): ConnectionCause | undefined {
  let current: unknown = e;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    if (current instanceof ConnectionFailure) return current.connection;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
