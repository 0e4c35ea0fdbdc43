// Passwords in the OS keychain through keytar (Secret Service on Linux, Keychain on macOS,
// Credential Vault on Windows). The password is never written anywhere else; list() returns
// account identities only.
import type { CredentialStore } from '../ports';

/** The service name under which every Fieldmap password is stored. */
export const KEYCHAIN_SERVICE = 'fieldmap';

type Keytar = typeof import('keytar');

/** Keychain account of a login: `<baseUrl>#<username>` (user names may contain '#'). */
export function accountKeyOf(baseUrl: string, username: string): string {
  return `${baseUrl}#${username}`;
}

/** Splits an account key at the first '#' after the URL (a base URL never contains '#'). */
export function parseAccountKey(accountKey: string): { baseUrl: string; username: string } | null {
  const hash = accountKey.indexOf('#');
  if (hash <= 0 || hash === accountKey.length - 1) return null;
  return { baseUrl: accountKey.slice(0, hash), username: accountKey.slice(hash + 1) };
}

// Loaded on first use: keytar is a native addon, kept external by electron-vite; a dynamic
// import works the same bundled and under tsx, and a broken keychain library fails the call
// that needs it instead of the whole app's start-up.
let keytarModule: Promise<Keytar> | undefined;
function loadKeytar(): Promise<Keytar> {
  keytarModule ??= import('keytar').then(
    (m) => ((m as { default?: Keytar }).default ?? m) as Keytar,
  );
  return keytarModule;
}

export class KeytarCredentialStore implements CredentialStore {
  readonly #service: string;

  /** `service` is overridable so tests can use their own keychain namespace. */
  constructor(options: { service?: string } = {}) {
    this.#service = options.service ?? KEYCHAIN_SERVICE;
  }

  async save(baseUrl: string, username: string, password: string): Promise<void> {
    if (password === '') throw new Error('refusing to store an empty password');
    const keytar = await loadKeytar();
    await keytar.setPassword(this.#service, accountKeyOf(baseUrl, username), password);
  }

  async load(baseUrl: string, username: string): Promise<string | null> {
    const keytar = await loadKeytar();
    return keytar.getPassword(this.#service, accountKeyOf(baseUrl, username));
  }

  async delete(baseUrl: string, username: string): Promise<boolean> {
    const keytar = await loadKeytar();
    return keytar.deletePassword(this.#service, accountKeyOf(baseUrl, username));
  }

  async list(): Promise<Array<{ baseUrl: string; username: string; accountKey: string }>> {
    const keytar = await loadKeytar();
    const found = await keytar.findCredentials(this.#service);
    // findCredentials also returns the passwords: keep only the account names.
    const accounts = found
      .map(({ account }) => ({ accountKey: account, parsed: parseAccountKey(account) }))
      .filter((a): a is { accountKey: string; parsed: { baseUrl: string; username: string } } =>
        Boolean(a.parsed),
      )
      .map(({ accountKey, parsed }) => ({
        baseUrl: parsed.baseUrl,
        username: parsed.username,
        accountKey,
      }));
    return accounts.sort((a, b) => a.accountKey.localeCompare(b.accountKey));
  }
}
