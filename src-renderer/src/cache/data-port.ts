// Electron hands the page a MessagePort for main's data (src-main/shell/data-channel.ts): main
// sends it to the preload, which cannot pass a port through contextBridge and posts it to this
// window instead. The page takes a port only from its own window (event.source: the preload's
// world or this page, never another frame or window) and transfers it to the cache worker
// without reading anything from it. Main sends a new one after each load of the page; should it
// send another in the same page's life, the worker listens on that one too (main closed the old).
import { DATA_PORT_CHANNEL } from '../../../src-shared/data-port';

export function acceptDataPort(target: Window, onPort: (port: MessagePort) => void): () => void {
  const listener = (event: MessageEvent) => {
    if (event.source !== target || event.data !== DATA_PORT_CHANNEL) return;
    const [port] = event.ports;
    if (port && event.ports.length === 1) onPort(port);
  };
  target.addEventListener('message', listener);
  return () => target.removeEventListener('message', listener);
}
