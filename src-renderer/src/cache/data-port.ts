// Electron hands the page a MessagePort for main's data (src-main/shell/data-channel.ts): main
// sends it to the preload, which cannot pass a port through contextBridge and posts it to this
// window instead. The page takes exactly one port in its life, and only from its own window
// (event.source: the preload's world or this page, never another frame), then transfers it to
// the cache worker without reading anything from it.
import { DATA_PORT_CHANNEL } from '../../../src-shared/data-port';

export function acceptDataPort(target: Window, onPort: (port: MessagePort) => void): () => void {
  const listener = (event: MessageEvent) => {
    if (event.source !== target || event.data !== DATA_PORT_CHANNEL) return;
    const [port] = event.ports;
    if (!port || event.ports.length !== 1) return;
    target.removeEventListener('message', listener);
    onPort(port);
  };
  target.addEventListener('message', listener);
  return () => target.removeEventListener('message', listener);
}
