// The rep's data on disk is readable by the rep only: the outbox journal and snapshot, the
// accounts index and every per-account file are 0600, their folders 0700, whatever the umask
// (this machine's is 022), and a journal left 0644 by an older version is narrowed on open.
import { chmod, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccountsIndex, accountDirOf } from '../../src-main/app/accounts-index';
import { nodeDurableFs } from '../../src-main/core/durable-fs';
import { Journal, JOURNAL_FILE, SNAPSHOT_FILE } from '../../src-main/core/outbox/journal';

let base: string;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'fieldmap-modes-'));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

describe('file modes', () => {
  it('the outbox journal and snapshot are 0600 in a 0700 folder', async () => {
    const dir = join(base, 'accounts', 'abc', 'outbox');
    const { journal } = await Journal.open(dir);
    try {
      await journal.append({ seq: 1, op: 'x' });
      expect(await modeOf(join(dir, JOURNAL_FILE))).toBe(0o600);
      await journal.compact({ seq: 1, ops: [] });
      expect(await modeOf(join(dir, SNAPSHOT_FILE))).toBe(0o600);
      expect(await modeOf(dir)).toBe(0o700);
    } finally {
      await journal.close();
    }
  });

  it('a journal and snapshot an older version left 0644 are 0600 once opened', async () => {
    const dir = join(base, 'old');
    const first = await Journal.open(dir);
    await first.journal.compact({ seq: 1, ops: [] });
    await first.journal.close();
    await chmod(join(dir, JOURNAL_FILE), 0o644);
    await chmod(join(dir, SNAPSHOT_FILE), 0o644);
    const again = await Journal.open(dir);
    await again.journal.close();
    expect(await modeOf(join(dir, JOURNAL_FILE))).toBe(0o600);
    expect(await modeOf(join(dir, SNAPSHOT_FILE))).toBe(0o600);
  });

  it('the accounts index and per-account files are 0600, account folders 0700', async () => {
    const index = await AccountsIndex.open(base);
    await index.upsert({
      accountKey: 'k',
      baseUrl: 'https://x.example',
      username: 'rep',
      demo: false,
      lastUsedAt: 1,
    });
    expect(await modeOf(join(base, 'accounts.json'))).toBe(0o600);
    const accountDir = accountDirOf(base, 'k');
    await nodeDurableFs.writeFileAtomic(join(accountDir, 'ledger.json'), '{}');
    expect(await modeOf(join(accountDir, 'ledger.json'))).toBe(0o600);
    expect(await modeOf(accountDir)).toBe(0o700);
    expect(await modeOf(join(base, 'accounts'))).toBe(0o700);
  });
});
