// The outbox's ops: every change a rep makes, queued durably in main until the service has it.
import * as v from 'valibot';
import {
  CustomerChangesSchema,
  CustomerFieldsSchema,
  CustomerSchema,
  CustomFieldsBodySchema,
  ServerIdSchema,
} from './domain';
import { ErrorInfoSchema } from './errors';

/** Temp ids of records created locally: `tmp_<uuid>`. */
export const TEMP_ID_RE = /^tmp_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const TempIdSchema = v.pipe(
  v.string(),
  v.regex(TEMP_ID_RE, 'expected a temp id tmp_<uuid>'),
);

/** True for a locally created id not yet known to the service. */
export function isTempId(id: string): boolean {
  return TEMP_ID_RE.test(id);
}

/** A customer reference: a server id or a temp id. */
export const CustomerRefSchema = v.union([TempIdSchema, ServerIdSchema]);

/** An op as the renderer asks for it; main adds identity and state. */
export const NewOpSchema = v.variant('kind', [
  v.object({
    kind: v.literal('createCustomer'),
    target: TempIdSchema,
    payload: CustomerFieldsSchema,
    base: v.null(),
  }),
  v.object({
    kind: v.literal('updateCustomer'),
    target: CustomerRefSchema,
    payload: CustomerChangesSchema,
    /** The server record the rep edited (null when editing a record not yet on the server). */
    base: v.nullable(CustomerSchema),
  }),
  v.object({
    kind: v.literal('deleteCustomer'),
    target: CustomerRefSchema,
    payload: v.null(),
    base: v.nullable(CustomerSchema),
  }),
  v.object({
    kind: v.literal('createRoute'),
    target: TempIdSchema,
    payload: v.strictObject({
      routeName: v.pipe(v.string(), v.minLength(1), v.maxLength(1_000)),
      customerIds: v.pipe(v.array(CustomerRefSchema), v.minLength(1), v.maxLength(10_000)),
    }),
    base: v.null(),
  }),
  v.object({
    kind: v.literal('updateCustomFields'),
    target: v.literal('user'),
    payload: CustomFieldsBodySchema,
    base: v.null(),
  }),
]);
export type NewOp = v.InferOutput<typeof NewOpSchema>;

/**
 * Most ops in one batch enqueue ('outbox:enqueueMany'): a bulk action of more customers is sent
 * as several batches, each journaled whole or not at all. Bounds one journal line and one IPC
 * message (500 updates with their base records is well under a few MB).
 */
export const OUTBOX_BATCH_MAX = 500;
export const NewOpBatchSchema = v.pipe(
  v.array(NewOpSchema),
  v.minLength(1, 'A batch needs at least one change.'),
  v.maxLength(OUTBOX_BATCH_MAX, `A batch holds at most ${OUTBOX_BATCH_MAX} changes.`),
);

/** A replacement payload for an op the rep edits in the Changes view (checked against the op's kind in main). */
export const EditablePayloadSchema = v.union([
  CustomerFieldsSchema,
  CustomerChangesSchema,
  v.strictObject({
    routeName: v.pipe(v.string(), v.minLength(1), v.maxLength(1_000)),
    customerIds: v.pipe(v.array(CustomerRefSchema), v.minLength(1), v.maxLength(10_000)),
  }),
  CustomFieldsBodySchema,
]);

export const OP_STATES = ['pending', 'in-flight', 'done', 'needs-attention'] as const;
export type OpState = (typeof OP_STATES)[number];

const OpMetaSchema = v.object({
  opId: v.pipe(v.string(), v.minLength(1)),
  accountKey: v.string(),
  createdAt: v.number(),
  attempts: v.number(),
  lastError: v.nullable(ErrorInfoSchema),
  state: v.picklist(OP_STATES),
  /** When the request was last sent (creates: reconciliation after a crash or a lost answer). */
  sentAt: v.optional(v.nullable(v.number())),
});

/** An op in the outbox. */
export const OpSchema = v.intersect([NewOpSchema, OpMetaSchema]);
export type Op = NewOp & v.InferOutput<typeof OpMetaSchema>;

/**
 * What the service holds now of the customers an op changed, told with the op's removal from
 * the queue: the cache takes it as server data in the same write that drops the op's overlay,
 * so no view falls back to the version before the op until the next pull (issue 26).
 */
export const AcknowledgedSchema = v.object({
  upserted: v.array(CustomerSchema),
  deleted: v.array(ServerIdSchema),
});
export type Acknowledged = v.InferOutput<typeof AcknowledgedSchema>;

/** A field the rep and the service both changed to different values. */
export const ConflictSchema = v.object({
  conflictId: v.string(),
  accountKey: v.string(),
  customerId: v.string(),
  customerName: v.string(),
  field: v.string(),
  baseValue: v.unknown(),
  repValue: v.unknown(),
  serverValue: v.unknown(),
  at: v.number(),
  /** Which value the service ended with: the rep's by default, until the rep decides. */
  resolution: v.picklist(['rep-default', 'rep', 'server']),
});
export type Conflict = v.InferOutput<typeof ConflictSchema>;
