// Batch enqueue (a bulk action, issue 15): a batch coalesces exactly as the same ops enqueued one
// by one, is ONE journal record (one fsync), is refused whole when one op is bad, and after a
// crash is wholly in the queue or not at all: a torn last record (cut by hand, and by SIGKILL in
// seeded trials of a child process enqueueing batches) loses the whole batch and nothing else.
// All of it on this machine's files and on Windows' as test/support/windows-fs.ts plays them.
import { readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JOURNAL_FILE } from '../../src-main/core/outbox/journal';
import { OutboxError } from '../../src-main/core/outbox/outbox';
import { OUTBOX_BATCH_MAX, type NewOp, type Op } from '../../src-shared/outbox-types';
import { mulberry32 } from '../support/prng';
import { FS_PLATFORMS } from '../support/windows-fs';
import { runUntilKilled } from './kill-child';
import { batchOps, BATCH_COMPACT_AFTER, OWN, ownId, SHARED, sharedId } from './batch-workload';
import {
  ACCOUNT,
  createCustomer,
  createRoute,
  deleteCustomer,
  scratch,
  serverCustomer,
  tempId,
  updateCustomer,
} from './fixtures';
import { testBoundMs } from '../support/until';

const CHILD = fileURLToPath(new URL('./batch-crash-child.ts', import.meta.url));

