// The sandboxed preload: exposes exactly one frozen object, window.fieldmap, built from the IPC
// contract. The page never gets ipcRenderer, and listeners get the payload, not the IPC event.
// Bundled to one CommonJS file that requires nothing but electron (electron.vite.config.ts).
import { contextBridge, ipcRenderer } from 'electron';
import { DATA_PORT_CHANNEL } from '../src-shared/data-port';
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

// Main's data port (src-main/shell/data-channel.ts): a MessagePort cannot pass through
// contextBridge, so it goes to the page's window with postMessage, the port transferred. Only
// main sends on this channel (ipcRenderer hears nothing else); the page takes one port, from its
// own window, and hands it to the cache worker (src-renderer/src/cache/data-port.ts).
ipcRenderer.on(DATA_PORT_CHANNEL, (event) => {
  if (event.ports.length === 1) window.postMessage(DATA_PORT_CHANNEL, '*', [...event.ports]);
});
