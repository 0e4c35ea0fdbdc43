// fieldmap://customer/<id>: the link a calendar event (and anything else outside the app) carries
// back to a customer. Any program on the machine, or a web page, can open such a link, so it is
// read strictly: one customer id of the service's or a temp id's shape, nothing else, no action
// but opening that customer.
import { TEMP_ID_RE } from './outbox-types';

export const APP_LINK_SCHEME = 'fieldmap';
const PREFIX = `${APP_LINK_SCHEME}://customer/`;
/** Longer than any id the service or the app makes. */
const MAX_LINK_CHARS = 300;

export function customerLink(customerId: string): string {
  return `${PREFIX}${encodeURIComponent(customerId)}`;
}

/** The customer id a link names, or null for anything else. */
export function customerOfLink(url: string): string | null {
  if (url.length > MAX_LINK_CHARS || !url.toLowerCase().startsWith(PREFIX)) return null;
  let id: string;
  try {
    id = decodeURIComponent(url.slice(PREFIX.length).replace(/\/$/, ''));
  } catch {
    return null;
  }
  if (TEMP_ID_RE.test(id)) return id;
  // The service's ids are short tokens; nothing that could be a path, a query or markup.
  return /^[A-Za-z0-9_.-]{1,200}$/.test(id) ? id : null;
}
