// A map source or style given as a DNS name that resolves to this computer (issue 30): the URL
// checks see a public-looking https host, so the check is the address the connection resolves.
// No DNS exists here: the resolver seam plays what getaddrinfo answers for a public name whose
// A record is 127.0.0.1 (as localtest.me has). Behind it run the real main services, Node's
// real connections, and a real loopback TCP server that counts what reaches it.
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMainServices, type MainServices } from '../../src-main/app/main-services';
import type { Resolver } from '../../src-main/core/network/local-address-guard';
import { MemoryCredentialStore } from '../../scripts/browser-runner/credentials';

const NAME = 'tiles.example.test';
const resolver: Resolver = async (hostname) => {
  if (hostname === NAME) return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

let dir: string;
let services: MainServices;
let server: Server;
let connections: number;
let port: number;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fieldmap-resolved-local-'));
  connections = 0;
  // A TCP server, not TLS: what matters is whether a connection reaches it at all.
  server = createServer((socket: Socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  services = await createMainServices({
    dataDir: dir,
    emit: () => undefined,
    credentialStore: new MemoryCredentialStore(),
    demo: false,
    restore: false,
    env: {},
    resolver,
  });
});

afterEach(async () => {
  await services.dispose();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

const AREA = { kind: 'bbox' as const, bounds: [-97.5, 37.6, -97.3, 37.8] as const };

describe('a name that resolves to this computer', () => {
  it('as the map source is refused, naming it and the address, before any connection', async () => {
    const url = `https://${NAME}:${port}/world.pmtiles`;
    await services.basemap.setSettings({ regionSourceUrl: url });
    await expect(
      services.basemap.downloads.estimate(url, { ...AREA, bounds: [...AREA.bounds] }, 12),
    ).rejects.toThrow(
      `The map source ${NAME} resolves to 127.0.0.1, an address on this computer or the local network`,
    );
    expect(connections).toBe(0);
  });

  it('as the online style is not fetched; once the rep confirmed its origin, it is', async () => {
    const style = `https://${NAME}:${port}/style.json`;
    const proxy = () =>
      services.basemap.handleRequest(
        new URL(`app://fieldmap/tiles?url=${encodeURIComponent(style)}`),
        null,
      );
    await services.basemap.setSettings({ onlineStyleUrl: style });
    expect((await proxy())?.status).not.toBe(200);
    expect(connections).toBe(0);
    // Typed and confirmed by the rep (main's box): the connection is made (and fails its TLS
    // handshake with this plain TCP server, which is not what is tested here).
    await services.basemap.setSettings({ confirmedOrigins: [new URL(style).origin] });
    expect((await proxy())?.status).not.toBe(200);
    expect(connections).toBeGreaterThan(0);
  });
});
