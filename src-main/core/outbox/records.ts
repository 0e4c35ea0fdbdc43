// The shapes the outbox writes to disk (journal records, snapshot) and accepts as edits.
import * as v from 'valibot';
import {
  CustomerChangesSchema,
  CustomerFieldsSchema,
  CustomFieldsBodySchema,
  ServerIdSchema,
} from '../../../src-shared/domain';
import { OpSchema, TempIdSchema } from '../../../src-shared/outbox-types';

/** An op and its FIFO position. */
const EntrySchema = v.object({ pos: v.number(), op: OpSchema });
/** One durable change: op ids removed, then ops written. `seq` orders records against the snapshot. */
export const RecordSchema = v.object({
  seq: v.number(),
  put: v.array(EntrySchema),
  del: v.array(v.string()),
});
/** The whole queue at a compaction, with the seq of the last record it holds. */
export const SnapshotSchema = v.object({
  format: v.literal(1),
  seq: v.number(),
  entries: v.array(EntrySchema),
});

const RoutePayloadSchema = v.strictObject({
  routeName: v.pipe(v.string(), v.minLength(1), v.maxLength(1_000)),
  customerIds: v.pipe(
    v.array(v.union([TempIdSchema, ServerIdSchema])),
    v.minLength(1),
    v.maxLength(10_000),
  ),
});

/** What an edit's payload must be, per op kind (deletes have nothing to edit). */
export const EDIT_SCHEMAS = {
  createCustomer: CustomerFieldsSchema,
  updateCustomer: CustomerChangesSchema,
  createRoute: RoutePayloadSchema,
  updateCustomFields: CustomFieldsBodySchema,
} as const;
