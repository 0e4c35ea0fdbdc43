// Main's one network under Electron: net.fetch from the default session (system proxy and PAC,
// the OS certificate store), adapted by core/network/chromium-fetch.ts. The certificate verifier
// keeps Chromium's verdict (-3) and only remembers who issued a refused certificate, so a
// message can name it.
import { chromiumFetch } from '../core/network/chromium-fetch';
import type { ShellCertificateVerifyProc, ShellDeps } from './shell-deps';

/** Call once the app is ready (sessions exist then). */
export function shellFetch(deps: Pick<ShellDeps, 'net' | 'session'>): typeof globalThis.fetch {
  const session = deps.session.defaultSession;
  const refusedIssuers = new Map<string, string>();
  const readIssuer: ShellCertificateVerifyProc = (request, callback) => {
    if (/^(net::)?OK$/.test(request.verificationResult)) refusedIssuers.delete(request.hostname);
    else refusedIssuers.set(request.hostname, request.certificate.issuerName);
    callback(-3);
  };
  // Never an opt-out: every answer is -3, Chromium's own verdict; the proc only reads the issuer.
  session.setCertificateVerifyProc(readIssuer); // eng-disable CERTIFICATE_VERIFY_PROC_JS_CHECK
  return chromiumFetch({
    fetch: (input, init) => deps.net.fetch(input instanceof URL ? input.href : input, init),
    resolveProxy: (url) => session.resolveProxy(url),
    certificateIssuerOf: (hostname) => refusedIssuers.get(hostname),
  });
}
