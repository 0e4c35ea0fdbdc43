// The browser runner's stand-in for Electron's data port (src-main/shell/data-channel.ts).
//
// Electron's main hands each page load a MessagePort; the page transfers it to the cache worker,
// which answers DATA_PORT_READY on it, and from then on main's pieces reach the worker without
// crossing the UI thread. Main here is this Node process, which cannot own a port in the page,
// so the port's far end lives in a small relay worker of the page's (RELAY_SCRIPT) that joins it
// to a WebSocket on loopback: pieces go Node -> socket -> relay worker -> port -> cache worker,
// and the app's code is the same as under Electron (src-renderer/src/cache/data-port.ts, the
// worker's port).
//
// Why not CDP (what the runner did before): each piece crossed as a Runtime.evaluate argument,
// escaped into a protocol message, parsed by the browser and again by the worker's inspector:
// ~5 s of CPU across the runner and Chromium per 100k first sync on a 2-core machine, a cost
// Electron's port does not have, so the scale bench measured the runner and not the app. It also
// needed a hook in the product's worker that Electron never used.
//
// Only loopback, one random token per runner and one random id per page load: a socket is bound
// to the page that asked for it (through a Playwright binding, which names the asking page), and
// the only messages a page may send on it are DATA_PORT_READY and the worker's took reports.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { WebSocketServer, type WebSocket } from 'ws';
import { DATA_PORT_READY, readTook } from '../../src-shared/data-port';

export { DATA_SOCKET_BINDING, RELAY_PATH } from './data-socket-names';

/**
 * The relay worker (served at RELAY_PATH: a worker must be same-origin): takes the socket's
 * address and the port's far end, and passes text both ways (pieces in, the cache worker's
 * DATA_PORT_READY out). The port waits (its messages queue) until the socket is open; a socket
 * that opened and closed closes the port. One that could not open (the page loaded while the
 * runner had the browser offline) is tried again, every 1 s up to every 8 s: under Electron the
 * port does not depend on the network. `failedAttempts` counts those (tests read it).
 */
export const RELAY_SCRIPT = `'use strict';
self.failedAttempts = 0;
self.onmessage = (event) => {
  self.onmessage = null;
  const port = event.ports[0];
  let wait = 1000;
  const connect = () => {
    const socket = new WebSocket(String(event.data));
    let opened = false;
    socket.onopen = () => {
      opened = true;
      port.onmessage = (message) => socket.send(String(message.data));
    };
    socket.onmessage = (message) => port.postMessage(message.data);
    socket.onclose = () => {
      if (opened) return port.close();
      self.failedAttempts++;
      setTimeout(connect, wait);
      wait = Math.min(wait * 2, 8000);
    };
  };
  connect();
};
`;

type Joined = { id: string; socket: WebSocket | null; ready: boolean };

export interface DataSockets {
  /** The origin the page's CSP lets it connect to (ws://127.0.0.1:port). */
  readonly origin: string;
  /** A new socket address for `page` (its earlier one is dropped: the page loaded again). */
  addressFor(page: Page): string;
  /**
   * Sends one piece's text to the page's cache worker, or null when it does not listen there
   * (not answered yet, closed, or the page is loading): then the caller goes through the page.
   */
  direct(page: Page): ((json: string) => void) | null;
  /**
   * Holds every piece sent from now on, on every socket, until the returned release sends them
   * in order: a test's gate for a cache worker that hears of main's data after the page hears of
   * main's state (Electron's port and its IPC keep no order between them either).
   */
  hold(): () => void;
  close(): Promise<void>;
}

/**
 * `took`: the cache worker of `page` reports it took message `seq` of road `road` (the data
 * port's report, data-port.ts), for that page's Road.
 */
export async function startDataSockets(
  pageOrigin: string,
  took: (page: Page, road: number, seq: number) => void = () => undefined,
): Promise<DataSockets> {
  const token = randomBytes(16).toString('hex');
  const joined = new WeakMap<Page, Joined>();
  const waiting = new Map<string, Page>();
  const server = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    // Pages send only DATA_PORT_READY and took reports.
    maxPayload: 256,
    // The app's own origin (the relay worker's), with an address handed out and not yet used.
    verifyClient: ({ req, origin: from }: { req: IncomingMessage; origin: string }) =>
      from === pageOrigin && waiting.has(idOf(req.url, token) ?? ''),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const origin = `ws://127.0.0.1:${port}`;
  /** Sends held back (`hold`), in order, or null when pieces go at once. */
  let held: Array<() => void> | null = null;

  server.on('connection', (socket, req) => {
    const id = idOf(req.url, token) ?? '';
    const page = waiting.get(id);
    waiting.delete(id);
    const current = page && joined.get(page);
    if (!page || !current || current.id !== id) return socket.close();
    current.socket = socket;
    socket.on('message', (data, isBinary) => {
      const text = isBinary ? null : data.toString();
      const report = readTook(text);
      if (current.socket !== socket) socket.close();
      else if (text === DATA_PORT_READY) current.ready = true;
      else if (report) took(page, report.road, report.seq);
      else socket.close();
    });
    socket.on('close', () => {
      if (current.socket === socket) Object.assign(current, { socket: null, ready: false });
    });
  });

  return {
    origin,
    addressFor(page) {
      const earlier = joined.get(page);
      if (earlier) {
        waiting.delete(earlier.id);
        earlier.socket?.close();
      }
      const id = randomBytes(16).toString('hex');
      joined.set(page, { id, socket: null, ready: false });
      waiting.set(id, page);
      return `${origin}/${token}/${id}`;
    },
    direct(page) {
      const current = joined.get(page);
      const socket = current?.ready ? current.socket : null;
      if (!socket || socket.readyState !== socket.OPEN || page.isClosed()) return null;
      return (json) => {
        if (held) held.push(() => socket.send(json));
        else socket.send(json);
      };
    },
    hold() {
      const sends = (held ??= []);
      return () => {
        if (held !== sends) return;
        held = null;
        for (const send of sends) send();
      };
    },
    async close() {
      for (const socket of server.clients) socket.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The page's id in a socket's path `/<token>/<id>`, or null when the token is not ours. */
function idOf(path: string | undefined, token: string): string | null {
  const match = /^\/([0-9a-f]{32})\/([0-9a-f]{32})$/.exec(path ?? '');
  return match && match[1] === token ? match[2]! : null;
}
