// The typed error every ServiceClient call throws, and the mapping from transport failures and
// HTTP statuses to the closed taxonomy of src-shared/errors.ts.
import { connectionCauseOf, REDIRECT_REFUSED } from '../network/connection-failure';
import {
  errorInfo,
  TaxonomyError,
  type ErrorInfo,
  type ErrorKind,
} from '../../../src-shared/errors';

/** A failure of a service call, carrying a serialisable ErrorInfo (never a secret). */
export class ServiceError extends TaxonomyError {
  override readonly name = 'ServiceError';

  constructor(info: ErrorInfo) {
    super(info, info.detail ? `${info.kind}: ${info.detail}` : `${info.kind}: ${info.message}`);
  }
}

/** Builds a ServiceError with the standard rep-facing message of its kind. */
export function serviceError(
  kind: ErrorKind,
  extra: Omit<Partial<ErrorInfo>, 'kind'> = {},
): ServiceError {
  return new ServiceError(errorInfo(kind, extra));
}

/** True when `e` is a ServiceError (of the given kind, when one is given). */
export function isServiceError(e: unknown, kind?: ErrorKind): e is ServiceError {
  return e instanceof ServiceError && (kind === undefined || e.info.kind === kind);
}

// undici (Node's fetch) reports transport failures as TypeError('fetch failed') with the socket
// error in `cause`. These codes mean no byte of the request reached the server.
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

// TLS refused the server's certificate: the handshake failed, so nothing was sent either.
export const CERTIFICATE_CODE =
  /^(CERT_|ERR_TLS_CERT|DEPTH_ZERO_SELF_SIGNED|SELF_SIGNED_CERT|UNABLE_TO_(GET|VERIFY))/;

/** The innermost error code of a fetch failure (`cause` chains), if any. */
export function transportErrorCode(e: unknown): string | undefined {
  let current: unknown = e;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Maps a failed fetch (no HTTP response) to Offline when the request provably never left, and
 * to Ambiguous otherwise: a reset or timeout after the request may have been written means the
 * server may have applied it.
 */
export function transportError(e: unknown): ServiceError {
  const code = transportErrorCode(e);
  // The network adapter (core/network) named the cause: a refused tunnel or an untrusted
  // certificate, both before any byte of the request left.
  const connection = connectionCauseOf(e);
  if (connection) {
    return serviceError('Offline', {
      detail:
        connection.kind === 'certificate' ? `certificate refused (${code})` : `proxy (${code})`,
      connection,
    });
  }
  if (code === REDIRECT_REFUSED) {
    return serviceError('BadResponse', {
      detail: 'the service answered with a redirect; redirects are not followed',
    });
  }
  if (code && CERTIFICATE_CODE.test(code)) {
    return serviceError('Offline', {
      detail: `The server's certificate was refused (${code}); the connection was not trusted.`,
    });
  }
  if (code && NOT_SENT_CODES.has(code)) return serviceError('Offline', { detail: code });
  const name = e instanceof Error ? e.name : 'Error';
  return serviceError('Ambiguous', { detail: code ?? name });
}

/** Maps an HTTP error status (not 2xx) to the taxonomy, keeping the service's text as detail. */
export function httpStatusError(status: number, serviceMessage: string | undefined): ServiceError {
  const extra = { status, ...(serviceMessage ? { detail: serviceMessage } : {}) };
  if (status === 401) return serviceError('Unauthorized', extra);
  // The allow-list answers 403 whatever its body is (JSON or an HTML page).
  if (status === 403) return serviceError('NotAllowListed', extra);
  if (status === 429 || status === 503) return serviceError('RateLimited', extra);
  if (status >= 500) return serviceError('ServerError', extra);
  if (status >= 400) return serviceError('Rejected', extra);
  return serviceError('BadResponse', { ...extra, detail: `unexpected status ${status}` });
}

/** Marks a read that found no such record by other means than a 404 (isNoSuchRecord). */
const NO_SUCH_RECORD = 'no such record';

/** A GET of one record the service answered with "nothing" (PHP's false, null, [] or {}). */
export function noSuchRecord(detail: string): ServiceError {
  return serviceError('Rejected', { detail: `${NO_SUCH_RECORD}: ${detail}` });
}

/** True for a 404 and for noSuchRecord: the record is not on the service. */
export function isNoSuchRecord(e: unknown): boolean {
  if (!isServiceError(e, 'Rejected')) return false;
  return e.info.status === 404 || (e.info.detail ?? '').startsWith(`${NO_SUCH_RECORD}:`);
}

// A read changed nothing: its failure must not read as a change that failed to be sent.
const READ_MESSAGES: Partial<Record<ErrorKind, string>> = {
  Rejected: 'The service refused this request. Nothing was changed.',
  Ambiguous:
    'The connection dropped before the service answered. Nothing was changed; Fieldmap tries again.',
  RateLimited: 'The service asked Fieldmap to slow down. It tries again shortly.',
};

/** A read's failure with a read's wording (kind, status and detail kept). */
export function asReadFailure(e: unknown): unknown {
  if (!(e instanceof ServiceError)) return e;
  const message = READ_MESSAGES[e.info.kind];
  if (!message || e.info.message !== errorInfo(e.info.kind).message) return e;
  return new ServiceError({ ...e.info, message });
}
