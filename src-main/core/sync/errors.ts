// How the sync engine reads a failure: its kind in the taxonomy, and whether it stops the push.
// Any TaxonomyError counts as what it says (the client's, the outbox's, the app's); anything
// else is a bug: Internal.
import {
  ERROR_MESSAGES,
  errorInfo,
  isTaxonomyError,
  type ErrorInfo,
  type ErrorKind,
} from '../../../src-shared/errors';
import { isNoSuchRecord } from '../service/errors';

export function kindOf(e: unknown): ErrorKind {
  return isTaxonomyError(e) ? e.info.kind : 'Internal';
}

export function infoOf(e: unknown): ErrorInfo {
  if (isTaxonomyError(e)) return e.info;
  return errorInfo('Internal', { detail: e instanceof Error ? e.message : String(e) });
}

/**
 * What the status shows for a failure the engine cannot retry its way out of: the error's own
 * message (an outbox refusal, "The outbox is closed."), or for a bug its detail.
 */
export function messageOf(e: unknown): string {
  const info = infoOf(e);
  return info.message !== ERROR_MESSAGES.Internal ? info.message : (info.detail ?? info.message);
}

/** Failures that concern every op (no network, wrong network, bad credentials): stop pushing. */
export function stopsPush(e: unknown): boolean {
  const kind = kindOf(e);
  return (
    kind === 'Offline' ||
    kind === 'NotAllowListed' ||
    kind === 'Unauthorized' ||
    kind === 'NotSignedIn'
  );
}

/** The op can never succeed as is. */
export function isRejected(e: unknown): boolean {
  return kindOf(e) === 'Rejected';
}

/** A 404, or a GET the service answered with "nothing" (service/answers.ts absentCustomer). */
export function isNotFound(e: unknown): boolean {
  return isNoSuchRecord(e);
}

/** The record an update targets is gone from the service. */
export function deletedOnService(): ErrorInfo {
  return errorInfo('Rejected', {
    message:
      'This customer was deleted on the service, so your edit was not sent. Discard it, or re-create the customer.',
    detail: 'deleted on the service',
    status: 404,
  });
}

/** The service said "created" but the record cannot be found: the rep decides. */
export function createdButNotFound(): ErrorInfo {
  return errorInfo('Ambiguous', {
    message:
      'The service said it created this customer, but it could not be found afterwards. Retry or discard it.',
    detail: 'created record not found',
  });
}
