// The sandboxed preload: exposes exactly one frozen object, window.fieldmap, built from the IPC
// contract. The page never gets ipcRenderer, and listeners get the payload, not the IPC event.
// Bundled to one CommonJS file that requires nothing but electron (electron.vite.config.ts).
import { contextBridge, ipcRenderer } from 'electron';
import { buildFieldmapApi } from './bridge';

const api = buildFieldmapApi(
  (channel, request) => ipcRenderer.invoke(channel, request),
  (event, listener) => {
    const forward = (_event: unknown, payload: unknown) => listener(payload);
    ipcRenderer.on(event, forward);
    return () => {
      ipcRenderer.removeListener(event, forward);
    };
  },
  { userActivation: () => navigator.userActivation?.isActive ?? false },
);

contextBridge.exposeInMainWorld('fieldmap', api);
