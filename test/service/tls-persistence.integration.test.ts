// TLS with a generated or given certificate; persistence across restarts (store reuse and --data).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startService } from '../../src-service/index';
import { selfSignedCertificate } from '../../src-service/tls';
import { basic, call, idFromMessage, serve } from '../support/service';

/** GET over https trusting only `ca`. */
function httpsGet(url: string, ca: string | undefined): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca, headers: { Authorization: basic('demo', 'demo') } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fieldmap-service-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('reference service: TLS', () => {
  it('serves https with a generated self-signed certificate for 127.0.0.1 and localhost', async () => {
    const s = await serve({ tls: true });
    expect(s.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(s.cert).toMatch(/^-----BEGIN CERTIFICATE-----/);
    const res = await httpsGet(`${s.url}/api/v1/user`, s.cert);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).username).toBe('demo');
    const byName = await httpsGet(`https://localhost:${s.port}/api/v1/user`, s.cert);
    expect(byName.status).toBe(200);
    // Without trusting the certificate the connection is refused: it is not silently accepted.
    await expect(httpsGet(`${s.url}/api/v1/user`, undefined)).rejects.toThrow(
      /self[- ]signed|certificate/i,
    );
    await expect(fetch(`http://127.0.0.1:${s.port}/api/v1/user`)).rejects.toThrow();
  });

  it('serves https with a given certificate and key', async () => {
    const pair = await selfSignedCertificate();
    const s = await serve({ tls: pair });
    expect(s.cert).toBe(pair.cert);
    expect((await httpsGet(`${s.url}/api/v1/user`, pair.cert)).status).toBe(200);
    const other = await selfSignedCertificate();
    await expect(httpsGet(`${s.url}/api/v1/user`, other.cert)).rejects.toThrow();
  });
});

describe('reference service: persistence', () => {
  it('restarts on the same state with the store option', async () => {
    const s = await serve();
    const created = await call(s, 'POST', '/api/v1/customers', { body: { name: 'Survivor' } });
    const id = idFromMessage(created.json.message);
    await s.stop();
    const again = await serve({ store: s.store });
    expect((await call(again, 'GET', `/api/v1/customers/${id}`)).json.name).toBe('Survivor');
    expect(again.store.customers('demo')).toHaveLength(41);
  });

  it('saves a JSON snapshot atomically and loads it on the next start', async () => {
    const dir = tempDir();
    const dataFile = join(dir, 'service.json');
    const options = {
      rate: 0,
      dataFile,
      accounts: [{ username: 'demo', password: 'demo', customers: 30, seed: 4 }],
    };
    const first = await startService(options);
    const created = await call(first, 'POST', '/api/v1/customers', {
      body: { name: 'Persisted', city: 'Tulsa' },
    });
    const id = idFromMessage(created.json.message);
    const victim = first.store.customers('demo')[0]!.id;
    await call(first, 'DELETE', `/api/v1/customers/${victim}`);
    await call(first, 'PUT', '/api/v1/user/customfields', { body: { Saved: 7 } });
    const before = first.store.customers('demo');
    await first.stop();
    expect(readdirSync(dir)).toEqual(['service.json']);
    const snapshot = JSON.parse(readFileSync(dataFile, 'utf8'));
    expect(snapshot.format).toMatch(/^fieldmap-reference-service\//);
    expect(snapshot.accounts[0].password).toBeUndefined();
    expect(snapshot.accounts[0].passwordHash).toMatch(/^scrypt\$/);

    const second = await startService({ ...options, accounts: [] });
    try {
      expect(second.store.customers('demo')).toEqual(before);
      expect(second.store.customer('demo', id)!.city).toBe('Tulsa');
      expect(second.store.customer('demo', victim)).toBeUndefined();
      expect(second.store.customFields('demo').Saved).toBe(7);
      const login = await call(second, 'GET', '/api/v1/user');
      expect(login.status).toBe(200);
    } finally {
      await second.stop();
    }
  });
});
