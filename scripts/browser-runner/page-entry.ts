// The page side of the browser runner: built into an init script that runs before the app's
// own scripts in every frame. It builds `window.fieldmap` with the same bridge as Electron's
// preload, over a Playwright binding (calls) and a delivery hook (events).
import { buildFieldmapApi } from '../../src-preload/bridge';
import type { EventChannel } from '../../src-shared/ipc-contract';

type Listener = (payload: unknown) => void;
// Typed by hand: this file is type-checked with the Node config (no DOM lib), yet runs in the page.
type RunnerWindow = {
  __fieldmapInvoke?: (channel: string, request: unknown) => Promise<unknown>;
  navigator?: { userActivation?: { isActive: boolean } };
};

const runnerWindow = globalThis as unknown as RunnerWindow;
// Captured now, so a page script that later replaces the global cannot intercept calls.
const binding = runnerWindow.__fieldmapInvoke;
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
