// Chaos: random offline sessions replayed against a service that fails 10% of requests with
// 5xx and drops 5% of connections before and 5% after committing. The server must end in
// exactly the state the ops describe: no duplicate, nothing lost.
import { afterEach, describe, expect, it } from 'vitest';
import { normaliseFields } from '../../src-main/core/sync/merge';
import { generateSession } from './chaos-model';
import { Harness, USER } from '../support/main';

const SEEDS = Array.from({ length: 20 }, (_, i) => i + 1);
const OPS = 200;

let h: Harness | undefined;
/** Error kinds ops met over all seeds. */
const seen = new Set<string>();
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

describe('chaos', () => {
  it.each(SEEDS)('seed %i: 200 offline ops reach the service exactly once', async (seed) => {
    // No rate limit here (not the subject): fast retries keep 20 seeds well under a minute.
    // The service commits before it answers or drops: a short absence grace is enough here.
    h = await Harness.start({
      customers: 25,
      seed,
      clientBackoff: { baseMs: 5, capMs: 20 },
      engine: { push: { absenceGraceMs: 50 } },
    });
    expect((await h.engine.syncNow()).kind).toBe('synced');
    const session = generateSession(seed, h.serverCustomers(), OPS);
    for (const op of session.ops) await h.outbox.enqueue(op);
    const routesBefore = h.service.store.routes(USER).map((r) => r.id);

    const stop = h.outbox.onChange((ops) =>
      ops.forEach((op) => op.lastError && seen.add(op.lastError.kind)),
    );
    h.service.configure({
      faults: { seed, errorRate: 0.1, resetBeforeRate: 0.05, resetAfterRate: 0.05 },
    });
    await h.drain(40);
    stop();
    h.service.configure({ faults: { errorRate: 0, resetBeforeRate: 0, resetAfterRate: 0 } });

    // Only the creates the service refuses are left, waiting for the rep.
    const left = h.outbox.list();
    expect(left.every((op) => op.state === 'needs-attention')).toBe(true);
    expect(left.map((op) => op.target).sort()).toEqual([...session.rejectedTargets].sort());

    const actual = h
      .serverCustomers()
      .map((c) => JSON.stringify(normaliseFields(c)))
      .sort();
    expect(actual).toEqual(session.expectedCustomers);
    for (const id of session.deletedIds) expect(h.service.store.customer(USER, id)).toBeUndefined();

    const newRoutes = h.service.store
      .routes(USER)
      .filter((r) => !routesBefore.includes(r.id))
      .map((r) => ({ name: r.name, points: r.points.map((p) => p.split(',').map(Number)) }));
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    expect(newRoutes.sort(byName)).toEqual([...session.expectedRoutes].sort(byName));
    expect(h.service.store.customFields(USER)).toMatchObject(session.expectedCustomFields);
  });

  it('met the faults on writes: 5xx answers and dropped connections', () => {
    expect(seen).toContain('ServerError');
    expect(seen).toContain('Ambiguous');
  });
});