describe.each(FS_PLATFORMS)('on %s files', (platform) => {
  let box: Awaited<ReturnType<typeof scratch>>;
  beforeEach(async () => {
    box = await scratch(platform);
  });
  afterEach(async () => {
    await box.cleanup();
  });

  const journalLines = async (dir: string): Promise<number> =>
    (await readFile(join(dir, JOURNAL_FILE), 'utf8')).split('\n').length - 1;

  /** Ops without their ids (two outboxes number them alike, but compare by content anyway). */
  const content = (ops: Op[]) => ops.map(({ opId: _id, ...rest }) => rest);

  // A queue with an earlier pending edit, a pending create and an in-flight op to coalesce into.
  const before: NewOp[] = [
    updateCustomer('11', { city: 'Old' }, serverCustomer('11')),
    createCustomer(tempId(1), 'Made offline'),
    updateCustomer('12', { city: 'Sent' }, serverCustomer('12')),
  ];
  const batch: NewOp[] = [
    updateCustomer('11', { color: '#ff0000' }, serverCustomer('11')),
    updateCustomer(tempId(1), { color: '#ff0000' }),
    updateCustomer('12', { color: '#ff0000' }, serverCustomer('12')),
    updateCustomer('13', { color: '#ff0000' }, serverCustomer('13')),
    updateCustomer('13', { phone: '555' }, serverCustomer('13')),
    createCustomer(tempId(2), 'Created and dropped'),
    createRoute(tempId(3), 'Through a dropped one', ['13', tempId(2)]),
    deleteCustomer(tempId(2)),
    deleteCustomer('14', serverCustomer('14')),
  ];

  describe('outbox batch enqueue', () => {
    it('coalesces each op exactly as enqueueing them one by one would', async () => {
      const clock = { now: () => 7, sleep: () => Promise.resolve() };
      const one = await box.open({ clock });
      const other = await scratch(platform);
      try {
        const two = await other.open({ clock });
        for (const outbox of [one, two]) {
          for (const op of before) await outbox.enqueue(op);
          await outbox.markInFlight(outbox.list()[2]!.opId, 5);
        }
        const single: Op[] = [];
        for (const op of batch) single.push(await one.enqueue(op));
        const many = await two.enqueueMany(batch);
        expect(content(many)).toEqual(content(single));
        expect(content(two.list())).toEqual(content(one.list()));
        // The earlier edit took the colour; the create took it; the in-flight op did not.
        expect(two.list().map((op) => [op.kind, op.target, op.state])).toEqual([
          ['updateCustomer', '11', 'pending'],
          ['createCustomer', tempId(1), 'pending'],
          ['updateCustomer', '12', 'in-flight'],
          ['updateCustomer', '12', 'pending'],
          ['updateCustomer', '13', 'pending'],
          ['createRoute', tempId(3), 'needs-attention'],
          ['deleteCustomer', '14', 'pending'],
        ]);
        expect(two.list()[0]!.payload).toEqual({ city: 'Old', color: '#ff0000' });
        // Positions go on after the batch as after single enqueues.
        await one.enqueue(updateCustomer('15', { city: 'X' }));
        await two.enqueue(updateCustomer('15', { city: 'X' }));
        await two.close();
        const reopened = await other.open({ clock });
        expect(content(reopened.list())).toEqual(content(one.list()));
      } finally {
        await other.cleanup();
      }
    });

    it('journals the whole batch as one record, and tells listeners once', async () => {
      const outbox = await box.open();
      await outbox.enqueue(before[0]!);
      const lines = await journalLines(box.dir);
      let told = 0;
      outbox.onChange(() => (told += 1));
      await outbox.enqueueMany(batchOps(1));
      expect(await journalLines(box.dir)).toBe(lines + 1);
      expect(told).toBe(1);
      expect(outbox.list()).toHaveLength(1 + SHARED + OWN);
    });

    it('refuses a whole batch with one bad op, a create queued twice, or too many ops', async () => {
      const outbox = await box.open();
      await outbox.enqueue(createCustomer(tempId(1), 'Once'));
      const lines = await journalLines(box.dir);
      const refusals = [
        [updateCustomer('21', { city: 'A' }), { kind: 'updateCustomer', target: '', payload: {} }],
        [updateCustomer('21', { city: 'A' }), createCustomer(tempId(1), 'Twice')],
        [createCustomer(tempId(2), 'A'), createCustomer(tempId(2), 'A again')],
        Array.from({ length: OUTBOX_BATCH_MAX + 1 }, (_, i) =>
          updateCustomer(String(100 + i), { city: 'A' }),
        ),
        [],
      ];
      for (const ops of refusals) {
        const error = await outbox.enqueueMany(ops as NewOp[]).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(OutboxError);
        expect((error as OutboxError).info.kind).toBe('InvalidRequest');
      }
      expect(await journalLines(box.dir)).toBe(lines);
      expect(outbox.list()).toHaveLength(1);
    });

    it('a batch cut mid-write is wholly absent after reopening, earlier ones whole', async () => {
      let outbox = await box.open({ compactAfterRecords: 1_000 });
      await outbox.enqueueMany(batchOps(1));
      const size = (await readFile(join(box.dir, JOURNAL_FILE))).length;
      await outbox.enqueueMany(batchOps(2));
      const full = await readFile(join(box.dir, JOURNAL_FILE));
      const grown = full.length;
      await outbox.close();
      // A crash while the second batch's line was being written: any cut loses all of it.
      for (const cut of [size + 1, size + Math.floor((grown - size) / 2), grown - 1]) {
        // Reopening cut the torn tail off the file: each trial starts from both batches whole.
        await writeFile(join(box.dir, JOURNAL_FILE), full);
        await truncate(join(box.dir, JOURNAL_FILE), cut);
        outbox = await box.open({ compactAfterRecords: 1_000 });
        expect(outbox.recovery.tornTailBytes).toBe(cut - size);
        const names = new Set(outbox.list().map((op) => (op.payload as { name: string }).name));
        expect(names).toEqual(new Set(['b1']));
        expect(outbox.list()).toHaveLength(SHARED + OWN);
        await outbox.close();
      }
    });
  });

  const TRIALS = 12;

  it(
    `a batch is wholly in the queue or absent after SIGKILL (${TRIALS} seeded trials)`,
    { timeout: testBoundMs() },
    async () => {
      const rand = mulberry32(15_2);
      const stats = { trials: 0, acked: 0, killedMidBatch: 0, unackedButWritten: 0, torn: 0 };
      for (let trial = 1; trial <= TRIALS; trial += 1) {
        await rm(box.dir, { recursive: true, force: true });
        const workMs = 20 + Math.floor(rand() * 400);
        // Each trial first waits for trial % 4 acknowledged batches: it does work at any load.
        const after = { acks: trial % 4, workMs };
        const lines = await runUntilKilled(
          CHILD,
          [box.dir, String(trial), ACCOUNT],
          platform,
          after,
        );
        const acked = lines.filter((l) => l.startsWith('ACK ')).map((l) => Number(l.slice(4)));
        const intents = lines.filter((l) => l.startsWith('INTENT ')).map((l) => Number(l.slice(7)));
        const unacked = intents.find((b) => !acked.includes(b)) ?? null;

        const outbox = await box.open({ compactAfterRecords: BATCH_COMPACT_AFTER });
        const ops = outbox.list();
        const torn = outbox.recovery.tornTailBytes > 0;
        await outbox.close();
        const nameOf = (op: Op | undefined) => (op?.payload as { name?: string } | null)?.name;
        const byTarget = new Map(ops.map((op) => [op.target, op]));
        expect(byTarget.size, 'one op per customer, none twice').toBe(ops.length);

        // The unacked batch is all there (every own customer, the shared ones renamed) or not at all.
        const written = unacked !== null && byTarget.has(ownId(unacked, 0));
        const batches = written ? [...acked, unacked] : acked;
        const ownOf = (b: number) =>
          Array.from({ length: OWN }, (_, i) => byTarget.get(ownId(b, i)));
        for (const b of batches) expect(ownOf(b).map(nameOf)).toEqual(ownOf(b).map(() => `b${b}`));
        if (unacked !== null && !written) expect(ownOf(unacked).filter(Boolean)).toEqual([]);
        expect(ops.length).toBe(batches.length * OWN + (batches.length > 0 ? SHARED : 0));
        const last = batches.at(-1);
        const shared = Array.from({ length: SHARED }, (_, i) => nameOf(byTarget.get(sharedId(i))));
        expect(shared).toEqual(shared.map(() => (last === undefined ? undefined : `b${last}`)));

        stats.trials += 1;
        stats.acked += acked.length;
        if (unacked !== null) stats.killedMidBatch += 1;
        if (written) stats.unackedButWritten += 1;
        if (torn) stats.torn += 1;
      }
      console.log(`outbox batch crash test (${platform}): ${JSON.stringify(stats)}`);
      expect(stats.acked).toBeGreaterThan(TRIALS);
    },
  );
});
