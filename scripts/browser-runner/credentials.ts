// The runner's credential store: the real keychain (keytar) when a Secret Service answers, else
// an in-memory store with a warning. The runner is a dev/test tool; the Electron app always
// uses keytar.
import type { CredentialStore } from '../../src-main/core/ports';
import { KeytarCredentialStore } from '../../src-main/core/service/credential-store';

/** Passwords in this process's memory only; forgotten when the runner exits. */
export class MemoryCredentialStore implements CredentialStore {
  readonly #entries = new Map<string, { baseUrl: string; username: string; password: string }>();

  async save(baseUrl: string, username: string, password: string): Promise<void> {
    this.#entries.set(`${baseUrl}#${username}`, { baseUrl, username, password });
  }
  async load(baseUrl: string, username: string): Promise<string | null> {
    return this.#entries.get(`${baseUrl}#${username}`)?.password ?? null;
  }
  async delete(baseUrl: string, username: string): Promise<boolean> {
    return this.#entries.delete(`${baseUrl}#${username}`);
  }
  async list(): Promise<Array<{ baseUrl: string; username: string; accountKey: string }>> {
    return [...this.#entries.entries()].map(([accountKey, e]) => ({
      baseUrl: e.baseUrl,
      username: e.username,
      accountKey,
    }));
  }
}

const PROBE_TIMEOUT_MS = 5_000;

/** The keychain if it answers a list() in time, else memory (and why, for the warning). */
export async function pickCredentialStore(): Promise<{
  store: CredentialStore;
  warning: string | null;
}> {
  let reason: string;
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) {
    reason = 'no D-Bus session (DBUS_SESSION_BUS_ADDRESS is not set)';
  } else {
    try {
      const keychain = new KeytarCredentialStore();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${PROBE_TIMEOUT_MS} ms`)),
          PROBE_TIMEOUT_MS,
        );
      });
      await Promise.race([keychain.list(), timeout]).finally(() => clearTimeout(timer));
      return { store: keychain, warning: null };
    } catch (error) {
      reason = `the Secret Service did not answer (${error instanceof Error ? error.message : String(error)})`;
    }
  }
  return {
    store: new MemoryCredentialStore(),
    warning:
      `warning: no usable keychain: ${reason}. Passwords are kept in memory for this run only ` +
      `(sign in again after a restart). The Electron app always uses the OS keychain.`,
  };
}
