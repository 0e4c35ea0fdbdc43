// A loopback HTTP server for one PMTiles archive with Range support, as a CDN serves the
// Protomaps builds: 206 answers with Content-Range and an ETag. Fault modes make it reset
// connections, answer 500, ignore Range (200 with the whole file), change its ETag after some
// requests, cut answers short, or hold requests unanswered (to kill a client mid-download).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RangeFaults {
  /** The next N requests get their connection reset. */
  resetNext?: number;
  /** The next N requests get a 500. */
  fail500Next?: number;
  /** Every request gets 200 with the whole file. */
  ignoreRange?: boolean;
  /** After this many requests, the ETag (and Last-Modified) change: a new build. */
  changeEtagAfter?: number;
  /** Every answer sends half its bytes, then the connection closes. */
  truncate?: boolean;
  /** Requests at or past this byte offset are held unanswered after this many were answered. */
  holdAfter?: { offset: number; answered: number };
}

export interface RangeServer {
  url: string;
  /** Every request's range as [start, end] (inclusive), in arrival order. */
  requests: Array<[number, number]>;
  /** Requests answered in full. */
  answered: Array<[number, number]>;
  /** Requests held by holdAfter. */
  held: number;
  faults: RangeFaults;
  setArchive(bytes: Uint8Array): void;
  close(): Promise<void>;
}

export async function startRangeServer(archive: Uint8Array): Promise<RangeServer> {
  let bytes = Buffer.from(archive);
  let build = 1;
  const held: ServerResponse[] = [];
  const state: RangeServer = {
    url: '',
    requests: [],
    answered: [],
    held: 0,
    faults: {},
    setArchive: (next) => {
      bytes = Buffer.from(next);
      build++;
    },
    close: async () => {
      for (const response of held) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const handle = (request: IncomingMessage, response: ServerResponse) => {
    const f = state.faults;
    const match = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? '');
    const start = match ? Number(match[1]) : 0;
    const end = match ? Math.min(Number(match[2]), bytes.length - 1) : bytes.length - 1;
    state.requests.push([start, end]);
    if (f.changeEtagAfter !== undefined && state.requests.length > f.changeEtagAfter) {
      build++;
      f.changeEtagAfter = undefined;
    }
    const headers = {
      ETag: `"build-${build}"`,
      'Last-Modified': new Date(Date.UTC(2026, 10, build)).toUTCString(),
      'Accept-Ranges': 'bytes',
      'Content-Type': 'application/octet-stream',
    };
    if (f.resetNext) {
      f.resetNext--;
      request.socket.destroy();
      return;
    }
    if (f.fail500Next) {
      f.fail500Next--;
      response.writeHead(500, headers).end('busy');
      return;
    }
    if (f.holdAfter && start >= f.holdAfter.offset) {
      const answeredPast = state.answered.filter(([s]) => s >= f.holdAfter!.offset).length;
      if (answeredPast >= f.holdAfter.answered) {
        state.held++;
        held.push(response);
        return;
      }
    }
    if (f.ignoreRange || !match) {
      response.writeHead(200, { ...headers, 'Content-Length': bytes.length }).end(bytes);
      return;
    }
    if (start >= bytes.length) {
      response.writeHead(416, { ...headers, 'Content-Range': `bytes */${bytes.length}` }).end();
      return;
    }
    const body = bytes.subarray(start, end + 1);
    response.writeHead(206, {
      ...headers,
      'Content-Range': `bytes ${start}-${end}/${bytes.length}`,
      'Content-Length': body.length,
    });
    if (f.truncate) {
      response.write(body.subarray(0, Math.floor(body.length / 2)), () => request.socket.destroy());
      return;
    }
    response.end(body, () => state.answered.push([start, end]));
  };
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/planet.pmtiles`;
  return state;
}
