// Measures (reports, never asserts) enqueue latency with fsync on this disk.
// Usage: npx tsx test/outbox/enqueue-latency.ts [count]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Outbox } from '../../src-main/core/outbox/outbox';
import { ACCOUNT, createCustomer, tempId, updateCustomer } from './fixtures';

const count = Number(process.argv[2] ?? 500);
const dir = await mkdtemp(
  join(process.env.OUTBOX_BENCH_DIR ?? tmpdir(), 'fieldmap-outbox-latency-'),
);
try {
  const outbox = await Outbox.open({ dir, accountKey: ACCOUNT });
  const samples: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const op =
      i % 2
        ? createCustomer(tempId(i), `Customer ${i}`)
        : updateCustomer(`srv${i}`, { city: `c${i}` });
    const start = process.hrtime.bigint();
    await outbox.enqueue(op);
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  await outbox.close();
  samples.sort((a, b) => a - b);
  const at = (q: number) =>
    (samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] ?? 0).toFixed(2);
  console.log(
    JSON.stringify({
      dir: dir.replace(/[^/]*$/, ''),
      enqueues: count,
      p50_ms: at(0.5),
      p95_ms: at(0.95),
      max_ms: at(1),
    }),
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
