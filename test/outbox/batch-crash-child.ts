// Child of the batch crash test: opens the outbox in <dir> and enqueues batches until killed.
// Batch b updates the shared customers s0..s(N-1) (coalescing into the ops queued for them) to
// name `b<b>`, and adds updates of its own new customers b<b>-0..; it prints "INTENT <b>" before
// each call and "ACK <b>" only once the call resolved (synchronous writes, nothing buffered).
// Usage: node --import tsx test/outbox/batch-crash-child.ts <dir> <trial> <accountKey>
import { writeSync } from 'node:fs';
import { Outbox } from '../../src-main/core/outbox/outbox';
import { fsFor, platformFromEnv } from '../support/windows-fs';
import { BATCH_COMPACT_AFTER, batchOps, MAX_BATCHES } from './batch-workload';

const [dir, trialText, accountKey] = process.argv.slice(2);
if (!dir || !trialText || !accountKey)
  throw new Error('usage: batch-crash-child <dir> <trial> <key>');
const trial = Number(trialText);
let opCount = 0;

const fs = fsFor(platformFromEnv(), dir);
const outbox = await Outbox.open({
  dir,
  accountKey,
  clock: { now: () => 0, sleep: () => Promise.resolve() },
  newOpId: () => `t${trial}-${(opCount += 1)}`,
  compactAfterRecords: BATCH_COMPACT_AFTER,
  // The platform the test runs this trial for (FIELDMAP_TEST_FS): win32 plays Windows' files.
  ...(fs ? { fs } : {}),
});
writeSync(1, 'READY\n');
for (let b = trial * 1000; b < trial * 1000 + MAX_BATCHES; b += 1) {
  writeSync(1, `INTENT ${b}\n`);
  await outbox.enqueueMany(batchOps(b));
  writeSync(1, `ACK ${b}\n`);
}
writeSync(1, 'IDLE\n');
await new Promise(() => setInterval(() => undefined, 60_000));
