// Fault injection: latency, 500/502, resets before and after the change is committed; seeded.
import { describe, expect, it } from 'vitest';
import { FaultInjector } from '../../src-service/faults';
import { call, serve } from '../support/service';

/** Resolves to the error a reset causes (fetch rejects without a response). */
async function expectReset(p: Promise<unknown>): Promise<void> {
  await expect(p).rejects.toThrow(/fetch failed|socket|other side closed|ECONNRESET/i);
}

describe('reference service: faults', () => {
  it('reset before commit: no response and no change', async () => {
    const s = await serve({ faults: { resetBeforeRate: 1 } });
    const before = s.store.customers('demo');
    await expectReset(call(s, 'POST', '/api/v1/customers', { body: { name: 'Lost' } }));
    await expectReset(
      call(s, 'PUT', `/api/v1/customers/${before[0]!.id}`, { body: { name: 'Lost' } }),
    );
    await expectReset(call(s, 'DELETE', `/api/v1/customers/${before[1]!.id}`));
    expect(s.store.customers('demo')).toEqual(before);
  });

  it('reset after commit: no response, but the write happened', async () => {
    const s = await serve({ faults: { resetAfterRate: 1 } });
    const before = s.store.customers('demo');
    await expectReset(call(s, 'POST', '/api/v1/customers', { body: { name: 'Committed' } }));
    expect(s.store.customers('demo').filter((c) => c.name === 'Committed')).toHaveLength(1);
    await expectReset(
      call(s, 'PUT', `/api/v1/customers/${before[0]!.id}`, { body: { notes: 'kept' } }),
    );
    expect(s.store.customer('demo', before[0]!.id)!.notes).toBe('kept');
    await expectReset(call(s, 'DELETE', `/api/v1/customers/${before[1]!.id}`));
    expect(s.store.customer('demo', before[1]!.id)).toBeUndefined();
    await expectReset(call(s, 'PUT', '/api/v1/user/customfields', { body: { Committed: 1 } }));
    expect(s.store.customFields('demo').Committed).toBe(1);
    s.configure({ faults: { resetAfterRate: 0 } });
    expect((await call(s, 'GET', '/api/v1/user')).status).toBe(200);
  });

  it('answers 500 or 502 at the error rate without applying the change', async () => {
    const s = await serve({ faults: { errorRate: 1, seed: 3 } });
    const before = s.store.customers('demo');
    const statuses = new Set<number>();
    for (let i = 0; i < 12; i++) {
      const res = await call(s, 'POST', '/api/v1/customers', { body: { name: `E${i}` } });
      expect([500, 502]).toContain(res.status);
      expect(typeof res.json.message).toBe('string');
      statuses.add(res.status);
    }
    expect([...statuses].sort()).toEqual([500, 502]);
    expect(s.store.customers('demo')).toEqual(before);
  });

  it('adds latency (fixed plus jitter) before answering', async () => {
    const s = await serve({ faults: { latencyMs: 150, jitterMs: 50 } });
    const started = performance.now();
    const res = await call(s, 'GET', '/api/v1/user');
    expect(res.status).toBe(200);
    // A lower bound only: the delay is a floor, never a speed requirement.
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
  });

  it('replays the same fault sequence from the same seed, over HTTP too', async () => {
    const run = async () => {
      const s = await serve({ faults: { errorRate: 0.4, seed: 42 } });
      const out: number[] = [];
      for (let i = 0; i < 15; i++) out.push((await call(s, 'GET', '/api/v1/user')).status);
      await s.stop();
      return out;
    };
    const a = await run();
    const b = await run();
    expect(a).toEqual(b);
    expect(a).toContain(200);
    expect(a.some((x) => x >= 500)).toBe(true);
    const kinds = (seed: number) => {
      const f = new FaultInjector({
        seed,
        errorRate: 0.2,
        resetBeforeRate: 0.2,
        resetAfterRate: 0.2,
        jitterMs: 10,
      });
      return Array.from({ length: 50 }, () => f.decide());
    };
    expect(kinds(7)).toEqual(kinds(7));
    expect(kinds(7)).not.toEqual(kinds(8));
    const seen = new Set(kinds(7).map((d) => d.kind));
    expect([...seen].sort()).toEqual(['error', 'none', 'reset-after', 'reset-before']);
  });

  it('refuses rates outside 0..1', async () => {
    await expect(serve({ faults: { errorRate: 2 } })).rejects.toThrow(/errorRate/);
  });
});
