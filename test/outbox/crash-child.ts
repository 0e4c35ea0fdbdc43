// Child of the crash test: opens the outbox in <dir> and performs the seeded workload until it is
// killed. It prints "INTENT <action>" before each call and "ACK <opId> <hash>" only after the call
// resolved, with synchronous writes so no line is lost to buffering at the moment of the kill.
// Usage: node --import tsx test/outbox/crash-child.ts <dir> <seed> <trial> <accountKey>
import { writeSync } from 'node:fs';
import { Outbox } from '../../src-main/core/outbox/outbox';
import { fsFor, platformFromEnv } from '../support/windows-fs';
import type { Op } from '../../src-shared/outbox-types';
import { mulberry32 } from '../support/prng';
import { CRASH_COMPACT_AFTER, hashOp, nextAction } from './crash-workload';

const [dir, seedText, trialText, accountKey] = process.argv.slice(2);
if (!dir || !seedText || !trialText || !accountKey)
  throw new Error('usage: crash-child <dir> <seed> <trial> <accountKey>');
const trial = Number(trialText);
const rand = mulberry32(Number(seedText) * 1000 + trial);
let opCount = 0;
let idCount = 0;
let now = 0;

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Writes a whole line now; the pipe is non-blocking, so wait out a full pipe (EAGAIN). */
function say(line: string): void {
  const bytes = Buffer.from(`${line}\n`, 'utf8');
  let offset = 0;
  while (offset < bytes.length) {
    try {
      offset += writeSync(1, bytes, offset);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}

const fs = fsFor(platformFromEnv(), dir);
const outbox = await Outbox.open({
  dir,
  accountKey,
  clock: { now: () => now, sleep: () => Promise.resolve() },
  newOpId: () => `t${trial}-${(opCount += 1)}`,
  compactAfterRecords: CRASH_COMPACT_AFTER,
  // The platform the test runs this trial for (FIELDMAP_TEST_FS): win32 plays Windows' files.
  ...(fs ? { fs } : {}),
});
say('READY');
for (;;) {
  now = trial * 1e6 + opCount;
  const ids = {
    fresh: () => trial * 100_000 + (idCount += 1),
    nextOpId: `t${trial}-${opCount + 1}`,
  };
  const action = nextAction(rand, outbox.list(), ids, now);
  say(`INTENT ${JSON.stringify(action)}`);
  let touched: Op | undefined;
  switch (action.type) {
    case 'enqueue':
      touched = await outbox.enqueue(action.op);
      break;
    case 'send':
      await outbox.markInFlight(action.opId, action.now);
      touched = outbox.get(action.opId);
      break;
    case 'done':
      await outbox.markDone(action.opId);
      break;
    case 'resolve':
      await outbox.resolveCreate(action.opId, action.serverId);
      break;
    case 'discard':
      await outbox.discard(action.opId);
      break;
    case 'bounce':
      await outbox.markRetryLater(action.opId, action.error);
      touched = outbox.get(action.opId);
      break;
  }
  say(`ACK ${touched?.opId ?? action.opId} ${hashOp(touched)}`);
}
