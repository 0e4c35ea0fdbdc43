// The "kept" written form: dealAmount and the position come back in the exact JSON form a client
// last wrote them (a number stays a number, "353.27" stays a string, 0,0 stays 0,0), the way a
// schemaless PHP backend stores whatever it got. A client that rewrites values it never touched
// into its own spelling shows up here: the service's other users see the form change.
import type { Customer } from '../src-shared/domain';
import type { StoredCustomer } from './customers';

const FORM_FIELDS = ['dealAmount', 'latitude', 'longitude'] as const;
type FormField = (typeof FORM_FIELDS)[number];

// Beside the record rather than in it: the stored record keeps its canonical types, and what a
// client wrote lives as long as the record object does (a restart from a data file forgets it).
const written = new WeakMap<StoredCustomer, Partial<Record<FormField, unknown>>>();

/**
 * Records the JSON values of an accepted create or update body. A replace (and a create)
 * forgets the forms of the fields it did not send: they were reset to defaults.
 */
export function keepWrittenForms(
  record: StoredCustomer,
  body: unknown,
  mode: 'patch' | 'replace',
): void {
  const sent = body as Record<string, unknown>;
  const forms = mode === 'replace' ? {} : { ...written.get(record) };
  for (const field of FORM_FIELDS) if (field in sent) forms[field] = sent[field];
  written.set(record, forms);
}

/** The emitted customer with the written forms in place of the service's own spelling. */
export function withWrittenForms(record: StoredCustomer, emitted: Customer): Customer {
  const forms = written.get(record);
  if (!forms) return emitted;
  const out = { ...emitted } as Record<string, unknown>;
  for (const field of FORM_FIELDS) if (field in forms) out[field] = forms[field];
  return out as Customer;
}
