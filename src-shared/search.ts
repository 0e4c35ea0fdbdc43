// The service's search rule, shared so local search answers exactly like the server.
import { CUSTOMER_SEARCH_FIELDS, type Customer } from './domain';

/** Lower-cases a search term the way the service compares it. */
export function normaliseSearchTerm(term: string): string {
  return term.toLowerCase();
}

/** True when the customer matches the term: case-insensitive substring of a searched field. */
export function matchesSearch(
  customer: Pick<Customer, (typeof CUSTOMER_SEARCH_FIELDS)[number]>,
  term: string,
): boolean {
  const needle = normaliseSearchTerm(term);
  if (needle === '') return false;
  for (const field of CUSTOMER_SEARCH_FIELDS) {
    const value = customer[field];
    if (typeof value === 'string' && value.toLowerCase().includes(needle)) return true;
  }
  return false;
}

/** The searched fields joined into one lower-cased haystack (for indexing). */
export function searchHaystack(
  customer: Pick<Customer, (typeof CUSTOMER_SEARCH_FIELDS)[number]>,
): string {
  return CUSTOMER_SEARCH_FIELDS.map((f) => String(customer[f] ?? '').toLowerCase()).join('\u0000');
}
