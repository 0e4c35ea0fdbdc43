// KeytarCredentialStore against the real Secret Service (gnome-keyring in a throwaway D-Bus
// session: `npm test` starts one; by hand see the common brief's dbus-run-session command).
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accountKeyOf,
  KEYCHAIN_SERVICE,
  KeytarCredentialStore,
  parseAccountKey,
} from '../../src-main/core/service/credential-store';
import { startService, type RunningService } from '../../src-service/index';
import { clientFor, errorOf } from '../support/service';

// scripts/test.sh sets FIELDMAP_TEST_REAL_HOME and runs inside an unlocked keyring: there the
// suite must run, so a broken keychain fails it instead of skipping it.
const insideNpmTest = process.env['FIELDMAP_TEST_REAL_HOME'] !== undefined;

async function secretServiceProblem(): Promise<string | null> {
  try {
    const keytar = (await import('keytar')).default;
    await keytar.findCredentials('fieldmap-probe');
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

const problem = insideNpmTest ? null : await secretServiceProblem();
if (problem) {
  console.warn(
    `credential-store.test.ts SKIPPED: no Secret Service reachable (${problem}). Run it with ` +
      `HOME=$(mktemp -d) dbus-run-session -- sh -c 'eval $(echo -n pw | gnome-keyring-daemon ` +
      `--unlock --components=secrets); npx vitest run test/client/credential-store.integration.test.ts'`,
  );
}

/** Every file under `dir`, recursively. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe.skipIf(problem !== null)('KeytarCredentialStore (real keychain)', () => {
  // A namespace of our own, so a developer's real Fieldmap entries are never touched.
  const store = new KeytarCredentialStore({ service: `fieldmap-test-${process.pid}` });
  const base = 'https://crm.example.com';
  const password = 'Zq!9 lönger pässwörd #7';

  afterAll(async () => {
    for (const account of await store.list()) await store.delete(account.baseUrl, account.username);
  });

  it('saves, loads, overwrites and deletes a password', async () => {
    expect(await store.load(base, 'ann')).toBeNull();
    await store.save(base, 'ann', password);
    expect(await store.load(base, 'ann')).toBe(password);
    await store.save(base, 'ann', `${password}-2`);
    expect(await store.load(base, 'ann')).toBe(`${password}-2`);
    expect(await store.delete(base, 'ann')).toBe(true);
    expect(await store.load(base, 'ann')).toBeNull();
    expect(await store.delete(base, 'ann')).toBe(false);
  });

  it('keeps accounts apart by base URL and user name, and lists them without passwords', async () => {
    await store.save(base, 'bob', 'pw-bob-1');
    await store.save('http://127.0.0.1:8080', 'bob', 'pw-bob-2');
    await store.save(base, 'team#west', 'pw-west');
    const listed = await store.list();
    expect(listed).toEqual([
      {
        baseUrl: 'http://127.0.0.1:8080',
        username: 'bob',
        accountKey: 'http://127.0.0.1:8080#bob',
      },
      { baseUrl: base, username: 'bob', accountKey: `${base}#bob` },
      { baseUrl: base, username: 'team#west', accountKey: `${base}#team#west` },
    ]);
    expect(JSON.stringify(listed)).not.toMatch(/pw-/);
    expect(await store.load('http://127.0.0.1:8080', 'bob')).toBe('pw-bob-2');
  });

  it('uses the documented keychain names', () => {
    expect(KEYCHAIN_SERVICE).toBe('fieldmap');
    expect(accountKeyOf('https://a.example', 'rep')).toBe('https://a.example#rep');
    expect(parseAccountKey('https://a.example#rep#2')).toEqual({
      baseUrl: 'https://a.example',
      username: 'rep#2',
    });
    expect(parseAccountKey('no-hash')).toBeNull();
  });

  describe('the password stays in the keychain', () => {
    let service: RunningService;
    let dataDir: string;
    const rep = { username: 'carol', password: 'kEyChAin-only-Secret-42' };

    beforeAll(async () => {
      service = await startService({ rate: 0, accounts: [{ ...rep, customers: 5 }] });
      dataDir = await mkdtemp(join(tmpdir(), 'fieldmap-creds-'));
    });
    afterAll(async () => {
      await service.stop();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('serves a client from the keychain; no file under the data dir or HOME holds it', async () => {
      await store.save(service.url, rep.username, rep.password);
      const client = clientFor(service.url, {
        username: rep.username,
        getPassword: async () => (await store.load(service.url, rep.username)) ?? '',
      });
      const user = await client.getUser();
      expect(user.username).toBe(rep.username);
      await store.save(service.url, rep.username, 'not-the-password');
      const refused = await errorOf(client.getUser());
      expect(refused.kind).toBe('Unauthorized');
      await store.save(service.url, rep.username, rep.password);

      // What the app persists next to its data: the accounts, the last user, the last error.
      await writeFile(join(dataDir, 'accounts.json'), JSON.stringify(await store.list()));
      await writeFile(join(dataDir, 'user.json'), JSON.stringify(user));
      await writeFile(join(dataDir, 'last-error.json'), JSON.stringify(refused));

      const basic = Buffer.from(`${rep.username}:${rep.password}`).toString('base64');
      const dirs = [dataDir];
      // Under npm test HOME is a throwaway that holds the keyring files: search them too.
      if (insideNpmTest && process.env['HOME']) dirs.push(process.env['HOME']);
      const files = (await Promise.all(dirs.map(filesUnder))).flat();
      expect(files.length).toBeGreaterThanOrEqual(3);
      if (insideNpmTest) expect(files.some((f) => f.includes('keyrings'))).toBe(true);
      for (const file of files) {
        const content = await readFile(file).catch(() => Buffer.alloc(0));
        expect(content.includes(rep.password), file).toBe(false);
        expect(content.includes(basic), file).toBe(false);
      }
      expect(await readFile(join(dataDir, 'accounts.json'), 'utf8')).toContain(rep.username);
    });
  });
});
