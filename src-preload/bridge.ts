// Builds `window.fieldmap` from the IPC contract: one task-level method per invoke channel and
// `on` for the contract's events. The preload gives it ipcRenderer wrappers; the browser runner's
// page script gives it its own transport. It never hands out the transport itself.
// A refused call rejects with a FieldmapRejection (plain data), the same in Electron and in the
// browser runner: contextBridge would copy only the message of a thrown Error and drop `info`.
import { errorInfo, type ErrorInfo } from '../src-shared/errors';
import {
  eventChannels,
  invokeChannels,
  type EventChannel,
  type FieldmapApi,
  type FieldmapRejection,
  type InvokeChannel,
  type IpcResult,
} from '../src-shared/ipc-contract';

/** Sends one call to main and resolves with main's IpcResult. */
export type InvokeTransport = (channel: InvokeChannel, request: unknown) => Promise<unknown>;
/** Subscribes to one event channel; the listener receives only the payload. Returns unsubscribe. */
export type SubscribeTransport = (
  event: EventChannel,
  listener: (payload: unknown) => void,
) => () => void;

export interface BridgeOptions {
  /** Whether the page has a live user activation (a click right now): navigator.userActivation.isActive. */
  userActivation?: () => boolean;
}

function isIpcResult(value: unknown): value is IpcResult<unknown> {
  return (
    typeof value === 'object' && value !== null && 'ok' in value && typeof value.ok === 'boolean'
  );
}

/** The renderer turns this into a FieldmapError with toFieldmapError (src-shared). */
function rejection(info: ErrorInfo): Promise<never> {
  const value: FieldmapRejection = { name: 'FieldmapError', message: info.message, info };
  return Promise.reject(value);
}

function unwrap(result: unknown): unknown {
  if (!isIpcResult(result)) {
    return rejection(errorInfo('Internal', { detail: 'main answered without an IpcResult' }));
  }
  return result.ok ? result.value : rejection(result.error);
}

function isEventChannel(event: string): event is EventChannel {
  return Object.hasOwn(eventChannels, event);
}

export function buildFieldmapApi(
  invoke: InvokeTransport,
  subscribe: SubscribeTransport,
  options: BridgeOptions = {},
): FieldmapApi {
  const api: Record<string, unknown> = {};
  for (const channel of Object.keys(invokeChannels) as InvokeChannel[]) {
    api[invokeChannels[channel].method] = async (request?: unknown) => {
      let payload = request;
      if (channel === 'shell:open-external') {
        // The user-activation flag comes from here, never from the page's own arguments; main
        // refuses the call without it.
        const url = (request as { url?: unknown } | undefined)?.url;
        payload = { url, userActivated: options.userActivation?.() ?? false };
      }
      let result: unknown;
      try {
        result = await invoke(channel, payload);
      } catch {
        // A transport failure (no handler, window closing): a taxonomy error, not a raw one.
        return rejection(errorInfo('Internal', { detail: `${channel} could not reach main` }));
      }
      return unwrap(result);
    };
  }
  api.on = (event: string, listener: (payload: unknown) => void): (() => void) => {
    if (!isEventChannel(event)) throw new TypeError(`Unknown Fieldmap event: ${String(event)}`);
    if (typeof listener !== 'function') throw new TypeError('listener must be a function');
    return subscribe(event, (payload) => listener(payload));
  };
  // Built from the contract's tables, so its shape is FieldmapApi by construction.
  return Object.freeze(api) as unknown as FieldmapApi;
}
