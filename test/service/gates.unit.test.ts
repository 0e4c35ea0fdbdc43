// Request gates: a test holds a request before the service applies it, or holds its answer
// after the service applied it, and releases it when it chooses. No test of a race then waits
// on wall-clock time.
import { describe, expect, it } from 'vitest';
import { call, serve } from '../support/service';

const CUSTOMERS = /^\/api\/v1\/customers$/;

function named(service: Awaited<ReturnType<typeof serve>>, name: string) {
  return service.store.customers('demo').filter((c) => c.name === name);
}

describe('reference service: request gates', () => {
  it('holds a matching request before the commit until released; others pass', async () => {
    const s = await serve();
    const gate = s.hold('POST', CUSTOMERS);
    const post = call(s, 'POST', '/api/v1/customers', { body: { name: 'Held Before' } });
    await gate.arrived;
    // Not applied, not answered; a request the gate does not match is not held.
    expect(named(s, 'Held Before')).toEqual([]);
    expect(await firstOf(post, call(s, 'GET', '/api/v1/customers'))).toBe('other');
    gate.release();
    expect((await post).status).toBe(201);
    expect(named(s, 'Held Before')).toHaveLength(1);
    // Released for good: the next one passes at once.
    expect((await call(s, 'POST', '/api/v1/customers', { body: { name: 'Next' } })).status).toBe(
      201,
    );
  });

  it('holds the answer of a matching request after the commit until released', async () => {
    const s = await serve();
    const gate = s.hold('POST', CUSTOMERS, 'after-commit');
    const post = call(s, 'POST', '/api/v1/customers', { body: { name: 'Held After' } });
    await gate.arrived;
    // Committed while the client still waits for the answer.
    expect(named(s, 'Held After')).toHaveLength(1);
    expect(await firstOf(post, call(s, 'GET', '/api/v1/user'))).toBe('other');
    gate.release();
    const answer = await post;
    expect(answer.status).toBe(201);
    expect(JSON.stringify(answer.json)).toContain(named(s, 'Held After')[0]!.id);
  });

  it('holds before, then after the commit, when both gates match', async () => {
    const s = await serve();
    const path = /^\/api\/v1\/customers\//;
    const before = s.hold('PUT', path, 'before-commit');
    const after = s.hold('PUT', path, 'after-commit');
    const id = s.store.customers('demo')[0]!.id;
    const put = call(s, 'PUT', `/api/v1/customers/${id}`, { body: { city: 'Gated' } });
    await before.arrived;
    expect(s.store.customer('demo', id)?.city).not.toBe('Gated');
    before.release();
    await after.arrived;
    expect(s.store.customer('demo', id)?.city).toBe('Gated');
    expect(await firstOf(put, call(s, 'GET', '/api/v1/user'))).toBe('other');
    after.release();
    expect((await put).status).toBe(200);
  });
});

/** Which answers first: the held request or another one sent after it was held. */
function firstOf(held: Promise<unknown>, other: Promise<unknown>): Promise<'held' | 'other'> {
  return Promise.race([held.then(() => 'held' as const), other.then(() => 'other' as const)]);
}
