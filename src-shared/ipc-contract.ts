// The one IPC contract between the renderer and main. Every channel is `domain:verb`, with a
// request schema main validates and a response schema the types come from. The preload turns
// the table into the frozen `window.fieldmap` object; main registers one handler per channel.
import * as v from 'valibot';
import {
  CustomerSchema,
  RouteSchema,
  ServerIdSchema,
  TerritorySchema,
  UserMetaSchema,
} from './domain';
import {
  BasemapSettingsViewSchema,
  DEFAULT_DOWNLOAD_MAX_ZOOM,
  OfflineRegionSchema,
  RegionAreaSchema,
  RegionDownloadStatusSchema,
  RegionEstimateSchema,
  TILE_CACHE_MAX_BYTES,
  TILE_CACHE_MIN_BYTES,
} from './basemap';
import { ImportIdSchema, ImportStatusSchema, StartImportRequestSchema } from './csv-customers';
import { RoadMessageSchema } from './data-road';
import { ReadSpreadsheetRequestSchema, SheetTableSchema } from './spreadsheet';
import { ERROR_MESSAGES, ErrorInfoSchema, TaxonomyError } from './errors';
import {
  AcknowledgedSchema,
  ConflictSchema,
  EditablePayloadSchema,
  NewOpBatchSchema,
  NewOpSchema,
  OpSchema,
} from './outbox-types';
import { RendererErrorReportSchema, ShellNoticeSchema } from './support';
import { SyncStateSchema } from './sync-state';

/** A remembered account. Never carries the password. */
export const AccountSummarySchema = v.object({
  accountKey: v.string(),
  baseUrl: v.string(),
  username: v.string(),
  demo: v.boolean(),
});
export type AccountSummary = v.InferOutput<typeof AccountSummarySchema>;

const Empty = v.optional(v.undefined());
const OpIdRequest = v.strictObject({ opId: v.pipe(v.string(), v.minLength(1), v.maxLength(100)) });
const RegionId = v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,64}$/));
const DownloadId = v.pipe(v.string(), v.uuid());
const DownloadMaxZoom = v.optional(
  v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(15, 'The max zoom is at most 15')),
  DEFAULT_DOWNLOAD_MAX_ZOOM,
);

