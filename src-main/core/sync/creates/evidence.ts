// What a failed create's answer tells about its outcome, and how an ambiguous outcome reads.
import { errorInfo, type ErrorInfo } from '../../../../src-shared/errors';
import { isServiceError } from '../../service/errors';

/** The detail that marks a create waiting for the rep to pick its record (the UI keys on it). */
export const AMBIGUOUS_CREATE_DETAIL = 'ambiguous create: choose the record';

/**
 * True when the service answered the send with an error status: it received the request and
 * was done with it, so a list it answers afterwards shows the record if it was committed (a 502
 * may hide a commit, the list does not). Not a 504 (the backend may still be at work) nor a
 * lost answer (a slow server may commit later): those wait for the absence grace.
 */
export function answeredWithError(e: unknown): boolean {
  if (!isServiceError(e)) return false;
  const { kind, status } = e.info;
  if (kind === 'RateLimited') return true;
  return kind === 'ServerError' && status !== undefined && status !== 504;
}

/** The rep is asked whether one of the new records is this customer. */
export function ambiguousCreate(candidates: number): ErrorInfo {
  return errorInfo('Ambiguous', {
    message:
      candidates > 0
        ? `The service may already have this customer: ${candidates} new record${candidates === 1 ? '' : 's'} look${candidates === 1 ? 's' : ''} like it. Is this the customer you created?`
        : 'The service said it created this customer, but no new record looks like it. Check again, or create it.',
    detail: AMBIGUOUS_CREATE_DETAIL,
  });
}
