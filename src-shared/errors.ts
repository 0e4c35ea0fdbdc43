// The closed taxonomy of errors a rep can meet, each with the message the UI shows.
import * as v from 'valibot';

export const SERVICE_ERROR_KINDS = [
  'Offline',
  'NotAllowListed',
  'Unauthorized',
  'RateLimited',
  'ServerError',
  'Rejected',
  'BadResponse',
  'Ambiguous',
] as const;
export type ServiceErrorKind = (typeof SERVICE_ERROR_KINDS)[number];

/** Errors that are not about the service: a refused IPC call or an invalid local edit. */
export const APP_ERROR_KINDS = ['InvalidRequest', 'NotSignedIn', 'Internal'] as const;
export type AppErrorKind = (typeof APP_ERROR_KINDS)[number];

export type ErrorKind = ServiceErrorKind | AppErrorKind;

/** What a rep reads for each kind of error. */
export const ERROR_MESSAGES: Record<ErrorKind, string> = {
  Offline:
    'No connection to the service. Your changes are saved and will be sent when you are back online.',
  NotAllowListed:
    'Not on the office network: the service only answers from allow-listed networks. Your changes stay queued.',
  Unauthorized:
    'The service rejected your user name or password. Sign in again; your changes are kept.',
  RateLimited: 'The service asked us to slow down. Sending will resume shortly.',
  ServerError: 'The service had a problem. We will try again shortly.',
  Rejected: 'The service refused this change as it is. Edit it or discard it.',
  BadResponse: 'The service sent an answer we could not read. Nothing was changed on this laptop.',
  Ambiguous:
    'The connection dropped before the service answered. We will check whether the change arrived before retrying.',
  InvalidRequest: 'That request was not valid.',
  NotSignedIn: 'Sign in first.',
  Internal: 'Something went wrong inside Fieldmap.',
};

/**
 * Why a connection failed before the service could answer, when the network stack can tell:
 * the proxy in the way (its host:port, and its status to CONNECT when it gave one), or a
 * certificate nothing on this computer trusts (its issuer's name, when it could be read).
 */
export const ConnectionCauseSchema = v.variant('kind', [
  v.object({ kind: v.literal('proxy'), proxy: v.string(), status: v.optional(v.number()) }),
  v.object({ kind: v.literal('certificate'), issuer: v.optional(v.string()) }),
]);
export type ConnectionCause = v.InferOutput<typeof ConnectionCauseSchema>;

/** The cause in the rep's words, about the service at `host` ("the proxy … refused …"). */
export function connectionCauseText(cause: ConnectionCause, host: string): string {
  if (cause.kind === 'certificate') {
    const by = cause.issuer ? `, issued by "${cause.issuer}",` : '';
    return `the certificate of ${host}${by} is not trusted on this computer`;
  }
  if (cause.status === 407) {
    return `the proxy ${cause.proxy} asks for a sign-in Fieldmap cannot give (407)`;
  }
  const status = cause.status !== undefined ? ` (${cause.status})` : '';
  return `the proxy ${cause.proxy} refused the connection to ${host}${status}`;
}

/** A serialisable error: what crosses IPC and is stored on outbox ops. */
export const ErrorInfoSchema = v.object({
  kind: v.picklist([...SERVICE_ERROR_KINDS, ...APP_ERROR_KINDS]),
  message: v.string(),
  /** Technical detail (status, field, the service's own text). Never a secret. */
  detail: v.optional(v.string()),
  status: v.optional(v.number()),
  field: v.optional(v.string()),
  connection: v.optional(ConnectionCauseSchema),
});
export type ErrorInfo = v.InferOutput<typeof ErrorInfoSchema>;

/**
 * The one error type of the taxonomy: whatever layer throws it (service client, outbox, app,
 * IPC), it carries a serialisable ErrorInfo, so the sync engine and the IPC router read its kind
 * and message the same way. Layers subclass it only to name where it came from.
 */
export class TaxonomyError extends Error {
  readonly info: ErrorInfo;

  constructor(info: ErrorInfo, message: string = info.message) {
    super(message);
    this.name = 'TaxonomyError';
    this.info = info;
  }

  get kind(): ErrorKind {
    return this.info.kind;
  }
}

/** True when `e` is an error of the taxonomy (of the given kind, when one is given). */
export function isTaxonomyError(e: unknown, kind?: ErrorKind): e is TaxonomyError {
  return e instanceof TaxonomyError && (kind === undefined || e.info.kind === kind);
}

/** Builds an ErrorInfo with the standard message for its kind. */
export function errorInfo(
  kind: ErrorKind,
  extra: Omit<Partial<ErrorInfo>, 'kind'> = {},
): ErrorInfo {
  return { kind, message: ERROR_MESSAGES[kind], ...extra };
}
