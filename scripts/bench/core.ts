// Bench module (run by scripts/bench.ts): the main-process data core against the reference
// service over loopback HTTP.
// - outbox_drain_ops_per_s / outbox_429s: 300 queued updates drained by the SyncEngine with
//   the service at its 3 req/s limit and the client limiter at 3/s (target >= 2.85, zero 429s).
//   Measured from syncNow until the outbox is empty (the pull that follows is not counted).
// - pull_100k_ms: a full pull of 100,000 customers through the ServiceClient and the engine
//   (validated, normalised, fingerprinted for the next delta), with raw fetch + JSON.parse of
//   the same list in the same run as the baseline.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Outbox } from '../../src-main/core/outbox/outbox';
import { systemClock } from '../../src-main/core/ports';
import { RateLimiter } from '../../src-main/core/service/rate-limiter';
import { ServiceClient } from '../../src-main/core/service/client';
import { SyncEngine } from '../../src-main/core/sync/engine';
import { startService } from '../../src-service/index';
import { round } from './support/stats';

const USER = 'bench';
const PASSWORD = 'bench-password';
const DRAIN_OPS = 300;
const PULL_CUSTOMERS = 100_000;

async function withCore<T>(
  url: string,
  limit: number,
  body: (parts: { engine: SyncEngine; outbox: Outbox }) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fieldmap-bench-core-'));
  const accountKey = `${url}#${USER}`;
  const client = new ServiceClient({
    baseUrl: url,
    username: USER,
    getPassword: async () => PASSWORD,
    limiter: new RateLimiter({ limit }),
    timeoutMs: 120_000,
  });
  const outbox = await Outbox.open({ dir: path.join(dir, 'outbox'), accountKey });
  const engine = new SyncEngine({
    accountKey,
    api: client,
    outbox,
    clock: systemClock,
    emit: () => undefined,
    stateDir: path.join(dir, 'state'),
    ratePerSecond: limit,
  });
  try {
    return await body({ engine, outbox });
  } finally {
    await engine.stop();
    await outbox.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function drain(): Promise<Record<string, number>> {
  const service = await startService({
    rate: 3,
    accounts: [{ username: USER, password: PASSWORD, customers: 500, seed: 3 }],
  });
  try {
    return await withCore(service.url, 3, async ({ engine, outbox }) => {
      const customers = service.store.customers(USER).slice(0, DRAIN_OPS);
      for (const [i, c] of customers.entries()) {
        await outbox.enqueue({
          kind: 'updateCustomer',
          target: c.id,
          payload: { notes: `bench visit ${i}` },
          base: structuredClone(c),
        });
      }
      service.resetStats();
      const started = performance.now();
      let drainedAt = 0;
      const stopListening = outbox.onChange((ops) => {
        if (ops.length === 0 && drainedAt === 0) drainedAt = performance.now();
      });
      const state = await engine.syncNow();
      const syncMs = performance.now() - started;
      stopListening();
      if (state.kind !== 'synced' || drainedAt === 0) {
        throw new Error(
          `drain did not finish: ${JSON.stringify(state)}, ${outbox.list().length} left`,
        );
      }
      const stats = service.stats();
      const applied = service.store
        .customers(USER)
        .filter((c) => c.notes.startsWith('bench visit')).length;
      if (applied !== customers.length)
        throw new Error(`only ${applied} updates reached the service`);
      const drainMs = drainedAt - started;
      return {
        outbox_drain_ops_per_s: round((customers.length * 1000) / drainMs, 3),
        outbox_429s: stats.rateLimited,
        outbox_drain_ms: Math.round(drainMs),
        outbox_drain_requests_incl_pull: stats.requests,
        outbox_drain_then_pull_ms: Math.round(syncMs),
      };
    });
  } finally {
    await service.stop();
  }
}

async function pull(): Promise<Record<string, number>> {
  const service = await startService({
    rate: 0,
    accounts: [{ username: USER, password: PASSWORD, customers: PULL_CUSTOMERS, seed: 5 }],
  });
  try {
    const auth = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
    const fetchStarted = performance.now();
    const response = await fetch(`${service.url}/api/v1/customers`, {
      headers: { authorization: auth },
    });
    const text = await response.text();
    const parseStarted = performance.now();
    const raw = JSON.parse(text) as unknown[];
    const done = performance.now();
    if (raw.length !== PULL_CUSTOMERS)
      throw new Error(`expected ${PULL_CUSTOMERS}, got ${raw.length}`);

    return await withCore(service.url, 1000, async ({ engine }) => {
      const started = performance.now();
      const state = await engine.syncNow();
      const pullMs = performance.now() - started;
      if (state.kind !== 'synced') throw new Error(`pull failed: ${JSON.stringify(state)}`);
      const again = performance.now();
      await engine.syncNow();
      const deltaMs = performance.now() - again;
      return {
        pull_100k_ms: Math.round(pullMs),
        pull_100k_unchanged_delta_ms: Math.round(deltaMs),
        baseline_fetch_and_json_parse_100k_ms: Math.round(done - fetchStarted),
        baseline_json_parse_100k_ms: Math.round(done - parseStarted),
        customers_json_mb: round(text.length / 1024 / 1024, 1),
      };
    });
  } finally {
    await service.stop();
  }
}

export async function run(): Promise<Record<string, number>> {
  return { ...(await pull()), ...(await drain()) };
}

// `npx tsx scripts/bench/core.ts` runs this module alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await run(), null, 2));
}
