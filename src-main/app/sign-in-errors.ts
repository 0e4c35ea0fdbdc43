// What a failed sign-in tells the rep. The client's messages are written for a signed-in rep
// with queued changes ("your changes are saved and will be sent…"); at sign-in nothing is
// queued and the likely cause is the address, so the message says what went wrong there. The
// kind and the technical detail stay as they were.
import { connectionCauseText, type ErrorInfo } from '../../src-shared/errors';
import { isServiceError, ServiceError } from '../core/service/errors';

const NO_NAME = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME']);
const NOTHING_LISTENING = new Set(['ECONNREFUSED']);
const UNREACHABLE = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EHOSTDOWN']);

function messageFor(info: ErrorInfo, url: URL): Pick<ErrorInfo, 'message' | 'field'> {
  const host = url.host;
  const detail = info.detail ?? '';
  switch (info.kind) {
    case 'Offline':
      if (info.connection?.kind === 'proxy') {
        return {
          message: `Could not sign in: ${connectionCauseText(info.connection, host)}. Ask your administrator about this computer's proxy settings.`,
        };
      }
      if (info.connection?.kind === 'certificate') {
        return {
          message: `Could not sign in: ${connectionCauseText(info.connection, host)}. Check the address; if it is right, ask your administrator to install the certificate of the authority that issued it.`,
          field: 'baseUrl',
        };
      }
      if (/certificate/i.test(detail)) {
        return {
          message: `Could not sign in: the certificate of ${host} is not trusted (self-signed, expired or for another name). Check the address; ask your administrator if it is right.`,
          field: 'baseUrl',
        };
      }
      if (NO_NAME.has(detail)) {
        return {
          message: `Could not sign in: no server is known by the name ${url.hostname}. Check the address.`,
          field: 'baseUrl',
        };
      }
      if (NOTHING_LISTENING.has(detail)) {
        return {
          message: `Could not sign in: nothing answers at ${host} (connection refused). Check the address and port, or whether the service is running.`,
          field: 'baseUrl',
        };
      }
      if (UNREACHABLE.has(detail)) {
        return {
          message: `Could not sign in: ${host} cannot be reached from this network. Check the address and your connection.`,
          field: 'baseUrl',
        };
      }
      return {
        message: `Could not sign in: no connection to ${host}. Check your network connection and the address.`,
      };
    case 'NotAllowListed':
      return {
        message: `Could not sign in: this network is not on the account's allow-list (${host} answered 403). Connect to the office network, or ask your administrator to add this one, and try again.`,
      };
    case 'Ambiguous':
      return { message: `Could not sign in: ${host} did not answer in time. Try again.` };
    case 'ServerError':
    case 'RateLimited':
      return {
        message: `Could not sign in: the service at ${host} had a problem. Try again shortly.`,
      };
    case 'BadResponse':
      return {
        message: `Could not sign in: ${host} did not answer like a Customer Mapping Service (${detail || 'unreadable answer'}). Check the address.`,
        field: 'baseUrl',
      };
    case 'Rejected':
      return {
        message: `Could not sign in: ${host} refused the request${detail ? ` (${detail})` : ''}. Check the address.`,
        field: 'baseUrl',
      };
    default:
      return { message: info.message };
  }
}

/** The failure of a sign-in's first request, with a message about signing in. */
export function signInFailure(e: unknown, url: string): unknown {
  if (!isServiceError(e) || e.info.kind === 'Unauthorized') return e;
  const { message, field } = messageFor(e.info, new URL(url));
  return new ServiceError({ ...e.info, message, ...(field ? { field } : {}) });
}
