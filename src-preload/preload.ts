// The sandboxed preload: exposes exactly one frozen object, window.fieldmap, built from the IPC
// contract. The page never gets ipcRenderer, and listeners get the payload, not the IPC event.
// Bundled to one CommonJS file that requires nothing but electron (electron.vite.config.ts).
import { contextBridge, ipcRenderer } from 'electron';
import { buildFieldmapApi } from './bridge';

// The preload runs in the page's renderer, where navigator exists; the node tsconfig has no DOM lib.
function pageNavigator(): { userActivation?: { isActive: boolean } } | undefined {
  return (globalThis as { navigator?: { userActivation?: { isActive: boolean } } }).navigator;
}

const api = buildFieldmapApi(
  (channel, request) => ipcRenderer.invoke(channel, request),
  (event, listener) => {
    const forward = (_event: unknown, payload: unknown) => listener(payload);
    ipcRenderer.on(event, forward);
    return () => {
      ipcRenderer.removeListener(event, forward);
    };
  },
  { userActivation: () => pageNavigator()?.userActivation?.isActive ?? false },
);

contextBridge.exposeInMainWorld('fieldmap', api);
