// Domain records of the Customer Mapping Service as they travel on the wire, with the
// schemas that validate every response. The schemas are tolerant of each reading of the
// spec's gaps (timezone_type 1/2/3, dealAmount number or string, unmapped as null or 0)
// and keep unknown extra fields, but refuse wrong types.
import * as v from 'valibot';
import { TIMESTAMP_DATE_RE } from './time';

/** Longest text a single field may hold before a response is treated as bad. */
export const MAX_FIELD_CHARS = 100_000;

/** Groups one customer may name. */
export const MAX_GROUPS = 10_000;

const Text = v.pipe(v.string(), v.maxLength(MAX_FIELD_CHARS));
const Int = v.pipe(v.number(), v.integer());

/** Server object id: an opaque, non-empty string. */
export const ServerIdSchema = v.pipe(v.string(), v.minLength(1), v.maxLength(200));

/**
 * Timestamp object of the spec, as PHP's DateTime writes it: `{ date: "YYYY-MM-DD HH:MM:SS"
 * (PHP adds ".ffffff"), timezone_type: 1 offset | 2 abbreviation | 3 IANA zone, timezone }`.
 * Any zone text is accepted and kept as received: one the app cannot convert is shown as sent
 * (see readTimestamp in time.ts), never a reason to refuse a sign-in.
 */
export const TimestampSchema = v.looseObject({
  date: v.pipe(
    v.string(),
    v.regex(TIMESTAMP_DATE_RE, 'expected "YYYY-MM-DD HH:MM:SS" with optional fraction digits'),
  ),
  timezone_type: v.pipe(Int, v.minValue(1), v.maxValue(3)),
  timezone: v.pipe(v.string(), v.maxLength(64)),
});
export type Timestamp = v.InferOutput<typeof TimestampSchema>;

/** The ten custom text fields of a customer. */
export const CUSTOM_FIELD_KEYS = [
  'custom0',
  'custom1',
  'custom2',
  'custom3',
  'custom4',
  'custom5',
  'custom6',
  'custom7',
  'custom8',
  'custom9',
] as const;
export type CustomFieldKey = (typeof CUSTOM_FIELD_KEYS)[number];

/** The fields the service searches, case-insensitively. */
export const CUSTOMER_SEARCH_FIELDS = [
  'name',
  'company',
  'address',
  'city',
  'state',
  'zip',
  'country',
] as const;

/** Who and where a customer is: the searched fields, then how to reach them. */
const CONTACT_FIELDS = [...CUSTOMER_SEARCH_FIELDS, 'email', 'phone'] as const;

/** Fields a client may send on create and update (everything but id and timestamps). */
export const CUSTOMER_WRITABLE_FIELDS = [
  ...CONTACT_FIELDS,
  'color',
  'groups',
  'dealAmount',
  'notes',
  'latitude',
  'longitude',
  'lastVisit',
  'numVisits',
  'remindAt',
  'remindType',
  ...CUSTOM_FIELD_KEYS,
] as const;
export type CustomerWritableField = (typeof CUSTOMER_WRITABLE_FIELDS)[number];

/** The writable fields that hold free text (the custom fields included). */
export const CUSTOMER_TEXT_FIELDS = [
  ...CONTACT_FIELDS,
  'notes',
  'remindType',
  ...CUSTOM_FIELD_KEYS,
] as const satisfies readonly CustomerWritableField[];

const customFieldEntries = Object.fromEntries(CUSTOM_FIELD_KEYS.map((k) => [k, Text])) as Record<
  CustomFieldKey,
  typeof Text
>;

const customerFieldEntries = {
  name: Text,
  company: Text,
  address: Text,
  city: Text,
  state: Text,
  zip: Text,
  country: Text,
  email: Text,
  phone: Text,
  color: Text,
  groups: v.pipe(v.array(Text), v.maxLength(MAX_GROUPS)),
  dealAmount: v.nullable(v.union([v.pipe(v.number(), v.finite()), Text])),
  notes: Text,
  latitude: v.nullable(v.pipe(v.number(), v.finite())),
  longitude: v.nullable(v.pipe(v.number(), v.finite())),
  lastVisit: v.nullable(Int),
  numVisits: Int,
  remindAt: v.nullable(Int),
  remindType: Text,
  ...customFieldEntries,
};

