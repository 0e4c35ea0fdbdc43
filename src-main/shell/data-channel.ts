// Electron's data channel: the road's messages (src-shared/data-road.ts) go to the renderer's cache
// worker over a MessagePort, so the page never relays their records (the browser runner joins the
// same port to a loopback socket: scripts/browser-runner/data-socket.ts). Each page load gets a new
// channel: main sends one end to the preload (webContents.postMessage), which posts it to the
// page's window (a port cannot pass through contextBridge), and the page transfers it to the
// cache worker (src-renderer/src/cache/data-port.ts). Main uses the port only once the worker has
// answered on it (DATA_PORT_READY); until then messages go over IPC as 'data:road' events, which
// the page hands on to the worker. From the moment the page starts loading again the road is
// closed: the new page opens one.
import { DATA_PORT_CHANNEL, DATA_PORT_READY, readTook } from '../../src-shared/data-port';
import type { Road } from '../../src-shared/data-road';
import type { ShellDataPorts, ShellMessagePortMain, ShellWebContents } from './shell-deps';

export interface DataChannel {
  /** Where the road's next message goes: the worker's port, or null (use IPC). */
  direct(): ((text: string) => void) | null;
}

export function attachDataChannel(
  contents: ShellWebContents,
  ports: ShellDataPorts | undefined,
  road: Road,
): DataChannel {
  contents.on('did-start-loading', () => road.close());
  let port: ShellMessagePortMain | null = null;
  let ready = false;
  const drop = () => {
    port?.close();
    port = null;
    ready = false;
  };
  if (ports) {
    contents.on('did-start-loading', drop);
    contents.on('did-finish-load', () => {
      drop();
      const channel = new ports.MessageChannelMain();
      const own = channel.port1;
      own.on('message', (event) => {
        if (port !== own) return;
        if (event.data === DATA_PORT_READY) ready = true;
        // The worker took a message off the port: a stream waiting for room may send on.
        const took = readTook(event.data);
        if (took) road.took(took.road, took.seq);
      });
      own.start();
      port = own;
      ports.postPort(contents, DATA_PORT_CHANNEL, channel.port2);
    });
  }
  return {
    direct() {
      const open = port;
      if (!ready || !open || contents.isDestroyed()) return null;
      // As text, as the browser runner sends it: the worker parses it once, and hands the text of
      // a snapshot's customers on to the page (renderer cache/snapshot-stage.ts) without a clone.
      return (text) => open.postMessage(text);
    },
  };
}
