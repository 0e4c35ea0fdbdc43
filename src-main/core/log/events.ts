// Everything the log file may hold: a closed table of events, each a strict schema of typed
// fields (ids, counts, codes from closed lists). There is no field for free text, so a password,
// a token, a service body or a customer's name or email cannot reach the file by any call: a
// value that does not fit its field is refused, and only the names of refused fields are kept.
import * as v from 'valibot';
import { APP_ERROR_KINDS, SERVICE_ERROR_KINDS } from '../../../src-shared/errors';
import { invokeChannels } from '../../../src-shared/ipc-contract';
import { ErrorNameSchema, StackFrameSchema } from '../../../src-shared/support';

const Count = v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(Number.MAX_SAFE_INTEGER));
const Int = v.pipe(v.number(), v.integer(), v.minValue(-(2 ** 31)), v.maxValue(2 ** 32));
/** Record ids, op ids, the account's folder name: letters, digits, '-' and '_', no spaces. */
const Id = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/));
/** An error code as libraries spell them (ERR_UPDATER_INVALID_RELEASE_FEED, ENOENT). */
const Code = v.pipe(v.string(), v.regex(/^[A-Z][A-Z0-9_]{0,63}$/));
const Version = v.pipe(v.string(), v.regex(/^\d{1,6}\.\d{1,6}\.\d{1,6}(-[0-9A-Za-z.]{1,32})?$/));
const ErrorKind = v.picklist([...SERVICE_ERROR_KINDS, ...APP_ERROR_KINDS]);
const Channel = v.picklist(Object.keys(invokeChannels) as [string, ...string[]]);
/** Electron's RenderProcessGoneDetails.reason. */
const GoneReason = v.picklist([
  'clean-exit',
  'abnormal-exit',
  'killed',
  'crashed',
  'oom',
  'launch-failed',
  'integrity-failure',
  'memory-eviction',
]);
const SyncKind = v.picklist([
  'signed-out',
  'offline',
  'off-network',
  'auth-required',
  'syncing',
  'synced',
  'error',
]);

export const LOG_EVENTS = {
  'app.started': v.strictObject({ version: Version }),
  /** account: the account's folder name under the data folder (a hash, not the user name). */
  'session.changed': v.strictObject({ account: v.nullable(Id), demo: v.boolean() }),
  'sync.state': v.strictObject({ state: SyncKind, queued: v.optional(Count) }),
  'ipc.failed': v.strictObject({ channel: Channel, kind: ErrorKind }),
  'renderer.error': v.strictObject({
    source: v.picklist(['error', 'unhandledrejection']),
    name: ErrorNameSchema,
    frames: v.pipe(v.array(StackFrameSchema), v.maxLength(8)),
  }),
  /** Reports the rate limit refused since the last one that was written. */
  'renderer.errorsDropped': v.strictObject({ count: Count }),
  'renderer.gone': v.strictObject({ reason: GoneReason, exitCode: Int }),
  'renderer.unresponsive': v.strictObject({}),
  'renderer.responsive': v.strictObject({}),
  'renderer.reloaded': v.strictObject({ after: v.picklist(['crashed', 'unresponsive']) }),
  /** The window crashed this often within the window of time: no more automatic reloads. */
  'renderer.crashLoop': v.strictObject({ crashes: Count }),
  'updates.disabled': v.strictObject({
    reason: v.picklist(['no-feed', 'not-https', 'invalid-url']),
  }),
  'updates.checking': v.strictObject({}),
  'updates.available': v.strictObject({ version: Version }),
  'updates.notAvailable': v.strictObject({}),
  'updates.downloaded': v.strictObject({ version: Version }),
  'updates.answer': v.strictObject({
    step: v.picklist(['download', 'install']),
    accepted: v.boolean(),
  }),
  'updates.failed': v.strictObject({ name: ErrorNameSchema, code: v.optional(Code) }),
  /** Lines lost to a full queue or a failed write, told before the next line that was not. */
  'log.dropped': v.strictObject({ count: Count }),
} as const;

export type LogEvent = keyof typeof LOG_EVENTS;
export type LogFields<E extends LogEvent> = v.InferInput<(typeof LOG_EVENTS)[E]>;

/** The JSON line of one event, or of its refusal (the event and the names of the bad fields). */
export function logLine(at: number, event: string, fields: unknown): string {
  const time = new Date(at).toISOString();
  const schema = Object.hasOwn(LOG_EVENTS, event) ? LOG_EVENTS[event as LogEvent] : null;
  const parsed = schema ? v.safeParse(schema, fields) : null;
  if (parsed?.success) return JSON.stringify({ t: time, event, ...parsed.output });
  const bad = new Set<string>();
  for (const issue of parsed?.issues ?? []) {
    const key = issue.path?.[0]?.key;
    bad.add(typeof key === 'string' && Object.hasOwn(schema?.entries ?? {}, key) ? key : '?');
  }
  // Neither the values nor a key the schema does not know are kept: either could be the secret.
  return JSON.stringify({
    t: time,
    event: 'log.refused',
    refused: schema ? event : '?',
    fields: [...bad].sort(),
  });
}
