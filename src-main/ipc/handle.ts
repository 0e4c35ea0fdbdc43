// The one door into main for renderer calls. Electron's ipcMain.handle and the browser runner
// both call `dispatch`, which refuses unknown channels and foreign frames, validates the payload
// with the contract's schema, and turns every outcome into an IpcResult value. Plain Node: no
// electron import, so it is tested directly.
import * as v from 'valibot';
import { ErrorInfoSchema, errorInfo, type ErrorInfo } from '../../src-shared/errors';
import {
  invokeChannels,
  type InvokeChannel,
  type IpcResult,
  type RequestOf,
  type ResponseOf,
} from '../../src-shared/ipc-contract';

/** One handler per invoke channel; the request is already validated. */
export type IpcHandlers = {
  [C in InvokeChannel]: (request: RequestOf<C>) => Promise<ResponseOf<C>>;
};

/** What main knows about the frame that sent a call (Electron: event.senderFrame). */
export interface SenderFrameInfo {
  /** The frame's URL; undefined when the frame is gone or unknown. */
  url: string | undefined;
  /** True only for the top frame of the window (no parent frame). */
  isTopFrame: boolean;
}

export interface IpcRouterOptions {
  isTrustedSender: (frame: SenderFrameInfo) => boolean;
  /** Where refusals are reported. Never given payloads. */
  log?: (message: string) => void;
}

export interface IpcRouter {
  dispatch(
    channel: string,
    sender: SenderFrameInfo,
    rawRequest: unknown,
  ): Promise<IpcResult<unknown>>;
}

/** The app's own origin as served by the `app://` protocol. */
export const APP_ORIGIN = 'app://fieldmap';

/**
 * `scheme://host[:port]` of a URL, or null. Node's URL gives the opaque origin "null" for
 * non-special schemes such as app:, so the origin is rebuilt from its parts.
 */
export function originOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.host ? `${parsed.protocol}//${parsed.host}` : null;
  } catch {
    return null;
  }
}

/** A sender check: the top frame of a page whose origin is one of `origins`. */
export function topFrameOfOrigins(origins: readonly string[]): (frame: SenderFrameInfo) => boolean {
  const allowed = new Set(origins);
  return (frame) => {
    const origin = originOf(frame.url);
    return frame.isTopFrame && origin !== null && allowed.has(origin);
  };
}

function isInvokeChannel(channel: string): channel is InvokeChannel {
  return Object.hasOwn(invokeChannels, channel);
}

/** The dotted path of a valibot issue (`payload.latitude`), or null at the top level. */
function issuePath(issue: v.BaseIssue<unknown>): string | null {
  const keys = (issue.path ?? []).map((item) => String(item.key));
  return keys.length > 0 ? keys.join('.') : null;
}

function invalidRequest(channel: string, issues: readonly v.BaseIssue<unknown>[]): ErrorInfo {
  const first = issues[0];
  const field = first ? issuePath(first) : null;
  const what = first?.message ?? 'invalid value';
  const message = field
    ? `Invalid request for ${channel}: field "${field}": ${what}`
    : `Invalid request for ${channel}: ${what}`;
  return errorInfo('InvalidRequest', field ? { message, field } : { message });
}

/** A thrown value that carries a taxonomy error (ServiceError, AppError, FieldmapError...). */
function carriedInfo(error: unknown): ErrorInfo | null {
  if (typeof error !== 'object' || error === null || !('info' in error)) return null;
  // The object schema strips unknown keys, so nothing beyond ErrorInfo's fields crosses IPC.
  const parsed = v.safeParse(ErrorInfoSchema, error.info);
  return parsed.success ? parsed.output : null;
}

/**
 * An unknown error for the main-process log: its name and stack frames, not its message or
 * properties, which may quote user data or (ky's request/options) the Authorization header.
 */
function describeForLog(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  return [error.name, ...frames.slice(0, 8)].join('\n');
}

export function createIpcRouter(handlers: IpcHandlers, options: IpcRouterOptions): IpcRouter {
  const log = options.log ?? ((message: string) => console.warn(message));

  async function dispatch(
    channel: string,
    sender: SenderFrameInfo,
    rawRequest: unknown,
  ): Promise<IpcResult<unknown>> {
    if (!isInvokeChannel(channel)) {
      log(`[ipc] refused unknown channel ${JSON.stringify(channel.slice(0, 100))}`);
      return {
        ok: false,
        error: errorInfo('InvalidRequest', {
          message: `Refused: unknown channel ${channel.slice(0, 100)}`,
        }),
      };
    }
    if (!options.isTrustedSender(sender)) {
      const where = sender.url?.slice(0, 200) ?? 'unknown frame';
      log(`[ipc] refused ${channel} from a foreign frame (${where}, top=${sender.isTopFrame})`);
      return {
        ok: false,
        error: errorInfo('InvalidRequest', {
          message: `Refused: call from a foreign frame (${where})`,
        }),
      };
    }
    const parsed = v.safeParse(invokeChannels[channel].request, rawRequest);
    if (!parsed.success) {
      const error = invalidRequest(channel, parsed.issues);
      log(`[ipc] refused ${channel}: ${error.field ?? 'request'} invalid`);
      return { ok: false, error };
    }
    // The table is keyed by channel, so the handler's request type matches the schema's output;
    // TypeScript cannot correlate the two through the union of channels.
    const handler = handlers[channel] as (request: unknown) => Promise<unknown>;
    try {
      return { ok: true, value: await handler(parsed.output) };
    } catch (error) {
      const info = carriedInfo(error);
      if (info) return { ok: false, error: info };
      // Unknown failures stay in main: the renderer gets the kind, not the stack or message.
      log(`[ipc] ${channel} failed: ${describeForLog(error)}`);
      return { ok: false, error: errorInfo('Internal') };
    }
  }

  return { dispatch };
}
