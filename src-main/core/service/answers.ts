// Reading an answer with a success status (2xx) as what its bytes are: a read's record or list
// (PHP's shapes brought to the spec's first), or a write's outcome. A body that says the request
// failed is a failure whatever the status (PHP answers 200 unless told otherwise).
import * as v from 'valibot';
import { MessageResponseSchema } from '../../../src-shared/domain';
import { noSuchRecord, serviceError } from './errors';
import { decodeBody } from './php-readings';
import { phpFailureOf, phpWriteAnswer } from './php-shapes';
import { decodeListBody, listReader, parseJsonBody, validateBody } from './responses';

export type Method = 'get' | 'post' | 'put' | 'delete';

export interface Call<S extends v.GenericSchema> {
  method: Method;
  path: string;
  json?: unknown;
  schema: S;
  maxBytes: number;
  what: string;
  /** A list answered as a ListReader: read whole, parsed and validated as its slices are asked. */
  reader?: boolean;
  /** PHP's shapes brought to the spec's (php-shapes.ts): the record, or each list element. */
  shape?: (raw: unknown) => unknown;
  /** What a 2xx body of null, false, [] or {} means here (its text given); unset: read as is. */
  absent?: (body: string) => unknown;
}

const isListSchema = (
  schema: v.GenericSchema,
): schema is v.ArraySchema<v.GenericSchema, undefined> => schema.type === 'array';

/** Bodies up to this size are looked at whole for an error or a "nothing" before validation. */
const SMALL = 64 * 1024;

/** The parsed JSON of a small body that parses; undefined for a large or unparsable one. */
function smallJson(
  bytes: Uint8Array,
  contentType: string | null,
): { value: unknown; text: string } | undefined {
  if (bytes.byteLength > SMALL) return undefined;
  try {
    const text = decodeBody(bytes, contentType).trim();
    return { value: JSON.parse(text) as unknown, text };
  } catch {
    return undefined; // the reading below names what is wrong
  }
}

/** null, false, [] or {}: a PHP answer of no row. */
function saysNothing(value: unknown): boolean {
  if (value === null || value === false) return true;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

/**
 * GET customers/{id} answered with nothing: PHP's fetch() of no row is false; null, [] and {}
 * say the same. Not an empty body: that is also what json_encode's failure on a real record
 * prints (`echo false`).
 */
export function absentCustomer(id: string): (body: string) => never {
  return (body) => {
    throw noSuchRecord(`the service answered ${body} for customer ${id}`);
  };
}

/**
 * A search answered with nothing: [], {} and null are no hits. Not false, which fetchAll()
 * gives when its query failed, nor an empty body (a failed json_encode): an import's duplicate
 * check trusts "no hits".
 */
export function noHits(body: string): never[] {
  if (body === 'false') throw serviceError('BadResponse', { detail: `search answered ${body}` });
  return [];
}

/** The value of a 2xx answer, or the failure it says it is. */
export async function readAnswer<S extends v.GenericSchema>(
  call: Call<S>,
  status: number,
  bytes: Uint8Array,
  contentType: string | null,
): Promise<v.InferOutput<S>> {
  if (call.method !== 'get') return readWriteAnswer(call, status, bytes, contentType);
  const small = smallJson(bytes, contentType);
  if (small !== undefined) {
    if (call.absent && saysNothing(small.value)) return call.absent(small.text);
    // A record that carries an `error` field of its own is still the record.
    const value = small.value;
    const record =
      typeof value === 'object' && value !== null && ('id' in value || 'username' in value);
    const failure = record ? undefined : phpFailureOf(value);
    if (failure !== undefined) {
      throw serviceError('BadResponse', {
        status,
        detail: `the service answered ${status} with an error: ${failure.slice(0, 300)}`,
      });
    }
  }
  // A list is read in slices, so a 100k list does not hold main's event loop for seconds.
  const list = isListSchema(call.schema) ? call.schema : null;
  const shape = call.shape ?? ((raw: unknown) => raw);
  if (!list) return validateBody(call.schema, shape(parseJsonBody(bytes, contentType)), call.what);
  if (call.reader) return listReader(list, bytes, contentType, call.what, shape);
  return decodeListBody(list, bytes, contentType, call.what, shape);
}

/**
 * A write's 2xx answer: done, whatever else the body holds (204's nothing included), unless
 * the body says it failed. Then an update, delete or custom-fields write is Rejected with the
 * service's words; a create is Ambiguous: a list decides whether it exists before anything is
 * sent again (the service's words cannot prove nothing was committed).
 */
function readWriteAnswer<S extends v.GenericSchema>(
  call: Call<S>,
  status: number,
  bytes: Uint8Array,
  contentType: string | null,
): v.InferOutput<S> {
  const blank = decodeBody(bytes, contentType).trim() === '';
  const body = blank ? undefined : parseJsonBody(bytes, contentType);
  const failure = phpFailureOf(body);
  if (failure !== undefined) {
    const detail = `the service answered ${status} with an error: ${failure.slice(0, 300)}`;
    throw serviceError(call.method === 'post' ? 'Ambiguous' : 'Rejected', { status, detail });
  }
  return validateBody(MessageResponseSchema, phpWriteAnswer(body), 'message');
}