/** Invoke channels: renderer asks, main answers. `method` is the name on window.fieldmap. */
export const invokeChannels = {
  'accounts:list': {
    method: 'listAccounts',
    request: Empty,
    response: v.array(AccountSummarySchema),
  },
  'session:current': {
    method: 'currentAccount',
    request: Empty,
    response: v.nullable(AccountSummarySchema),
  },
  'session:login': {
    method: 'login',
    request: v.strictObject({
      baseUrl: v.pipe(v.string(), v.minLength(1), v.maxLength(2_000)),
      username: v.pipe(v.string(), v.minLength(1), v.maxLength(500)),
      password: v.pipe(v.string(), v.minLength(1), v.maxLength(1_000)),
    }),
    response: AccountSummarySchema,
  },
  'session:demo': { method: 'startDemo', request: Empty, response: AccountSummarySchema },
  'session:switch': {
    method: 'switchAccount',
    request: v.strictObject({ accountKey: v.pipe(v.string(), v.minLength(1), v.maxLength(3_000)) }),
    response: AccountSummarySchema,
  },
  'session:logout': {
    method: 'logout',
    request: v.strictObject({
      accountKey: v.pipe(v.string(), v.minLength(1), v.maxLength(3_000)),
      /** Must be true to sign out while changes are unsynced (they are dropped). */
      dropUnsynced: v.boolean(),
    }),
    response: v.object({ signedOut: v.boolean(), unsynced: v.number() }),
  },
  'sync:now': { method: 'syncNow', request: Empty, response: SyncStateSchema },
  'sync:state': { method: 'syncState', request: Empty, response: SyncStateSchema },
  /**
   * Opens a new road to the cache worker (src-shared/data-road.ts): main first posts its state as
   * it is now (session, sync state, outbox), then the last snapshot the page's cache lacks
   * (`accountKey`, `newerThan`: the account the page's cache holds and its pulledAt). The page's
   * start, and its one recovery.
   */
  'data:open': {
    method: 'openRoad',
    request: v.object({
      accountKey: v.nullable(v.pipe(v.string(), v.maxLength(3_000))),
      newerThan: v.nullable(v.number()),
    }),
    response: v.boolean(),
  },
  'outbox:enqueue': { method: 'enqueue', request: NewOpSchema, response: OpSchema },
  /** A bulk action's changes, journaled as one record (at most OUTBOX_BATCH_MAX per call). */
  'outbox:enqueueMany': {
    method: 'enqueueMany',
    request: NewOpBatchSchema,
    response: v.array(OpSchema),
  },
  'outbox:list': { method: 'listOps', request: Empty, response: v.array(OpSchema) },
  'outbox:retry': { method: 'retryOp', request: OpIdRequest, response: OpSchema },
  'outbox:edit': {
    method: 'editOp',
    request: v.strictObject({
      opId: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
      payload: EditablePayloadSchema,
    }),
    response: OpSchema,
  },
  'outbox:discard': { method: 'discardOp', request: OpIdRequest, response: v.boolean() },
  /**
   * The records offered for a create whose outcome stayed ambiguous ("Is this the customer you
   * created?"); null when the op is not waiting for that answer.
   */
  'outbox:create-candidates': {
    method: 'createCandidates',
    request: OpIdRequest,
    response: v.nullable(v.array(CustomerSchema)),
  },
  /** The rep's answer: one candidate's id (adopted, nothing sent), or null ("create it"). */
  'outbox:choose-created': {
    method: 'chooseCreated',
    request: v.strictObject({
      opId: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
      customerId: v.nullable(ServerIdSchema),
    }),
    response: v.boolean(),
  },
  'conflicts:list': { method: 'listConflicts', request: Empty, response: v.array(ConflictSchema) },
  'conflicts:resolve': {
    method: 'resolveConflict',
    request: v.strictObject({
      conflictId: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
      choice: v.picklist(['rep', 'server']),
    }),
    response: ConflictSchema,
  },
  'customers:search': {
    method: 'searchService',
    request: v.strictObject({ term: v.pipe(v.string(), v.minLength(1), v.maxLength(500)) }),
    response: v.array(CustomerSchema),
  },
  /** Queues an import's rows as creates in main (survives restarts; never creates a row twice). */
  'import:start': {
    method: 'startImport',
    request: StartImportRequestSchema,
    response: ImportStatusSchema,
  },
  /** The current account's imports; resumes any that a restart interrupted. */
  'import:list': { method: 'listImports', request: Empty, response: v.array(ImportStatusSchema) },
  /** Forgets a finished import. */
  'import:dismiss': {
    method: 'dismissImport',
    request: v.strictObject({ importId: ImportIdSchema }),
    response: v.boolean(),
  },
  /**
   * Reads the first sheet of an .xlsx the rep picked into headers and text rows, as a CSV file
   * gives them (spreadsheet.ts); the import then maps and checks it like a CSV file.
   */
  'import:read-spreadsheet': {
    method: 'readSpreadsheet',
    request: ReadSpreadsheetRequestSchema,
    response: SheetTableSchema,
  },
  /** Offline regions (PMTiles archives copied into the app's data dir), in drawing order. */
  'regions:list': { method: 'listRegions', request: Empty, response: v.array(OfflineRegionSchema) },
  /** Opens main's file dialog and adds the chosen archive; null when the user cancels. */
  'regions:pick': {
    method: 'pickRegionFile',
    request: Empty,
    response: v.nullable(OfflineRegionSchema),
  },
  'regions:remove': {
    method: 'removeRegion',
    request: v.strictObject({ id: v.pipe(v.string(), v.regex(/^[a-z0-9-]{1,64}$/)) }),
    response: v.boolean(),
  },
  /** Size and tile count of an area from the source's directories (a few range requests). */
  'regions:estimate': {
    method: 'estimateRegion',
    request: v.strictObject({ area: RegionAreaSchema, maxZoom: DownloadMaxZoom }),
    response: RegionEstimateSchema,
  },
  /**
   * Downloads an area from the source set in the basemap settings into a new region; with
   * `replaces`, the region it updates is removed once the new one is in place.
   */
  'regions:download': {
    method: 'downloadRegion',
    request: v.strictObject({
      area: RegionAreaSchema,
      maxZoom: DownloadMaxZoom,
      name: v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200)),
      replaces: v.optional(RegionId),
    }),
    response: RegionDownloadStatusSchema,
  },
  /** Downloads under way or paused (a restart leaves interrupted ones paused). */
  'regions:downloads': {
    method: 'listRegionDownloads',
    request: Empty,
    response: v.array(RegionDownloadStatusSchema),
  },
  'regions:pause': {
    method: 'pauseRegionDownload',
    request: v.strictObject({ id: DownloadId }),
    response: RegionDownloadStatusSchema,
  },
  'regions:resume': {
    method: 'resumeRegionDownload',
    request: v.strictObject({ id: DownloadId }),
    response: RegionDownloadStatusSchema,
  },
  /** Stops a download and deletes what it fetched. */
  'regions:cancel': {
    method: 'cancelRegionDownload',
    request: v.strictObject({ id: DownloadId }),
    response: v.boolean(),
  },
  'basemap:settings': {
    method: 'basemapSettings',
    request: Empty,
    response: BasemapSettingsViewSchema,
  },
  /** onlineStyleUrl: https (http on loopback only), null to turn the online style off. */
  'basemap:set-settings': {
    method: 'setBasemapSettings',
    request: v.strictObject({
      onlineStyleUrl: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(2_000)))),
      /** The PMTiles archive regions are downloaded from: https (http on loopback only). */
      regionSourceUrl: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(2_000)))),
      cacheCapBytes: v.optional(
        v.pipe(
          v.number(),
          v.integer(),
          v.minValue(TILE_CACHE_MIN_BYTES, 'The tile cache must hold at least 10 MB'),
          v.maxValue(TILE_CACHE_MAX_BYTES, 'The tile cache can hold at most 10 GB'),
        ),
      ),
    }),
    response: BasemapSettingsViewSchema,
  },
  'shell:open-external': {
    method: 'openExternal',
    request: v.strictObject({
      url: v.pipe(v.string(), v.maxLength(2_000)),
      /** Set by the preload from navigator.userActivation.isActive; main opens only when true. */
      userActivated: v.optional(v.boolean()),
    }),
    response: v.boolean(),
  },
  /** An uncaught error of the page, for main's log (rate-limited there); true when written. */
  'log:renderer-error': {
    method: 'reportError',
    request: RendererErrorReportSchema,
    response: v.boolean(),
  },
  /**
   * The customer a reminder's click or a fieldmap:// link asked to open, once; null when none
   * waits. accountKey null: the open account; customerId null: "Due today".
   */
  'customer:take-open': {
    method: 'takeOpen',
    request: Empty,
    response: v.nullable(
      v.object({ accountKey: v.nullable(v.string()), customerId: v.nullable(v.string()) }),
    ),
  },
  /** Why main reloaded this page (a crash, a hang), told once; null when it did not. */
  'shell:take-notice': {
    method: 'takeNotice',
    request: Empty,
    response: v.nullable(ShellNoticeSchema),
  },
} as const;

