// The page side of the browser runner: built into an init script that runs before the app's
// own scripts in every frame. It builds `window.fieldmap` with the same bridge as Electron's
// preload, over a Playwright binding (calls) and a delivery hook (events).
import { buildFieldmapApi } from '../../src-preload/bridge';
import type { EventChannel } from '../../src-shared/ipc-contract';
import { DATA_PORT_CHANNEL } from '../../src-shared/data-port';
import { DATA_SOCKET_BINDING, RELAY_PATH } from './data-socket-names';

type Listener = (payload: unknown) => void;
// Typed by hand: this file is type-checked with the Node config (no DOM lib), yet runs in the page.
type PortLike = object;
type RunnerWindow = {
  __fieldmapInvoke?: (channel: string, request: unknown) => Promise<unknown>;
  [DATA_SOCKET_BINDING]?: () => Promise<string | null>;
  navigator?: { userActivation?: { isActive: boolean } };
  top?: unknown;
  addEventListener?: (type: string, listener: () => void, options?: { once: boolean }) => void;
  postMessage?: (message: unknown, target: string, transfer: PortLike[]) => void;
  MessageChannel?: new () => { port1: PortLike; port2: PortLike };
  Worker?: new (url: string) => {
    postMessage(message: unknown, transfer: PortLike[]): void;
  };
};

const runnerWindow = globalThis as unknown as RunnerWindow;
// Captured now, so a page script that later replaces the global cannot intercept calls.
const binding = runnerWindow.__fieldmapInvoke;
const dataSocket = runnerWindow[DATA_SOCKET_BINDING];
const listeners = new Map<EventChannel, Set<Listener>>();

const api = buildFieldmapApi(
  (channel, request) =>
    binding
      ? binding(channel, request)
      : Promise.reject(new Error('the runner binding is missing')),
  (event, listener) => {
    const set = listeners.get(event) ?? new Set<Listener>();
    listeners.set(event, set);
    set.add(listener);
    return () => void set.delete(listener);
  },
  { userActivation: () => runnerWindow.navigator?.userActivation?.isActive ?? false },
);

Object.defineProperty(globalThis, 'fieldmap', {
  value: api,
  enumerable: true,
  writable: false,
  configurable: false,
});
// Main delivers events through page.evaluate, which runs in this (the page's) world: unlike
// Electron's isolated preload, a page script could call this hook, but it only fans an event
// out to the page's own listeners.
Object.defineProperty(globalThis, '__fieldmapDeliver', {
  value: (event: EventChannel, payload: unknown) => {
    for (const listener of listeners.get(event) ?? []) {
      try {
        listener(payload);
      } catch (error) {
        console.error(error);
      }
    }
  },
  writable: false,
  configurable: false,
});

// Main's data port, as Electron's preload hands it over once the page has loaded (main sends it
// on did-finish-load): a MessageChannel whose one end goes to the page's window, for the app to
// transfer to its cache worker, and whose other end goes to a relay worker that joins it to the
// runner's socket (data-socket.ts). Only the top frame: the runner answers no other.
if (dataSocket && runnerWindow.top === globalThis) {
  runnerWindow.addEventListener?.(
    'load',
    () => {
      void dataSocket()
        .then((address) => {
          const { MessageChannel, Worker } = runnerWindow;
          if (!address || !MessageChannel || !Worker) return;
          const channel = new MessageChannel();
          new Worker(RELAY_PATH).postMessage(address, [channel.port1]);
          runnerWindow.postMessage?.(DATA_PORT_CHANNEL, '*', [channel.port2]);
        })
        // No socket: main's pieces go through the page, as under Electron before the port.
        .catch((error: unknown) => console.error('fieldmap runner: no data socket', error));
    },
    { once: true },
  );
}
