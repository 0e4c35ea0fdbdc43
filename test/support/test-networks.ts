// The networks main's requests can take, for suites that prove a guard holds over each: Node's
// own fetch (what main used before), the office network (the env-built fetch through a loopback
// CONNECT proxy to a service behind a name nothing resolves, trusted through the CA file), and
// Electron's net.fetch as the shell hands it to the services (the fake of test/shell/fake-net.ts,
// through the shell's adapter). `serve` starts a server of the test where the network reaches it.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchFromEnv } from '../../src-main/core/network/env-fetch';
import { shellFetch } from '../../src-main/shell/network';
import { startService, type RunningService, type ServiceOptions } from '../../src-service/index';
import { createFakeElectron } from '../shell/fake-electron';
import { makeTestCa, SERVICE_HOST, startConnectProxy } from './office-network';

export const NETWORK_NAMES = ["Node's fetch", 'an office proxy', "Electron's net.fetch"] as const;
export type NetworkName = (typeof NETWORK_NAMES)[number];

export interface TestNetwork {
  readonly name: NetworkName;
  /** What main's services are given (undefined: Node's global fetch). */
  readonly fetch: typeof globalThis.fetch | undefined;
  /** False where a refused redirect cannot tell its status (net.fetch rejects it). */
  readonly redirectStatus: boolean;
  /** The reference service, reachable over this network; its URL as the client must use it. */
  startService(options: ServiceOptions): Promise<{ service: RunningService; url: string }>;
  /** A server of the test, reachable over this network, and its URL. */
  serve(listener: RequestListener): Promise<{ server: Server; url: string }>;
  close(): Promise<void>;
}

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

export async function openNetwork(name: NetworkName): Promise<TestNetwork> {
  const direct = {
    startService: async (options: ServiceOptions) => {
      const service = await startService(options);
      return { service, url: service.url };
    },
    serve: async (listener: RequestListener) => {
      const server = createHttpServer(listener);
      return { server, url: `http://127.0.0.1:${await listen(server)}` };
    },
  };
  if (name === "Node's fetch") {
    return { name, fetch: undefined, redirectStatus: true, ...direct, close: async () => {} };
  }
  if (name === "Electron's net.fetch") {
    const fake = createFakeElectron();
    return {
      name,
      fetch: shellFetch(fake.deps),
      redirectStatus: false,
      ...direct,
      close: async () => {},
    };
  }
  const dir = await mkdtemp(join(tmpdir(), 'fieldmap-network-'));
  const ca = await makeTestCa(dir);
  const proxy = await startConnectProxy();
  const network = fetchFromEnv({ HTTPS_PROXY: proxy.address, FIELDMAP_EXTRA_CA_CERTS: ca.caFile });
  return {
    name,
    fetch: network.fetch,
    redirectStatus: true,
    startService: async (options) => {
      const service = await startService({ ...options, tls: ca.tls });
      return { service, url: `https://${SERVICE_HOST}:${service.port}` };
    },
    serve: async (listener) => {
      const server = createHttpsServer(ca.tls, listener);
      return { server, url: `https://${SERVICE_HOST}:${await listen(server)}` };
    },
    close: async () => {
      await network.close();
      await proxy.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
