// Main's file seam (src-main/core/durable-fs.ts) under each platform's rules, on real files: on
// Windows (played by test/support/windows-fs.ts) no directory is fsync'd, a rename a scanner
// holds is retried until it passes, one held for good is a typed error naming the file while
// the old file stays, and the outbox loses nothing and reports no error when its compaction
// cannot rename. POSIX keeps the directory fsync and retries nothing.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DurableFs,
  DurableWriteError,
  nodeFsOps,
  RETRY_DELAYS_MS,
  type FsOps,
} from '../../src-main/core/durable-fs';
import { Outbox } from '../../src-main/core/outbox/outbox';
import { SNAPSHOT_FILE } from '../../src-main/core/outbox/journal';
import { playWindows } from '../support/windows-fs';
import { ACCOUNT, updateCustomer } from './fixtures';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fieldmap-durable-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const codeOf = (error: unknown) => (error as NodeJS.ErrnoException).code;

describe('the Windows player', () => {
  // The fake stands in for Windows: it must itself do what Windows does, or the suites over it
  // prove nothing.
  it('refuses a directory fsync, holds new files, refuses names Windows would not keep', async () => {
    const { ops } = playWindows(dir);
    const handle = await ops.open(dir, 'r');
    expect(codeOf(await handle.sync().catch((e: unknown) => e))).toBe('EPERM');
    await handle.close();
    expect(codeOf(await ops.open(dir, 'w').catch((e: unknown) => e))).toBe('EISDIR');

    const file = join(dir, 'a.tmp');
    await (await ops.open(file, 'w')).close();
    const tries = [];
    for (let i = 0; i < 3; i += 1) {
      tries.push(await ops.rename(file, join(dir, 'a.json')).then(() => 'ok', codeOf));
    }
    expect(tries).toEqual(['EPERM', 'EBUSY', 'ok']);

    for (const name of ['CON', 'nul.json', 'com1.tmp', 'a:b', 'what?', 'dot.', 'space ', 'A.JSON'])
      expect(await ops.open(join(dir, name), 'w').then(() => name, codeOf)).toMatch(
        /^(ENOENT|EWINNAME|EWINCASE)$/,
      );
    const deep = join(dir, 'x'.repeat(200));
    expect(await ops.mkdir(deep, { recursive: true }).then(() => 'ok', codeOf)).toBe(
      'ENAMETOOLONG',
    );
  });
});

describe('DurableFs on Windows', () => {
  it('replaces a file without a directory fsync, through a scanner holding the temp file', async () => {
    const windows = playWindows(dir);
    const file = join(dir, 'state', 'settings.json');
    await windows.fs.writeJson(file, { v: 1 });
    await windows.fs.writeJson(file, { v: 2 });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ v: 2 });
    expect(await readdir(join(dir, 'state'))).toEqual(['settings.json']);
    expect(windows.dirSyncs).toEqual([]);
    // Each write's rename was refused twice, then passed after the first two waits.
    expect(windows.held).toEqual({ EPERM: 2, EBUSY: 2 });
    expect(windows.sleeps).toEqual([
      ...RETRY_DELAYS_MS.slice(0, 2),
      ...RETRY_DELAYS_MS.slice(0, 2),
    ]);
  });

  it('a file held past the retries: a typed error naming it and why, the old file intact', async () => {
    const file = join(dir, 'regions.json');
    await writeFile(file, '{"old":true}');
    const windows = playWindows(dir, { holdsForever: (path) => path === file });
    const error = await windows.fs.writeJson(file, { old: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DurableWriteError);
    const info = (error as DurableWriteError).info;
    expect(info.kind).toBe('Internal');
    expect(info.message).toBe(
      'Could not save regions.json on this laptop: another program (an antivirus or a search indexer?) keeps it locked.',
    );
    expect(info.detail).toContain(`${file}: `);
    expect(info.detail).toContain(`after ${RETRY_DELAYS_MS.length + 1} attempts`);
    expect(windows.sleeps).toEqual(RETRY_DELAYS_MS);
    expect(await readFile(file, 'utf8')).toBe('{"old":true}');
    expect(await readdir(dir)).toEqual(['regions.json']); // the temp file went
  });
});

describe('DurableFs on POSIX', () => {
  it('fsyncs the directory after the rename and retries nothing', async () => {
    const synced: string[] = [];
    let failRename = false;
    const ops: FsOps = {
      ...nodeFsOps,
      async open(path, flags, mode) {
        const handle = await nodeFsOps.open(path, flags, mode);
        if (path === dir) synced.push(path);
        return handle;
      },
      async rename(from, to) {
        if (failRename) throw Object.assign(new Error('EBUSY'), { code: 'EBUSY' });
        await nodeFsOps.rename(from, to);
      },
    };
    const sleeps: number[] = [];
    const fs = new DurableFs({ ops, platform: 'linux', sleep: async (ms) => void sleeps.push(ms) });
    await fs.writeJson(join(dir, 'a.json'), 1);
    expect(synced).toEqual([dir]);
    failRename = true;
    const error = await fs.writeJson(join(dir, 'a.json'), 2).catch((e: unknown) => e);
    expect((error as DurableWriteError).code).toBe('EBUSY');
    expect(sleeps).toEqual([]);
  });
});

describe('the outbox on Windows', () => {
  it('a snapshot held for good: every change is acknowledged and kept once, compaction waits', async () => {
    const snapshot = join(dir, SNAPSHOT_FILE);
    const held = playWindows(dir, { holdsForever: (path) => path === snapshot });
    // A snapshot exists, so every compaction must replace it (held), not create it.
    const open = (fs: DurableFs, compactAfterRecords = 5) =>
      Outbox.open({ dir, accountKey: ACCOUNT, compactAfterRecords, fs });
    const first = await open(playWindows(dir).fs, 2);
    for (let i = 0; i < 2; i += 1) await first.enqueue(updateCustomer(`s${i}`, { city: 'a' }));
    await first.close();

    const outbox = await open(held.fs);
    const opened = held.sleeps.length; // the lock's temp file, held twice
    const acked = [];
    for (let i = 0; i < 12; i += 1)
      acked.push((await outbox.enqueue(updateCustomer(`c${i}`, { city: `x${i}` }))).opId);
    // Tried after 5 and 10 records, not at every change after them.
    expect(held.sleeps.slice(opened)).toEqual([...RETRY_DELAYS_MS, ...RETRY_DELAYS_MS]);
    await outbox.close();

    // Reopened with the file still held: the compaction due on open fails quietly too.
    const again = await open(held.fs);
    const ids = again.list().map((op) => op.opId);
    await again.close();
    expect(ids.slice(2)).toEqual(acked);
    expect(new Set(ids).size).toBe(14);

    // Once the scanner lets go, the next open compacts and still holds exactly the same queue.
    const last = await open(playWindows(dir).fs);
    expect(last.list().map((op) => op.opId)).toEqual(ids);
    expect(last.recovery.journalRecords).toBe(12);
    await last.close();
    expect((await readdir(dir)).sort()).toEqual(['outbox.journal', 'outbox.snapshot']);
  });
});