/** A customer as the service returns it. */
export const CustomerSchema = v.looseObject({
  id: ServerIdSchema,
  ...customerFieldEntries,
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});
export type Customer = v.InferOutput<typeof CustomerSchema>;

/** The writable fields of a customer, all present (a complete record as sent on PUT/POST). */
export const CustomerFieldsSchema = v.strictObject(customerFieldEntries);
export type CustomerFields = v.InferOutput<typeof CustomerFieldsSchema>;

/** Some writable fields of a customer (an edit). */
export const CustomerChangesSchema = v.strictObject(
  Object.fromEntries(Object.entries(customerFieldEntries).map(([k, s]) => [k, v.optional(s)])) as {
    [K in keyof typeof customerFieldEntries]: v.OptionalSchema<
      (typeof customerFieldEntries)[K],
      undefined
    >;
  },
);
export type CustomerChanges = v.InferOutput<typeof CustomerChangesSchema>;

/** A route or territory: a named list of "<latitude>,<longitude>" points. */
export const PointListRecordSchema = v.looseObject({
  id: ServerIdSchema,
  name: Text,
  points: v.array(v.pipe(v.string(), v.maxLength(100))),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});
export const RouteSchema = PointListRecordSchema;
export type Route = v.InferOutput<typeof RouteSchema>;
export const TerritorySchema = PointListRecordSchema;
export type Territory = v.InferOutput<typeof TerritorySchema>;

/** The account's user metadata. */
export const UserMetaSchema = v.looseObject({
  username: Text,
  name: Text,
  phone: Text,
  numPins: Int,
  colors: v.array(Text),
  numGroups: Int,
  groups: v.array(Text),
  hiddenGroups: v.array(Text),
  requiredGroups: v.array(Text),
  createdAt: TimestampSchema,
  updatedAt: TimestampSchema,
});
export type UserMeta = v.InferOutput<typeof UserMetaSchema>;

/**
 * Every write endpoint answers `{ message }` ('' when the service answered no content); `id`:
 * the new record's id when the answer gives it beside the message.
 */
export const MessageResponseSchema = v.looseObject({
  message: v.pipe(v.string(), v.maxLength(10_000)),
  id: v.optional(ServerIdSchema),
});
export type MessageResponse = v.InferOutput<typeof MessageResponseSchema>;

/** Body of POST /routes. */
export const CreateRouteBodySchema = v.strictObject({
  routeName: v.pipe(v.string(), v.minLength(1), v.maxLength(1_000)),
  customerIds: v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.minLength(1)),
});
export type CreateRouteBody = v.InferOutput<typeof CreateRouteBodySchema>;

/** Body of PUT /user/customfields: custom-field names to integers. */
export const CustomFieldsBodySchema = v.pipe(
  v.record(v.pipe(v.string(), v.minLength(1), v.maxLength(200)), Int),
  v.check((o) => Object.keys(o).length > 0, 'at least one custom field is required'),
);
export type CustomFieldsBody = v.InferOutput<typeof CustomFieldsBodySchema>;

/** The 15 color names of the spec's palette. */
export const PALETTE = [
  'black',
  'green',
  'blue',
  'grey',
  'orange',
  'pink',
  'purple',
  'red',
  'teal',
  'yellow',
  'neon red',
  'neon yellow',
  'neon green',
  'neon blue',
  'neon purple',
] as const;

/** Empty values of every writable field: the base of a new customer. */
export function emptyCustomerFields(): CustomerFields {
  const custom = Object.fromEntries(CUSTOM_FIELD_KEYS.map((k) => [k, ''])) as Record<
    CustomFieldKey,
    string
  >;
  return {
    name: '',
    company: '',
    address: '',
    city: '',
    state: '',
    zip: '',
    country: '',
    email: '',
    phone: '',
    color: 'blue',
    groups: [],
    dealAmount: null,
    notes: '',
    latitude: null,
    longitude: null,
    lastVisit: 0,
    numVisits: 0,
    remindAt: 0,
    remindType: '',
    ...custom,
  };
}

/** The writable fields of a server record (drops id, timestamps and unknown extras). */
export function writableFieldsOf(customer: Customer | CustomerFields): CustomerFields {
  const out = emptyCustomerFields() as Record<string, unknown>;
  for (const key of CUSTOMER_WRITABLE_FIELDS) out[key] = (customer as Record<string, unknown>)[key];
  return out as CustomerFields;
}
