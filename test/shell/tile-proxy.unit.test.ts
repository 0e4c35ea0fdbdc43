// app://fieldmap/tiles?url= through the real app protocol handler and the real BasemapService,
// fetching from a server of this test on loopback: only tile and style content types go out as
// they came; anything else is octet-stream under a sandbox CSP; a navigation to it is refused.
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BasemapService } from '../../src-main/core/basemap/service';
import { createAppProtocolHandler, isAppPageUrl } from '../../src-main/shell/app-protocol';
import { buildContentSecurityPolicy } from '../../src-main/shell/csp';

const BODIES: Record<string, [string, string]> = {
  '/style.json': ['application/json', '{"version":8,"sources":{},"layers":[]}'],
  '/tile.pbf': ['application/x-protobuf', 'pbf-bytes'],
  '/tile.mvt': ['application/vnd.mapbox-vector-tile', 'mvt-bytes'],
  '/tile.png': ['image/png', 'png-bytes'],
  '/tile.webp': ['image/webp', 'webp-bytes'],
  '/page.html': ['text/html; charset=utf-8', '<script>parent.fieldmap.steal()</script>'],
  '/image.svg': ['image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>'],
  '/code.js': ['text/javascript', 'alert(1)'],
  '/page.xhtml': ['application/xhtml+xml', '<html/>'],
  '/none': ['', 'untyped'],
};

let server: Server;
let origin: string;
let dataDir: string;
let handler: (request: Request) => Promise<Response>;
const csp = buildContentSecurityPolicy();

beforeAll(async () => {
  server = createServer((req, res) => {
    const [type, body] = BODIES[req.url ?? ''] ?? ['text/plain', 'not found'];
    res.writeHead(BODIES[req.url ?? ''] ? 200 : 404, type ? { 'content-type': type } : {});
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dataDir = await mkdtemp(join(tmpdir(), 'fieldmap-tile-proxy-'));
  const basemap = await BasemapService.open({ dataDir });
  // A loopback style the rep typed and confirmed in main's dialog.
  await basemap.setSettings({ onlineStyleUrl: `${origin}/style.json`, confirmedOrigins: [origin] });
  handler = createAppProtocolHandler({
    rootDir: join(dataDir, 'no-renderer'),
    contentSecurityPolicy: csp,
    log: () => {},
    dynamic: (url, range) => basemap.handleRequest(url, range),
  });
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dataDir, { recursive: true, force: true });
});

const proxied = (path: string, headers: Record<string, string> = {}) =>
  handler(
    new Request(`app://fieldmap/tiles?url=${encodeURIComponent(origin + path)}`, { headers }),
  );

describe('the tile proxy serves only tile and style content', () => {
  for (const path of ['/style.json', '/tile.pbf', '/tile.mvt', '/tile.png', '/tile.webp']) {
    it(`${path} keeps its type and the app CSP`, async () => {
      const response = await proxied(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(BODIES[path]![0]);
      expect(response.headers.get('content-security-policy')).toBe(csp);
      expect(await response.text()).toBe(BODIES[path]![1]);
    });
  }

  for (const path of ['/page.html', '/image.svg', '/code.js', '/page.xhtml', '/none']) {
    it(`${path} becomes octet-stream under a sandbox CSP`, async () => {
      const response = await proxied(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/octet-stream');
      const policy = response.headers.get('content-security-policy') ?? '';
      expect(policy.split(';').map((d) => d.trim())).toContain('sandbox');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    });
  }

  it('a navigation to the proxy is refused, even for a tile type', async () => {
    for (const headers of <Record<string, string>[]>[
      { 'sec-fetch-mode': 'navigate' },
      { 'sec-fetch-dest': 'document' },
      { 'sec-fetch-dest': 'iframe' },
    ]) {
      const response = await proxied('/tile.png', headers);
      expect(response.status, JSON.stringify(headers)).toBe(403);
    }
    expect((await proxied('/tile.png', { 'sec-fetch-dest': 'image' })).status).toBe(200);
  });

  it('the window may navigate to app pages, never to the proxy or the region files', () => {
    expect(isAppPageUrl('app://fieldmap/index.html#/x')).toBe(true);
    expect(isAppPageUrl(`app://fieldmap/tiles?url=${encodeURIComponent(origin)}`)).toBe(false);
    expect(isAppPageUrl('app://fieldmap/TILES?url=x')).toBe(false);
    expect(isAppPageUrl('app://fieldmap/regions/alps.pmtiles')).toBe(false);
    expect(isAppPageUrl('https://evil.example/')).toBe(false);
  });
});

describe('the CSP', () => {
  it('refuses frames and child browsing contexts', () => {
    const directives = csp.split(';').map((d) => d.trim());
    expect(directives).toContain("frame-src 'none'");
    expect(directives).toContain("child-src 'none'");
  });
});