export type InvokeChannel = keyof typeof invokeChannels;
export type RequestOf<C extends InvokeChannel> = v.InferInput<
  (typeof invokeChannels)[C]['request']
>;
export type ResponseOf<C extends InvokeChannel> = v.InferOutput<
  (typeof invokeChannels)[C]['response']
>;

/** The shape every invoke answer takes on the wire: errors are values, not thrown objects. */
export type IpcResult<T> =
  { ok: true; value: T } | { ok: false; error: v.InferOutput<typeof ErrorInfoSchema> };

const RecordDelta = <T extends v.GenericSchema>(record: T) =>
  v.object({ upserted: v.array(record), deleted: v.array(ServerIdSchema) });

/** Events: main tells, renderer listens. */
export const eventChannels = {
  'sync:state': SyncStateSchema,
  'session:changed': v.nullable(AccountSummarySchema),
  'data:snapshot': v.object({
    accountKey: v.string(),
    pulledAt: v.number(),
    user: UserMetaSchema,
    customers: v.array(CustomerSchema),
    routes: v.array(RouteSchema),
    territories: v.array(TerritorySchema),
  }),
  'data:delta': v.object({
    accountKey: v.string(),
    pulledAt: v.number(),
    /** The pull this one is the difference from: the cache applies it only over that pull. */
    base: v.optional(v.nullable(v.number()), null),
    /**
     * Every id the service has now, when main diffed against prints it read back after a restart
     * (they miss what the cache took since): the cache drops any other record.
     */
    present: v.optional(
      v.nullable(
        v.object({
          customers: v.array(ServerIdSchema),
          routes: v.array(ServerIdSchema),
          territories: v.array(ServerIdSchema),
        }),
      ),
      null,
    ),
    user: v.nullable(UserMetaSchema),
    customers: RecordDelta(CustomerSchema),
    routes: RecordDelta(RouteSchema),
    territories: RecordDelta(TerritorySchema),
  }),
  /**
   * A message of the road to the cache worker that came through the page (src-shared/data-road.ts):
   * the page hands it on unread. The session, sync state, outbox, id and data events above reach
   * the page only this way, as the worker applies them.
   */
  'data:road': RoadMessageSchema,
  /**
   * `acknowledged`: the service's version of what the op that just left the queue changed;
   * `reached`: the ops that left it because the service has them (a discarded one is not).
   */
  'outbox:changed': v.object({
    accountKey: v.string(),
    ops: v.array(OpSchema),
    acknowledged: v.optional(AcknowledgedSchema),
    reached: v.optional(v.array(v.string())),
  }),
  'ids:resolved': v.object({
    accountKey: v.string(),
    kind: v.picklist(['customer', 'route']),
    tempId: v.string(),
    id: v.string(),
  }),
  'conflicts:changed': v.object({ accountKey: v.string(), conflicts: v.array(ConflictSchema) }),
  /** Something outside the page asks to open a customer (a reminder, a link): take it. */
  'customer:open': v.object({}),
  /** A region download progressed, paused, failed or finished. */
  'regions:progress': RegionDownloadStatusSchema,
  /** Regions or basemap settings changed (from the panel or the File menu): redraw the basemap. */
  'basemap:changed': v.object({
    regions: v.array(OfflineRegionSchema),
    settings: BasemapSettingsViewSchema,
  }),
} as const;

