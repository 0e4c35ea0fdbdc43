// Issue 4 "Crash test": a child enqueues ops and changes their states in a loop and is killed
// with SIGKILL at a seeded random moment; the parent then reopens the outbox and checks that it
// holds exactly the acknowledged history: every ACKed op once, with the predicted content, in
// FIFO order, plus at most the one change the child was making when it died. The same outbox
// lives through all trials, so recovery runs on top of recovered state and compactions. The
// trials run on this machine's files and again on Windows' as played by test/support/windows-fs.ts
// (no directory fsync, renames and deletes held by a scanner before they pass).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Op } from '../../src-shared/outbox-types';
import { applyAction, canonical, CRASH_COMPACT_AFTER, hashOp, type Action } from './crash-workload';
import { mulberry32 } from '../support/prng';
import { FS_PLATFORMS } from '../support/windows-fs';
import { runUntilKilled } from './kill-child';
import { ACCOUNT, scratch } from './fixtures';
import { testBoundMs } from '../support/until';

const SEED = 4_2024;
const TRIALS = 50;
const CHILD = fileURLToPath(new URL('./crash-child.ts', import.meta.url));

describe.each(FS_PLATFORMS)('on %s files', (platform) => {
  let box: Awaited<ReturnType<typeof scratch>>;
  beforeAll(async () => {
    box = await scratch(platform);
  });
  afterAll(async () => {
    await box.cleanup();
  });

  it(
    `every acknowledged op survives SIGKILL exactly once (${TRIALS} seeded trials)`,
    { timeout: testBoundMs() },
    async () => {
      const rand = mulberry32(SEED);
      let model: Op[] = [];
      const stats = {
        trials: 0,
        acks: 0,
        queuedOpsCompared: 0,
        killedMidCall: 0,
        killedMidCallButWritten: 0,
        tornTails: 0,
        killedMidCompaction: 0,
        acked: {} as Record<string, number>,
      };
      for (let trial = 1; trial <= TRIALS; trial += 1) {
        const started = Date.now();
        const args = [box.dir, String(SEED), String(trial), ACCOUNT];
        const workMs = 20 + Math.floor(rand() * 280);
        const lines = await runUntilKilled(CHILD, args, platform, { workMs });
        if (process.env.CRASH_DEBUG)
          console.log(`trial ${trial}: ${lines.length} lines, ${Date.now() - started} ms`);
        let unacked: Action | null = null;
        for (const line of lines) {
          if (line.startsWith('INTENT ')) {
            expect(unacked, 'two INTENTs without an ACK between them').toBeNull();
            unacked = JSON.parse(line.slice(7)) as Action;
          } else {
            const [tag, opId, hash] = line.split(' ');
            expect(tag).toBe('ACK');
            if (!unacked) throw new Error(`ACK without INTENT: ${line}`);
            const predicted = applyAction(model, unacked, ACCOUNT);
            const touched =
              unacked.type === 'enqueue'
                ? predicted.result
                : predicted.queue.find((op) => op.opId === opId);
            // The outbox acknowledged exactly the op the documented rules predict.
            expect({ opId, hash }).toEqual({ opId: touched?.opId ?? opId, hash: hashOp(touched) });
            model = predicted.queue;
            stats.acks += 1;
            const label =
              unacked.type !== 'enqueue'
                ? unacked.type
                : predicted.result?.state === 'done'
                  ? `${unacked.op.kind}-cancelled`
                  : predicted.result?.opId !== unacked.opId
                    ? `${unacked.op.kind}-merged`
                    : unacked.op.kind;
            stats.acked[label] = (stats.acked[label] ?? 0) + 1;
            unacked = null;
          }
        }

        const midCompaction = existsSync(join(box.dir, 'outbox.snapshot.tmp'));
        const outbox = await box.open({ compactAfterRecords: CRASH_COMPACT_AFTER });
        const actual = outbox.list();
        const tornTail = outbox.recovery.tornTailBytes > 0;
        await outbox.close();

        const withUnacked = unacked ? applyAction(model, unacked, ACCOUNT).queue : null;
        const matchesAcked = canonical(actual) === canonical(model);
        const matchesWithUnacked =
          withUnacked !== null && canonical(actual) === canonical(withUnacked);
        if (!matchesAcked && !matchesWithUnacked) {
          // Show the difference by op id before failing.
          expect(actual.map((op) => `${op.opId}:${op.state}`)).toEqual(
            model.map((op) => `${op.opId}:${op.state}`),
          );
          expect(actual).toEqual(model);
        }
        expect(new Set(actual.map((op) => op.opId)).size).toBe(actual.length);
        if (matchesWithUnacked && !matchesAcked) model = withUnacked;

        stats.trials += 1;
        stats.queuedOpsCompared += actual.length;
        if (unacked) stats.killedMidCall += 1;
        if (unacked && matchesWithUnacked && !matchesAcked) stats.killedMidCallButWritten += 1;
        if (tornTail) stats.tornTails += 1;
        if (midCompaction) stats.killedMidCompaction += 1;
      }
      console.log(`outbox crash test (${platform}): ${JSON.stringify(stats)}`);
      expect(stats.trials).toBe(TRIALS);
      expect(stats.acks).toBeGreaterThan(TRIALS);
    },
  );
});
