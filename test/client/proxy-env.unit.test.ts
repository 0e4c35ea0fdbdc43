// Which proxy a request takes, read from the environment as undici's EnvHttpProxyAgent and curl
// read it (core/network/proxy-env.ts), and the extra CA file's certificates.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extraCaCertificates } from '../../src-main/core/network/env-fetch';
import { proxyFor } from '../../src-main/core/network/proxy-env';

const via = (url: string, env: Record<string, string>) => proxyFor(new URL(url), env)?.href ?? null;

describe('proxyFor', () => {
  it('takes the proxy of the scheme, lowercase first, and reads a bare host:port as http', () => {
    const env = { HTTPS_PROXY: 'http://upper:1', https_proxy: 'lower:3128', HTTP_PROXY: 'h:80' };
    expect(via('https://crm.example.com/api', env)).toBe('http://lower:3128/');
    expect(via('http://crm.example.com/api', env)).toBe('http://h/');
    expect(via('https://crm.example.com', {})).toBeNull();
  });

  it('never proxies loopback', () => {
    const env = { HTTPS_PROXY: 'proxy:3128', HTTP_PROXY: 'proxy:3128' };
    for (const url of ['http://127.0.0.1:8080', 'https://localhost', 'http://[::1]:9']) {
      expect(via(url, env)).toBeNull();
    }
  });

  it('NO_PROXY: hosts, domain suffixes in every spelling, ports, and *', () => {
    const env = { HTTPS_PROXY: 'proxy:3128', NO_PROXY: 'intranet, .corp.example *.lan:8443' };
    expect(via('https://intranet/x', env)).toBeNull();
    expect(via('https://a.intranet/x', env)).toBeNull();
    expect(via('https://crm.corp.example', env)).toBeNull();
    expect(via('https://corp.example', env)).toBeNull();
    expect(via('https://box.lan:8443', env)).toBeNull();
    expect(via('https://box.lan', env)).toBe('http://proxy:3128/');
    expect(via('https://notintranet/x', env)).toBe('http://proxy:3128/');
    expect(via('https://crm.example.com', { ...env, no_proxy: '*' })).toBeNull();
  });
});

describe('extraCaCertificates', () => {
  it('reads every PEM of FIELDMAP_EXTRA_CA_CERTS, else NODE_EXTRA_CA_CERTS; names a bad file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fieldmap-ca-'));
    try {
      const pem = (n: number) => `-----BEGIN CERTIFICATE-----\nAA${n}\n-----END CERTIFICATE-----`;
      await writeFile(join(dir, 'two.pem'), `${pem(1)}\n${pem(2)}\n`);
      await writeFile(join(dir, 'one.pem'), pem(3));
      const two = join(dir, 'two.pem');
      const one = join(dir, 'one.pem');
      expect(extraCaCertificates({ FIELDMAP_EXTRA_CA_CERTS: two })).toEqual([pem(1), pem(2)]);
      expect(extraCaCertificates({ NODE_EXTRA_CA_CERTS: one })).toEqual([pem(3)]);
      expect(
        extraCaCertificates({ FIELDMAP_EXTRA_CA_CERTS: one, NODE_EXTRA_CA_CERTS: two }),
      ).toEqual([pem(3)]);
      expect(extraCaCertificates({})).toEqual([]);
      expect(() => extraCaCertificates({ FIELDMAP_EXTRA_CA_CERTS: join(dir, 'no.pem') })).toThrow(
        /extra CA file .*no\.pem could not be read/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
