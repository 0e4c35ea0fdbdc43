// A style + tile server on loopback for the online style: the basemap tests' stand-in for a
// remote tile host.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onlineTiles } from './fixture-tiles';

export const ONLINE_RED = '#d03030';
/** The style's tiles go up to this zoom. */
export const ONLINE_MAX_ZOOM = 8;

/**
 * A style.json and /tiles/z/x/y.pbf of one red square (fixture-tiles.ts), on 127.0.0.1; with
 * `background`, the style paints everything else in that colour.
 */
export async function startStyleServer(options: { background?: string } = {}): Promise<{
  /** http://127.0.0.1:<port> */
  url: string;
  styleUrl: string;
  requests: string[];
  stop: () => Promise<void>;
}> {
  const maxZoom = ONLINE_MAX_ZOOM;
  const background = options.background
    ? [{ id: 'bg', type: 'background', paint: { 'background-color': options.background } }]
    : [];
  const tiles = new Map(
    onlineTiles(maxZoom).map((t) => [`/tiles/${t.z}/${t.x}/${t.y}.pbf`, t.data]),
  );
  const requests: string[] = [];
  let origin = '';
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url === '/style.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          version: 8,
          sources: {
            fixture: {
              type: 'vector',
              tiles: [`${origin}/tiles/{z}/{x}/{y}.pbf`],
              maxzoom: maxZoom,
              attribution: 'Fixture tiles',
            },
          },
          layers: [
            ...background,
            {
              id: 'areas',
              type: 'fill',
              source: 'fixture',
              'source-layer': 'areas',
              paint: { 'fill-color': ONLINE_RED },
            },
          ],
        }),
      );
      return;
    }
    const tile = tiles.get(req.url ?? '');
    res.writeHead(tile ? 200 : 404, { 'content-type': 'application/x-protobuf' });
    res.end(tile ? Buffer.from(tile) : undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    styleUrl: `${origin}/style.json`,
    requests,
    stop: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
