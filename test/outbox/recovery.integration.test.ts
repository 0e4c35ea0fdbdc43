// Recovery from damaged files, compaction, and the one-process lock, on real files: this
// machine's, and Windows' as test/support/windows-fs.ts plays them.
import { spawn } from 'node:child_process';
import { appendFile, copyFile, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OutboxError, type Outbox } from '../../src-main/core/outbox/outbox';
import { sourceWorkerScript } from '../../src-main/core/untrusted/source-worker';
import { encodeLine, JOURNAL_FILE, SNAPSHOT_FILE } from '../../src-main/core/outbox/journal';
import { LOCK_FILE } from '../../src-main/core/outbox/lock';
import { FS_PLATFORM_ENV, FS_PLATFORMS } from '../support/windows-fs';
import { createCustomer, scratch, tempId, updateCustomer } from './fixtures';

const CHILD = fileURLToPath(new URL('./crash-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe.each(FS_PLATFORMS)('on %s files', (platform) => {
  let box: Awaited<ReturnType<typeof scratch>>;

  beforeEach(async () => {
    box = await scratch(platform);
  });
  afterEach(async () => {
    await box.cleanup();
  });

  const journalPath = () => join(box.dir, JOURNAL_FILE);

  async function fill(outbox: Outbox, count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i += 1) {
      ids.push((await outbox.enqueue(updateCustomer(`srv${i}`, { city: `c${i}` }))).opId);
    }
    return ids;
  }

  describe('outbox recovery', () => {
    it('drops a torn last line (half a record) and keeps every whole one', async () => {
      const first = await box.open();
      const ids = await fill(first, 5);
      await first.close();
      const whole = await readFile(journalPath());
      const extra = encodeLine({ seq: 6, put: [], del: [ids[0]] });
      await appendFile(journalPath(), extra.subarray(0, extra.length - 7)); // a kill mid-append

      const second = await box.open();
      expect(second.list().map((op) => op.opId)).toEqual(ids);
      expect(second.recovery.tornTailBytes).toBe(extra.length - 7);
      // The torn bytes were cut, so the next record follows the last whole one.
      expect((await readFile(journalPath())).equals(whole)).toBe(true);
      const next = await second.enqueue(updateCustomer('srv99', { city: 'x' }));
      await second.close();
      const third = await box.open();
      expect(third.list().map((op) => op.opId)).toEqual([...ids, next.opId]);
      expect(third.recovery).toMatchObject({ tornTailBytes: 0, corruptLines: 0 });
    });

    it('drops garbage after the last record, including a whole line with a bad checksum', async () => {
      const first = await box.open();
      const ids = await fill(first, 3);
      await first.close();
      const forged = encodeLine({ seq: 4, put: [], del: [ids[1]] });
      const at = forged.length - 3;
      forged.writeUInt8(forged.readUInt8(at) ^ 0x01, at); // one flipped bit inside the JSON
      await appendFile(journalPath(), Buffer.concat([forged, Buffer.from('\u0000\u0000garbage')]));
      const second = await box.open();
      expect(second.list().map((op) => op.opId)).toEqual(ids);
      expect(second.recovery.tornTailBytes).toBe(forged.length + 9);
    });

    it('skips a damaged line in the middle (disk corruption) and counts it', async () => {
      const first = await box.open();
      const ids = await fill(first, 3);
      await first.close();
      const lines = (await readFile(journalPath(), 'utf8')).split('\n');
      lines[1] = (lines[1] ?? '').replace('"c1"', '"cX"'); // checksum no longer matches
      await writeFile(journalPath(), lines.join('\n'));
      const second = await box.open();
      expect(second.list().map((op) => op.opId)).toEqual([ids[0], ids[2]]);
      expect(second.recovery.corruptLines).toBe(1);
    });

    it('compacts into a snapshot and recovers snapshot + later journal records', async () => {
      const first = await box.open({ compactAfterRecords: 10 });
      const ids = await fill(first, 25);
      await first.markInFlight(ids[3] as string, 7);
      await first.markDone(ids[4] as string);
      expect((await stat(join(box.dir, SNAPSHOT_FILE))).size).toBeGreaterThan(0);
      // 27 records, compacted at 10 and 20: seven left in the journal.
      expect((await readFile(journalPath(), 'utf8')).trim().split('\n')).toHaveLength(7);
      await first.close();

      const second = await box.open({ compactAfterRecords: 10 });
      expect(second.list().map((op) => op.opId)).toEqual(ids.filter((id) => id !== ids[4]));
      expect(second.recovery).toMatchObject({ snapshotOps: 20, journalRecords: 7, inFlight: 1 });
      expect(second.get(ids[3] as string)).toMatchObject({
        state: 'in-flight',
        sentAt: 7,
        attempts: 1,
      });
      expect((await readdir(box.dir)).sort()).toEqual(
        [JOURNAL_FILE, LOCK_FILE, SNAPSHOT_FILE].sort(),
      );
    });

    it('survives a crash between the snapshot rename and the journal truncation', async () => {
      const first = await box.open({ compactAfterRecords: 5 });
      const ids = await fill(first, 4);
      const before = join(box.dir, 'journal-before-compaction');
      await copyFile(journalPath(), before);
      ids.push((await first.enqueue(updateCustomer('srv-last', { city: 'x' }))).opId); // compacts
      await first.close();
      // Put back the old journal as if the truncation never happened: its records are in the snapshot.
      await copyFile(before, journalPath());
      await appendFile(journalPath(), encodeLine({ seq: 6, put: [], del: [ids[0]] }));
      await writeFile(join(box.dir, 'outbox.snapshot.tmp'), 'half a compaction');

      const second = await box.open({ compactAfterRecords: 5 });
      expect(second.list().map((op) => op.opId)).toEqual(ids.slice(1));
      expect(second.recovery).toMatchObject({ snapshotOps: 5, journalRecords: 1 });
      expect((await readdir(box.dir)).includes('outbox.snapshot.tmp')).toBe(false);
    });

    it('refuses to open the outbox of one account with another account key', async () => {
      const first = await box.open();
      await fill(first, 1);
      await first.close();
      const error = await box
        .open({ accountKey: 'http://127.0.0.1:1#someone-else' })
        .catch((e: unknown) => e);
      expect((error as OutboxError).message).toMatch(/another account/);
      await expect(box.open()).resolves.toBeDefined(); // the refused open released the lock
    });

    it('refuses to start from a damaged snapshot instead of silently losing the queue', async () => {
      const first = await box.open({ compactAfterRecords: 2 });
      await fill(first, 2);
      await first.close();
      const snapshot = await readFile(join(box.dir, SNAPSHOT_FILE));
      await writeFile(join(box.dir, SNAPSHOT_FILE), snapshot.subarray(0, snapshot.length - 10));
      const error = await box.open().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OutboxError);
      expect((error as OutboxError).info).toMatchObject({ kind: 'Internal' });
      expect((error as OutboxError).message).toMatch(/snapshot file is damaged/);
    });
  });

  /** Runs a node process that holds the outbox lock file format by hand, and tells its pid. */
  function runNode(code: string): { pid: number; exited: Promise<void>; kill(): void } {
    const child = spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
    return {
      pid: child.pid as number,
      exited: new Promise((resolve) => child.once('exit', () => resolve())),
      kill: () => child.kill('SIGKILL'),
    };
  }

  describe('outbox lock', () => {
    it('refuses a second open of the same outbox while the first is open, then allows it', async () => {
      const first = await box.open();
      const error = await box.open().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OutboxError);
      expect((error as OutboxError).message).toMatch(
        new RegExp(`already open .*pid ${process.pid}`),
      );
      await first.close();
      await expect(box.open()).resolves.toBeDefined();
    });

    it('refuses while another live process holds the lock, takes over once it died', async () => {
      const holder = runNode('setInterval(() => {}, 1000)');
      try {
        await writeFile(join(box.dir, LOCK_FILE), `${holder.pid}\n`);
        const error = await box.open().catch((e: unknown) => e);
        expect((error as OutboxError).message).toMatch(new RegExp(`pid ${holder.pid}`));
      } finally {
        holder.kill();
        await holder.exited;
      }
      const outbox = await box.open();
      expect(await readFile(join(box.dir, LOCK_FILE), 'utf8')).toBe(`${process.pid}\n`);
      await outbox.enqueue(createCustomer(tempId(1), 'after takeover'));
      expect(outbox.list()).toHaveLength(1);
    });

    it('refuses while a child process has the outbox open, then takes over its stale lock after SIGKILL', async () => {
      const child = spawn(
        process.execPath,
        [await sourceWorkerScript(CHILD), box.dir, '7', '1', 'http://127.0.0.1:1#demo'],
        {
          cwd: ROOT,
          stdio: ['ignore', 'pipe', 'inherit'],
          env: { ...process.env, [FS_PLATFORM_ENV]: platform },
        },
      );
      const exited = new Promise((resolve) => child.once('exit', resolve));
      try {
        await new Promise<void>((resolve) => {
          let out = '';
          child.stdout.on('data', (chunk: Buffer) => {
            out += chunk.toString('utf8');
            if (out.startsWith('READY\n')) resolve();
          });
        });
        const error = await box.open().catch((e: unknown) => e);
        expect((error as OutboxError).message).toMatch(
          new RegExp(`already open .*pid ${child.pid}`),
        );
      } finally {
        child.kill('SIGKILL');
        await exited;
      }
      await box.open();
      expect(await readFile(join(box.dir, LOCK_FILE), 'utf8')).toBe(`${process.pid}\n`);
    });
  });
});
