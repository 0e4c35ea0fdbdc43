// The non-secret index of remembered accounts (dataDir/accounts.json): which accounts exist
// and which was used last, so start-up can reopen it without the network. Never a password.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import * as v from 'valibot';
import { nodeDurableFs, type DurableFs } from '../core/durable-fs';

const IndexEntrySchema = v.object({
  accountKey: v.string(),
  baseUrl: v.string(),
  username: v.string(),
  demo: v.boolean(),
  lastUsedAt: v.number(),
});
export type AccountIndexEntry = v.InferOutput<typeof IndexEntrySchema>;

const IndexFileSchema = v.object({ version: v.literal(1), accounts: v.array(IndexEntrySchema) });

/**
 * Per-account data dir: a hash in lower-case hex, so user names and URLs never shape paths: no
 * name Windows refuses or reserves, a short path, and two accounts that differ only by case
 * get two folders on a case-insensitive disk (Windows, macOS) too.
 */
export function accountDirOf(dataDir: string, accountKey: string): string {
  const hash = createHash('sha256').update(accountKey).digest('hex').slice(0, 32);
  return join(dataDir, 'accounts', hash);
}

export class AccountsIndex {
  private readonly file: string;
  private entries: AccountIndexEntry[] = [];

  private constructor(
    dataDir: string,
    private readonly fs: DurableFs,
  ) {
    this.file = join(dataDir, 'accounts.json');
  }

  static async open(dataDir: string, fs: DurableFs = nodeDurableFs): Promise<AccountsIndex> {
    const index = new AccountsIndex(dataDir, fs);
    const raw = await fs.readJson(index.file);
    // A damaged index only forgets which accounts exist; the keychain and outboxes are intact.
    const parsed = raw === undefined ? undefined : v.safeParse(IndexFileSchema, raw);
    index.entries = parsed?.success ? parsed.output.accounts : [];
    return index;
  }

  list(): AccountIndexEntry[] {
    return [...this.entries].sort((a, b) => b.lastUsedAt - a.lastUsedAt);
  }

  get(accountKey: string): AccountIndexEntry | undefined {
    return this.entries.find((e) => e.accountKey === accountKey);
  }

  lastUsed(): AccountIndexEntry | undefined {
    return this.list()[0];
  }

  async upsert(entry: AccountIndexEntry): Promise<void> {
    this.entries = [...this.entries.filter((e) => e.accountKey !== entry.accountKey), entry];
    await this.save();
  }

  async remove(accountKey: string): Promise<void> {
    this.entries = this.entries.filter((e) => e.accountKey !== accountKey);
    await this.save();
  }

  private async save(): Promise<void> {
    await this.fs.writeFileAtomic(
      this.file,
      JSON.stringify({ version: 1, accounts: this.entries }, null, 2),
    );
  }
}
