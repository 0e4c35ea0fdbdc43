// The address check at connect time: a map source, style or tile host given as a DNS name that
// resolves to this computer or the LAN (a public name with an A record of 127.0.0.1, a name a
// local resolver maps) would pass a check of the URL's host alone. The check runs in the lookup
// the connection itself uses, so what is checked is what is connected to (no second lookup a
// rebinding name could answer differently). Names the URL policy already treats as local
// (localhost, *.local) and literal addresses are that policy's to allow or refuse.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';

/** The code of a connection refused because its name resolved to a refused address. */
export const LOCAL_ADDRESS_REFUSED = 'LOCAL_ADDRESS_REFUSED';

export class LocalAddressRefused extends Error {
  override readonly name = 'LocalAddressRefused';
  readonly code = LOCAL_ADDRESS_REFUSED;
  constructor(
    readonly hostname: string,
    readonly address: string,
  ) {
    super(`${hostname} resolves to ${address}, an address on this computer or the local network`);
  }
}

/** What a resolver answers for a name: every address, as dns.lookup with `all` does. */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

/** The operating system's resolver (getaddrinfo), as Node's own connections use it. */
export const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );

/**
 * A `lookup` for net/tls.connect (undici's connect options) that resolves through `resolve` and
 * fails the connection when `refused(hostname, address)` holds for any address it answers.
 */
export function guardedLookup(
  resolve: Resolver,
  refused: (hostname: string, address: string) => boolean,
): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (answers) => {
        const bad = answers.find((a) => refused(hostname, a.address));
        if (bad) return callback(new LocalAddressRefused(hostname, bad.address), '', 4);
        const family = options.family === 6 ? 6 : options.family === 4 ? 4 : 0;
        const usable = answers.filter((a) => family === 0 || a.family === family);
        if (usable.length === 0) {
          const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
            code: 'ENOTFOUND',
          });
          return callback(error, '', 4);
        }
        // Node asks for every address (`all`) when it tries them in turn (autoSelectFamily).
        if (options.all)
          return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
        callback(null, usable[0]!.address, usable[0]!.family);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, '', 4),
    );
  };
}

/** The LocalAddressRefused a failure carries anywhere in its `cause` chain, else null. */
export function localAddressRefusalIn(error: unknown): LocalAddressRefused | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    if (current instanceof LocalAddressRefused) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}
