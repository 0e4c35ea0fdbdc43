// Main's requests under Electron go through Chromium's network (net.fetch of the default
// session), handed to the services by the shell: the real service composition (app/shell-
// services.ts, what main.ts starts) on the fake electron module, whose net.fetch plays Electron's
// documented behaviour (fake-net.ts: no Electron binary can run here), against the reference
// service on loopback. A system proxy that refuses is named (session.resolveProxy), and a
// certificate the OS store does not know names its issuer (the shell's certificate verifier).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShellServices } from '../../src-main/app/shell-services';
import { startShell } from '../../src-main/shell/start-shell';
import { MemoryCredentialStore } from '../../scripts/browser-runner/credentials';
import { startTestService, type TestService } from '../support/app';
import {
  CA_NAME,
  makeTestCa,
  SERVICE_HOST,
  startConnectProxy,
  type ConnectProxy,
  type TestCa,
} from '../support/office-network';
import { createFakeElectron, type FakeElectron } from './fake-electron';
import { invoke } from './shell-harness';

let dir: string;
let ca: TestCa;
let proxy: ConnectProxy;
let plain: TestService;
let office: TestService;
const stops: Array<() => Promise<void>> = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fieldmap-shell-net-'));
  ca = await makeTestCa(dir);
  proxy = await startConnectProxy();
  plain = await startTestService({ customers: 3, seed: 31 });
  office = await startTestService({ customers: 3, seed: 32, tls: ca.tls });
}, 60_000);

afterAll(async () => {
  for (const stop of stops) await stop();
  await proxy?.close();
  await plain?.stop();
  await office?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** The shell on the fake electron module with main's real services, ready. */
async function startApp(): Promise<FakeElectron> {
  const dataDir = await mkdtemp(join(dir, 'data-'));
  const fake = createFakeElectron({ dataDir });
  let dispose: () => Promise<void> = async () => undefined;
  const handle = startShell(fake.deps, {
    rendererDir: dir,
    preloadPath: '/app/out/preload/index.cjs',
    createServices: async (context) => {
      const services = await createShellServices(context, {
        credentialStore: new MemoryCredentialStore(),
        demo: false,
      });
      dispose = () => services.dispose();
      return services;
    },
    log: () => undefined,
    timers: { setInterval: () => 'poll', clearInterval: () => undefined },
  });
  fake.fireReady();
  await handle!.ready;
  stops.push(() => dispose());
  return fake;
}

const login = (fake: FakeElectron, service: TestService, baseUrl = service.url) =>
  invoke(fake, 'session:login', { baseUrl, ...service.account });

describe("main's network under Electron", () => {
  it("signs in and syncs through the shell's net.fetch", async () => {
    const fake = await startApp();
    const result = await login(fake, plain);
    expect(result).toMatchObject({ ok: true });
    expect(fake.net.calls).toContain(`GET ${plain.url}/api/v1/user`);
  });

  it('names the system proxy when it refuses the tunnel', async () => {
    const fake = await startApp();
    fake.net.settings.proxy = proxy.address;
    proxy.refuseWith = 403;
    try {
      const result = await login(fake, office, `https://${SERVICE_HOST}:${office.port}`);
      expect(result).toMatchObject({ ok: false, error: { kind: 'Offline' } });
      const { message } = (result as { error: { message: string } }).error;
      expect(message).toContain(`the proxy ${proxy.address} refused the connection`);
    } finally {
      proxy.refuseWith = null;
    }
  });

  it('names the issuer of a certificate the OS store does not know, then trusts it once it does', async () => {
    const fake = await startApp();
    fake.net.settings.proxy = proxy.address;
    const url = `https://${SERVICE_HOST}:${office.port}`;
    const refused = await login(fake, office, url);
    expect(refused).toMatchObject({
      ok: false,
      error: { kind: 'Offline', connection: { kind: 'certificate', issuer: CA_NAME } },
    });
    expect((refused as { error: { message: string } }).error.message).toContain(
      `the certificate of ${SERVICE_HOST}:${office.port}, issued by "${CA_NAME}", is not trusted`,
    );
    fake.net.settings.caFile = ca.caFile;
    expect(await login(fake, office, url)).toMatchObject({ ok: true });
  });

  it("the certificate verifier always keeps Chromium's verdict (-3), trusted or not", async () => {
    const fake = await startApp();
    const verify = fake.net.verifier()!;
    const answers: number[] = [];
    for (const verificationResult of ['OK', 'CERT_AUTHORITY_INVALID', 'CERT_DATE_INVALID']) {
      verify(
        { hostname: 'crm.example.com', certificate: { issuerName: 'Any CA' }, verificationResult },
        (answer) => answers.push(answer),
      );
    }
    expect(answers).toEqual([-3, -3, -3]);
  });
});