export type EventChannel = keyof typeof eventChannels;
export type EventOf<E extends EventChannel> = v.InferOutput<(typeof eventChannels)[E]>;

type MethodOf<C extends InvokeChannel> = (typeof invokeChannels)[C]['method'];

/** The type of `window.fieldmap`, derived from the contract. */
export type FieldmapApi = {
  [C in InvokeChannel as MethodOf<C>]: undefined extends RequestOf<C>
    ? (request?: RequestOf<C>) => Promise<ResponseOf<C>>
    : (request: RequestOf<C>) => Promise<ResponseOf<C>>;
} & {
  /** Subscribes to a main-process event; returns the unsubscribe function. */
  on<E extends EventChannel>(event: E, listener: (payload: EventOf<E>) => void): () => void;
};

/** A refused window.fieldmap call, as the renderer handles it: `toFieldmapError(rejection)`. */
export class FieldmapError extends TaxonomyError {
  override readonly name = 'FieldmapError';

  constructor(info: v.InferOutput<typeof ErrorInfoSchema>) {
    super(info);
  }
}

/**
 * What a window.fieldmap call rejects with when main answers `{ ok: false }`: a plain object,
 * not an Error, because Electron's contextBridge copies only the message of an Error and would
 * drop `info`. It reads like one (`name`, `message`, `info`).
 */
export type FieldmapRejection = {
  name: 'FieldmapError';
  message: string;
  info: v.InferOutput<typeof ErrorInfoSchema>;
};

/** The FieldmapError behind any rejection of a window.fieldmap call (Internal when unrecognised). */
export function toFieldmapError(error: unknown): FieldmapError {
  if (error instanceof FieldmapError) return error;
  const info =
    typeof error === 'object' && error !== null && 'info' in error ? error.info : undefined;
  const parsed = v.safeParse(ErrorInfoSchema, info);
  if (parsed.success) return new FieldmapError(parsed.output);
  return new FieldmapError({ kind: 'Internal', message: ERROR_MESSAGES.Internal });
}
