// RateLimiter rules on a controllable clock (see test/support/clock.ts for why that one fake).
import { describe, expect, it } from 'vitest';
import { RateLimiter, type Permit } from '../../src-main/core/service/rate-limiter';
import { FakeClock, settle } from '../support/clock';
import { mulberry32 } from '../support/prng';

function setup(options: { limit?: number; windowMs?: number; marginMs?: number } = {}) {
  const clock = new FakeClock();
  const limiter = new RateLimiter({ clock, marginMs: 25, ...options });
  const t0 = clock.now();
  const granted: Array<{ name: string; at: number; permit: Permit }> = [];
  const request = (name: string, opts: Parameters<RateLimiter['acquire']>[0] = {}) => {
    const p = limiter.acquire(opts).then((permit) => {
      granted.push({ name, at: clock.now() - t0, permit });
      return permit;
    });
    return p;
  };
  return { clock, limiter, granted, request };
}

describe('RateLimiter (sliding window)', () => {
  it('grants the first N at once and the next one window+margin after the first answer', async () => {
    const { clock, granted, request } = setup();
    for (const name of ['a', 'b', 'c', 'd']) void request(name);
    await settle();
    expect(granted.map((g) => g.name)).toEqual(['a', 'b', 'c']);
    await clock.advance(10);
    granted[0]!.permit.release(); // a answered at 10 ms
    granted[1]!.permit.release();
    granted[2]!.permit.release();
    await clock.advance(1024); // 1034: still inside a's window + margin
    expect(granted).toHaveLength(3);
    await clock.advance(1);
    expect(granted.map((g) => [g.name, g.at])).toContainEqual(['d', 1035]);
  });

  it('lets no more than N through in any window across a window boundary (unlike a fixed window)', async () => {
    const { clock, granted, request } = setup();
    await clock.advance(990);
    for (let i = 0; i < 6; i++) void request(`r${i}`);
    await settle();
    for (const g of granted) g.permit.release();
    await clock.advance(20); // a fixed 1 s window would reset at 1000 and let 3 more through
    expect(granted).toHaveLength(3);
    await clock.advance(1010);
    for (const g of granted) g.permit.release();
    expect(granted.map((g) => g.at)).toEqual([990, 990, 990, 2015, 2015, 2015]);
  });

  it('keeps a slot busy while its request is in flight', async () => {
    const { clock, granted, request } = setup({ limit: 2 });
    for (const name of ['a', 'b', 'c']) void request(name);
    await clock.advance(60_000);
    expect(granted).toHaveLength(2); // nobody answered: the server may not have counted them yet
    expect(clock.timers).toBe(0); // and the limiter is not polling meanwhile
    granted[1]!.permit.release();
    await clock.advance(1025);
    expect(granted.map((g) => [g.name, g.at])).toEqual([
      ['a', 0],
      ['b', 0],
      ['c', 61_025],
    ]);
  });

  it('never exceeds N per window under a random workload, and keeps up with the limit', async () => {
    const random = mulberry32(42);
    const { clock, granted, request } = setup({ limit: 3, windowMs: 1000, marginMs: 25 });
    const answered = new Map<string, number>();
    for (let i = 0; i < 60; i++) {
      void request(`r${i}`).then(async (permit) => {
        await clock.sleep(Math.floor(random() * 40)); // latency 0..39 ms
        answered.set(`r${i}`, clock.now());
        permit.release();
      });
    }
    await clock.advance(40_000);
    expect(granted).toHaveLength(60);
    expect(granted.map((g) => g.name)).toEqual(Array.from({ length: 60 }, (_, i) => `r${i}`));
    const t0 = clock.now() - 40_000;
    for (let i = 0; i < granted.length; i++) {
      const at = granted[i]!.at;
      // Slots still busy when i was granted: unanswered, or answered less than window+margin ago.
      const busy = granted
        .slice(0, i)
        .filter((g) => answered.get(g.name)! - t0 > at || answered.get(g.name)! - t0 + 1025 > at);
      expect(busy.length).toBeLessThan(3);
      if (i >= 3) expect(at - granted[i - 3]!.at).toBeGreaterThanOrEqual(1025);
    }
    // 60 requests at 3 per ~1.05 s (latency included) need about 20 windows, not more.
    expect(granted.at(-1)!.at).toBeLessThan(20 * 1065);
  });

  it('serves user requests before background ones, FIFO within each', async () => {
    const { clock, granted, request } = setup({ limit: 1 });
    void request('first', { priority: 'background' });
    await settle();
    for (const [name, priority] of [
      ['b1', 'background'],
      ['u1', 'user'],
      ['b2', 'background'],
      ['u2', 'user'],
    ] as const) {
      void request(name, { priority });
    }
    for (let i = 0; i < 5; i++) {
      await settle();
      granted.at(-1)!.permit.release();
      await clock.advance(1025);
    }
    expect(granted.map((g) => g.name)).toEqual(['first', 'u1', 'u2', 'b1', 'b2']);
  });

  it('puts a retried request back at the head of its queue', async () => {
    const { clock, granted, request } = setup({ limit: 1 });
    void request('a');
    void request('b');
    await settle();
    void request('a-again', { retry: true });
    void request('x-again', { retry: true });
    for (let i = 0; i < 3; i++) {
      granted.at(-1)!.permit.release();
      await clock.advance(1025);
    }
    expect(granted.map((g) => g.name)).toEqual(['a', 'a-again', 'x-again', 'b']);
  });

  it('cancels a waiting request through its AbortSignal without blocking the others', async () => {
    const { clock, limiter, granted, request } = setup({ limit: 1 });
    void request('a');
    const controller = new AbortController();
    const cancelled = request('b', { signal: controller.signal });
    void request('c');
    await settle();
    controller.abort(new Error('user closed the dialog'));
    await expect(cancelled).rejects.toThrow('user closed the dialog');
    expect(limiter.queued).toBe(1);
    granted[0]!.permit.release();
    await clock.advance(1025);
    expect(granted.map((g) => g.name)).toEqual(['a', 'c']);
    await expect(limiter.acquire({ signal: AbortSignal.abort('gone') })).rejects.toBe('gone');
  });

  it('holds every request back while paused after a 429, even with free slots', async () => {
    const { clock, limiter, granted, request } = setup();
    limiter.pauseFor(2000);
    void request('a', { priority: 'background' });
    void request('b');
    await clock.advance(1000);
    limiter.pauseFor(500); // ends before the current pause: the longer one wins
    await clock.advance(999);
    expect(granted).toHaveLength(0);
    await clock.advance(1);
    expect(granted.map((g) => [g.name, g.at])).toEqual([
      ['b', 2000],
      ['a', 2000],
    ]);
    expect(clock.timers).toBe(0);
  });

  it('refuses a nonsensical configuration', () => {
    expect(() => new RateLimiter({ limit: 0 })).toThrow(RangeError);
    expect(() => new RateLimiter({ windowMs: -1 })).toThrow(RangeError);
  });
});
