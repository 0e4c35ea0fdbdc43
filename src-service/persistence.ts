// JSON snapshot of the store on disk: atomic writes (temp file, fsync, rename), debounced.
import {
  closeSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
  existsSync,
} from 'node:fs';
import { dirname } from 'node:path';
import type { Account, StoredPointList } from './account';
import type { StoredCustomer } from './customers';
import type { ServiceStore } from './store';

const FORMAT = 'fieldmap-reference-service/1';

interface AccountSnapshot extends Omit<Account, 'customers'> {
  customers: StoredCustomer[];
}

interface Snapshot {
  format: string;
  accounts: AccountSnapshot[];
}

/** Writes `text` to `file` so a crash leaves either the old or the new content. */
export function writeFileAtomic(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  try {
    const dir = openSync(dirname(file), 'r');
    fsyncSync(dir);
    closeSync(dir);
  } catch {
    // Some platforms cannot fsync a directory; the rename is still atomic.
  }
}

export function saveSnapshot(store: ServiceStore, file: string): void {
  const snapshot: Snapshot = {
    format: FORMAT,
    accounts: store.allAccounts().map((a) => ({ ...a, customers: [...a.customers.values()] })),
  };
  writeFileAtomic(file, JSON.stringify(snapshot));
}

/** Loads the snapshot into the store; false when the file does not exist. */
export function loadSnapshot(store: ServiceStore, file: string): boolean {
  if (!existsSync(file)) return false;
  const snapshot = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  if (snapshot.format !== FORMAT) throw new Error(`${file}: not a reference-service snapshot`);
  for (const a of snapshot.accounts) {
    const routes: StoredPointList[] = a.routes;
    store.putAccount({ ...a, routes, customers: new Map(a.customers.map((c) => [c.id, c])) });
  }
  return true;
}

/** Saves at most once per `delayMs` after changes; flush() writes pending changes now. */
export class DebouncedSaver {
  private timer: NodeJS.Timeout | undefined;
  private dirty = false;

  constructor(
    private readonly store: ServiceStore,
    private readonly file: string,
    private readonly delayMs = 250,
  ) {}

  markDirty(): void {
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, this.delayMs);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.dirty) return;
    this.dirty = false;
    saveSnapshot(this.store, this.file);
  }
}
