// An office network: the service sits behind a name nothing resolves, the only road to it is a
// CONNECT proxy, and its certificate is signed by a CA only the configured trust store knows
// (support/office-network.ts). Main's network is built from the runner's environment
// (HTTPS_PROXY, FIELDMAP_EXTRA_CA_CERTS: core/network/env-fetch.ts). Through it an edit reaches
// the service exactly once; without the CA, or with a proxy that refuses, or from a network the
// account does not allow, sign-in and the status name that cause.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchApp, startTestService, type AppHandle, type TestService } from '../support/app';
import {
  CA_NAME,
  makeTestCa,
  SERVICE_HOST,
  startConnectProxy,
  type ConnectProxy,
  type TestCa,
} from '../support/office-network';
import { signIn, syncNow, waitRows, waitSync } from '../support/app-steps';

let dir: string;
let ca: TestCa;
let proxy: ConnectProxy;
let service: TestService;
let serviceUrl: string;
let app: AppHandle | null = null;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fieldmap-office-'));
  ca = await makeTestCa(dir);
  proxy = await startConnectProxy();
  service = await startTestService({ customers: 12, seed: 25, tls: ca.tls });
  serviceUrl = `https://${SERVICE_HOST}:${service.port}`;
}, 120_000);

/** Each case starts the app on its own network settings, as the suites do, in a hook. */
function withApp(env: () => Record<string, string>): () => AppHandle {
  beforeAll(async () => {
    app = await launchApp({ serviceUrl, env: env() });
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    app = null;
    proxy.refuseWith = null;
    service.configure({ allow: ['127.0.0.0/8', '::1/128'] });
  });
  return () => app!;
}

afterAll(async () => {
  await proxy?.close();
  await service?.stop();
  await rm(dir, { recursive: true, force: true });
});

const trusted = () => ({ HTTPS_PROXY: proxy.address, FIELDMAP_EXTRA_CA_CERTS: ca.caFile });

/** Signs in at the office service and waits for the address's message to say `expected`. */
async function signInFails(running: AppHandle, expected: string): Promise<string> {
  const { page } = running;
  await page.fill('#si-url', serviceUrl);
  await page.fill('#si-user', service.account.username);
  await page.fill('#si-pass', service.account.password);
  await page.click('form button[type=submit]');
  await expect.poll(() => page.textContent('form')).toContain(expected);
  return (await page.textContent('form')) ?? '';
}

describe('an office network, through the proxy, trusting the CA file', () => {
  const current = withApp(trusted);
  it('syncs: an edit reaches the service once', async () => {
    const running = current();
    const { page } = running;
    await signIn(running, { ...service, url: serviceUrl });
    const all = service.store.customers(service.account.username);
    await waitRows(page, 'Customers', all.length);
    await waitSync(page, 'synced');
    expect(proxy.connects.length).toBeGreaterThan(0);
    expect(new Set(proxy.connects)).toEqual(new Set([`${SERVICE_HOST}:${service.port}`]));

    const target = all.find((c) => c.name.length > 0)!;
    await page.fill('input[aria-label="Search customers"]', target.name);
    await page.click('[aria-label="Customers"] button.customer-row');
    await page.click('aside[aria-label="Customer details"] button:has-text("Edit")');
    await page.fill('#ed-phone', '555-0125');
    await page.click('button:has-text("Save changes")');
    await page.waitForSelector('aside[data-editing]', { state: 'detached' });
    await syncNow(page);
    await waitSync(page, 'synced');
    expect(service.customerPuts()[target.id]).toBe(1);
    expect(service.store.customer(service.account.username, target.id)?.phone).toBe('555-0125');
  });
});

describe('an office network without the CA file', () => {
  const current = withApp(() => ({ HTTPS_PROXY: proxy.address }));
  it('says the certificate is not trusted and names its issuer', async () => {
    const running = current();
    const text = await signInFails(running, `issued by "${CA_NAME}"`);
    expect(text).toContain(`the certificate of ${SERVICE_HOST}:${service.port}`);
    expect(text).toContain('is not trusted');
    expect(await running.call('listAccounts')).toEqual([]);
  });
});

describe('an office proxy that refuses', () => {
  const current = withApp(trusted);
  it('at sign-in: it is named, not "service not reachable"', async () => {
    proxy.refuseWith = 403;
    const running = current();
    const text = await signInFails(running, `the proxy ${proxy.address} refused`);
    expect(text).not.toMatch(/not reachable|no connection/i);
  });
});

describe('an office proxy that starts refusing after sign-in', () => {
  const current = withApp(trusted);
  it('the status names it', async () => {
    const running = current();
    const { page } = running;
    await signIn(running, { ...service, url: serviceUrl });
    await waitSync(page, 'synced');
    proxy.refuseWith = 407;
    proxy.dropTunnels();
    await syncNow(page);
    await waitSync(page, 'offline');
    const status = (await page.textContent('.sync-status')) ?? '';
    expect(status).toContain(`proxy ${proxy.address}`);
    expect(status).not.toContain('Service not reachable');
  });
});

describe('an office proxy that nothing answers at', () => {
  let address = '';
  beforeAll(async () => {
    const gone = await startConnectProxy();
    address = gone.address;
    await gone.close();
  });
  const current = withApp(() => ({ HTTPS_PROXY: address, FIELDMAP_EXTRA_CA_CERTS: ca.caFile }));
  it('is named at sign-in', async () => {
    await signInFails(current(), `the proxy ${address} refused`);
  });
});

describe('an office network the account does not allow', () => {
  const current = withApp(trusted);
  it('a 403 from the service says this network is not on the allow-list', async () => {
    service.configure({ allow: ['10.0.0.0/8'] });
    await signInFails(current(), "this network is not on the account's allow-list");
  });
});
