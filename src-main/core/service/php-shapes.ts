// Values in the shapes PHP gives them, brought to the spec's before validation: json_encode
// writes an empty array as [] or {} and a filtered one as an object keyed "0", "2"…; PDO gives
// every column as a string; an unset text column is null; an AUTO_INCREMENT id is a number. Only
// forms that mean one thing are read: "12.5" in a number field, null in a text field. Anything
// else is left for the schema to refuse by name.
import { CUSTOMER_TEXT_FIELDS } from '../../../src-shared/domain';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const INDEX = /^(0|[1-9]\d*)$/;
const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * A list as PHP may encode it: an array, {} (an empty array), or an object whose keys are all
 * array indices (a list with holes), read as its values in index order. Anything else as is.
 */
export function phpList(value: unknown): unknown {
  if (!isObject(value)) return value;
  const keys = Object.keys(value);
  if (!keys.every((k) => INDEX.test(k))) return value;
  // Integer keys: JavaScript enumerates them in ascending order.
  return keys.map((k) => value[k]);
}

/** A number sent as a numeric string, as PDO sends every column; anything else as is. */
function phpNumber(value: unknown): unknown {
  return typeof value === 'string' && NUMBER.test(value.trim()) ? Number(value) : value;
}

function phpId(value: unknown): unknown {
  return typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
}

function phpTimestamp(value: unknown): unknown {
  if (!isObject(value)) return value;
  return { ...value, timezone_type: phpNumber(value.timezone_type) };
}

/** A list field: also null, which PHP gives for an empty one. */
function phpListField(value: unknown): unknown {
  return value === null ? [] : phpList(value);
}

const CUSTOMER_TEXT = [...CUSTOMER_TEXT_FIELDS, 'color'] as const;
const NULLABLE_NUMBERS = ['latitude', 'longitude', 'lastVisit', 'remindAt'] as const;

/** A customer's values in the spec's shapes where PHP's shapes mean the same. */
export function phpCustomer(raw: unknown): unknown {
  if (!isObject(raw)) return raw;
  const c: Json = { ...raw, id: phpId(raw.id) };
  for (const key of CUSTOMER_TEXT) if (c[key] === null) c[key] = '';
  for (const key of NULLABLE_NUMBERS) c[key] = c[key] === '' ? null : phpNumber(c[key]);
  c.numVisits = phpNumber(c.numVisits);
  if ('groups' in c) c.groups = phpListField(c.groups);
  c.createdAt = phpTimestamp(c.createdAt);
  c.updatedAt = phpTimestamp(c.updatedAt);
  return c;
}

/** A route or territory in the spec's shapes. */
export function phpPointList(raw: unknown): unknown {
  if (!isObject(raw)) return raw;
  return {
    ...raw,
    id: phpId(raw.id),
    name: raw.name === null ? '' : raw.name,
    points: phpListField(raw.points),
    createdAt: phpTimestamp(raw.createdAt),
    updatedAt: phpTimestamp(raw.updatedAt),
  };
}

/** The user metadata in the spec's shapes. */
export function phpUser(raw: unknown): unknown {
  if (!isObject(raw)) return raw;
  const u: Json = { ...raw };
  for (const key of ['username', 'name', 'phone']) if (u[key] === null) u[key] = '';
  for (const key of ['numPins', 'numGroups']) u[key] = phpNumber(u[key]);
  for (const key of ['colors', 'groups', 'hiddenGroups', 'requiredGroups']) {
    if (key in u) u[key] = phpListField(u[key]);
  }
  u.createdAt = phpTimestamp(u.createdAt);
  u.updatedAt = phpTimestamp(u.updatedAt);
  return u;
}

/**
 * A body that says the request failed, whatever its status: `{"error": "…"}` (a non-empty
 * string or true), `{"success": false}`, or `false` (json_encode of a failed execute()). The
 * service's text when it is one; undefined otherwise.
 */
export function phpFailureOf(body: unknown): string | undefined {
  if (body === false) return 'false';
  if (!isObject(body)) return undefined;
  const { error, success, message } = body;
  const said = typeof message === 'string' && message !== '' ? message : undefined;
  if (typeof error === 'string' && error !== '') return said ? `${error}: ${said}` : error;
  if (error === true || success === false) return said ?? 'error';
  return undefined;
}

/**
 * A write's answer with a success status: the status says it was done, whatever the body holds
 * beyond that. The message is the body's when it has one ('' for no content, a bare string as
 * the message), and `id` the new id when the answer gives one beside the message.
 */
export function phpWriteAnswer(body: unknown): Json {
  if (typeof body === 'string') return { message: body };
  if (!isObject(body)) return { message: '' };
  // No message is an empty one; a message that is no string is left for the schema to refuse.
  const message = body.message === undefined ? '' : body.message;
  const id = phpId(body.id);
  const { id: _id, ...rest } = body;
  return { ...rest, message, ...(typeof id === 'string' && id !== '' ? { id } : {}) };
}
