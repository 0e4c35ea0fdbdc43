// Electron's net.fetch and the session's proxy and certificate hooks, as Electron documents them
// (docs/api/net.md, session.md; lib/browser/api/net-fetch.ts, lib/common/api/
// net-client-request.ts): Chromium's network stack cannot run here, so Node's fetch carries the
// bytes (core/network/env-fetch.ts with this fake's proxy and trust settings) and Electron's
// differences are played:
// - redirect 'manual' rejects Error('Redirect was cancelled'), 'error' rejects "Attempted to
//   redirect, but redirect policy was 'error'"; no 3xx Response ever comes back;
// - a network failure rejects Error('net::ERR_…') with no code;
// - a refused certificate goes through the session's certificate verifier first
//   (setCertificateVerifyProc: verificationResult, certificate.issuerName);
// - resolveProxy answers "PROXY host:port" or "DIRECT".
import { ConnectionFailure } from '../../src-main/core/network/connection-failure';
import { fetchFromEnv } from '../../src-main/core/network/env-fetch';
import type { ShellCertificateVerifyProc } from '../../src-main/shell/shell-deps';

export interface FakeNetSettings {
  /** The system proxy (host:port), or null for DIRECT. */
  proxy: string | null;
  /** A CA file the OS store holds beside the usual roots. */
  caFile: string | null;
}

export function createFakeNet() {
  const settings: FakeNetSettings = { proxy: null, caFile: null };
  const calls: string[] = [];
  let verify: ShellCertificateVerifyProc | null = null;

  const netError = (name: string) => new Error(`net::${name}`);
  const fetch = async (input: string | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    calls.push(`${request.method} ${request.url}`);
    const network = fetchFromEnv({
      ...(settings.proxy ? { HTTPS_PROXY: settings.proxy, HTTP_PROXY: settings.proxy } : {}),
      ...(settings.caFile ? { FIELDMAP_EXTRA_CA_CERTS: settings.caFile } : {}),
    });
    let response: Response;
    try {
      response = await network.fetch(request, { redirect: 'manual' });
    } catch (e) {
      if (request.signal.aborted) throw request.signal.reason;
      const connection = e instanceof ConnectionFailure ? e.connection : undefined;
      if (connection?.kind === 'certificate') {
        verify?.(
          {
            hostname: new URL(request.url).hostname,
            certificate: { issuerName: connection.issuer ?? '' },
            verificationResult: 'CERT_AUTHORITY_INVALID',
          },
          () => undefined,
        );
        throw netError('ERR_CERT_AUTHORITY_INVALID');
      }
      if (connection?.kind === 'proxy') {
        throw netError(
          connection.status ? 'ERR_TUNNEL_CONNECTION_FAILED' : 'ERR_PROXY_CONNECTION_FAILED',
        );
      }
      const code = (e as { cause?: { code?: string } }).cause?.code;
      throw netError(code === 'ECONNREFUSED' ? 'ERR_CONNECTION_REFUSED' : 'ERR_FAILED');
    } finally {
      void network.close();
    }
    if (response.status >= 300 && response.status < 400 && response.headers.has('location')) {
      await response.body?.cancel();
      if (request.redirect === 'error') {
        throw new Error("Attempted to redirect, but redirect policy was 'error'");
      }
      if (request.redirect === 'manual') throw new Error('Redirect was cancelled');
      return globalThis.fetch(new URL(response.headers.get('location')!, request.url), init);
    }
    return response;
  };

  return {
    settings,
    calls,
    /** The certificate verifier the shell installed, if any. */
    verifier: () => verify,
    net: { fetch },
    session: {
      resolveProxy: async () => (settings.proxy ? `PROXY ${settings.proxy}` : 'DIRECT'),
      setCertificateVerifyProc(proc: ShellCertificateVerifyProc) {
        verify = proc;
      },
    },
  };
}
