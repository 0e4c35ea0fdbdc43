// The engine's state machine and delivery: one sync at a time, progress, offline with probes,
// credentials refused, bad responses that must leave the previous data untouched.
import { existsSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RateLimiter } from '../../src-main/core/service/rate-limiter';
import { ServiceClient } from '../../src-main/core/service/client';
import { startService, type RunningService } from '../../src-service/index';
import { FakeClock } from '../support/clock';
import { Harness, USER } from '../support/main';
import { until } from '../support/until';

let h: Harness | undefined;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  await h?.dispose();
  h = undefined;
  for (const c of cleanups.splice(0)) await c();
});

/** Waits for a condition the engine reaches on its own timers (bounded, not a timing assertion). */
describe('SyncEngine', () => {
  it('runs one sync at a time: concurrent callers join the running sync', async () => {
    h = await Harness.start();
    h.service.resetStats();
    const [a, b] = await Promise.all([h.engine.syncNow(), h.engine.syncNow()]);
    expect(a).toEqual(b);
    expect(h.service.stats().requests).toBe(4);
    expect(h.of('data:snapshot')).toHaveLength(1);
  });

  it("reports progress with an ETA from the requests left, the rate and the list's time", async () => {
    const clock = new FakeClock();
    h = await Harness.start({ clientRate: 50, engine: { clock } });
    // The first pull's list takes 100 ms on the engine's clock: what the next sync expects of it.
    const list = h.service.hold('GET', /^\/api\/v1\/customers$/);
    const first = h.engine.syncNow();
    await list.arrived;
    await clock.advance(100);
    list.release();
    await first;
    const customers = h.serverCustomers().slice(0, 5);
    for (const c of customers) {
      await h.outbox.enqueue({
        kind: 'updateCustomer',
        target: c.id,
        payload: { notes: 'p' },
        base: h.base(c.id),
      });
    }
    h.events = [];
    await h.engine.syncNow();
    const states = h.of('sync:state');
    const syncing = states.filter((s) => s.kind === 'syncing');
    // A slot of 20 ms per request before the pull's list, and the pull from its list on what it
    // took last time (the list's 100 ms; nothing after it on this clock): the last three states
    // follow the pull's list, routes and territories.
    expect(syncing[0]).toEqual({ kind: 'syncing', done: 0, total: 10, etaMs: 240 });
    syncing.forEach((s, i) => {
      if (s.kind !== 'syncing') return;
      const listAhead = i < syncing.length - 3;
      const slots = (s.total - s.done - 3) * 20;
      expect(s.etaMs).toBe(listAhead ? slots + 100 : 0);
    });
    const dones = syncing.map((s) => (s.kind === 'syncing' ? s.done : -1));
    expect(dones).toEqual([...dones].sort((x, y) => x - y));
    expect(dones.at(-1)).toBe(10);
    expect(states.at(-1)?.kind).toBe('synced');
  });

  it('resends the last snapshot on request, and only after a pull', async () => {
    h = await Harness.start();
    expect(h.engine.resendSnapshot()).toBe(false);
    await h.engine.syncNow();
    expect(h.engine.resendSnapshot()).toBe(true);
    const [first, second] = h.of('data:snapshot');
    expect(second).toEqual(first);
    // A page whose cache already holds that pull gets nothing; one holding an older pull gets it.
    expect(h.engine.resendSnapshot(first!.pulledAt)).toBe(false);
    expect(h.engine.resendSnapshot(first!.pulledAt - 1)).toBe(true);
    expect(h.of('data:snapshot')).toHaveLength(3);
    // A second pull with one change delivers just that record.
    const id = h.serverCustomers()[0]!.id;
    h.service.store.updateCustomerDirect(USER, id, { notes: 'changed elsewhere' });
    await h.engine.syncNow();
    const delta = h.of('data:delta')[0]!;
    expect(delta.customers.upserted.map((c) => c.id)).toEqual([id]);
    expect(delta.customers.deleted).toEqual([]);
    expect(delta.routes.upserted).toEqual([]);
    expect(delta.user).toBeNull();
  });

  /**
   * A first sync, its prints on disk, main closed while a colleague changes customer `index` on
   * the service, then main open again: the first pull's snapshot and the changed id.
   */
  async function restartedAfterChange(main: Harness, index: number) {
    await main.engine.syncNow();
    const first = main.of('data:snapshot')[0]!;
    const prints = path.join(main.dir, 'state', 'last-pull-prints.json');
    await until(() => existsSync(prints), "the last pull's prints saved");
    await main.close();
    const changed = main.serverCustomers()[index]!.id;
    main.service.store.updateCustomerDirect(USER, changed, { city: 'Elsewhere' });
    main.events = [];
    await main.open();
    return { first, changed };
  }

  it('after a restart, sends the cache only what changed since the last pull, naming every id', async () => {
    h = await Harness.start({ customers: 40 });
    const { first, changed } = await restartedAfterChange(h, 3);
    await h.engine.syncNow();
    expect(h.of('data:snapshot')).toEqual([]);
    const [delta] = h.of('data:delta');
    expect(delta?.base).toBe(first.pulledAt);
    expect(delta?.customers.upserted.map((c) => c.id)).toEqual([changed]);
    expect(delta?.present?.customers.sort()).toEqual(
      h
        .serverCustomers()
        .map((c) => c.id)
        .sort(),
    );
    // The page's cache lacks that pull (it was cleared): main resends the pull it now keeps.
    expect(h.engine.resendSnapshot(null)).toBe(true);
    expect(h.of('data:snapshot').at(-1)?.pulledAt).toBe(delta?.pulledAt);
  });

  it("gives a road opened after a restart's first sync that sync's delta, not every record", async () => {
    h = await Harness.start({ customers: 40 });
    const { first } = await restartedAfterChange(h, 5);
    // Main's first sync ran before the page opened its road: its delta reached no cache.
    await h.engine.syncNow();
    const [delta] = h.of('data:delta');
    expect(delta?.base).toBe(first.pulledAt);
    // The road opens over a cache that holds the pull before it: the same delta again.
    expect(h.engine.resendSnapshot(first.pulledAt)).toBe(true);
    expect(h.of('data:snapshot')).toEqual([]);
    expect(h.of('data:delta')).toEqual([delta, delta]);
    // A cache holding anything else gets the whole pull.
    expect(h.engine.resendSnapshot(first.pulledAt - 1)).toBe(true);
    expect(h.of('data:snapshot').map((s) => s.pulledAt)).toEqual([delta!.pulledAt]);
  });

  it('goes offline when the service is unreachable, probes with backoff, and syncs when it is back', async () => {
    h = await Harness.start();
    await h.engine.syncNow();
    const { port, store } = h.service;
    const target = h.serverCustomers()[0]!;
    await h.service.stop();
    await h.outbox.enqueue({
      kind: 'updateCustomer',
      target: target.id,
      payload: { notes: 'queued offline' },
      base: h.base(target.id),
    });

    const offline = await h.engine.syncNow();
    expect(offline).toMatchObject({ kind: 'offline' });
    expect(offline.kind === 'offline' && offline.nextProbeAt).toBeGreaterThan(0);
    expect(h.outbox.list()).toHaveLength(1);
    h.engine.start();
    await until(
      () => h!.of('sync:state').filter((s) => s.kind === 'offline').length >= 3,
      'repeated probes',
    );

    const back = await startService({ port, store });
    cleanups.push(() => back.stop());
    await until(
      () => h!.engine.state.kind === 'synced' && h!.outbox.list().length === 0,
      'synced after the service came back',
    );
    expect(back.store.customer(USER, target.id)?.notes).toBe('queued offline');
    await h.engine.stop();
  });

  it('asks for credentials on 401 and keeps every queued change', async () => {
    h = await Harness.start({ password: 'wrong' });
    const id = h.serverCustomers()[0]!.id;
    await h.outbox.enqueue({
      kind: 'updateCustomer',
      target: id,
      payload: { notes: 'x' },
      base: h.base(id),
    });
    expect(await h.engine.syncNow()).toEqual({ kind: 'auth-required' });
    expect(h.outbox.list()).toHaveLength(1);
    expect(h.of('data:snapshot')).toEqual([]);
  });

  it.each(['html', 'truncated', 'wrong-type'] as const)(
    'keeps the previous data when a pull answers badly (%s)',
    async (mode) => {
      h = await Harness.start();
      const proxy = await corruptingProxy(h.service);
      cleanups.push(() => proxy.close());
      const client = new ServiceClient({
        baseUrl: proxy.url,
        username: USER,
        getPassword: async () => 'rep-password',
        limiter: new RateLimiter({ limit: 500 }),
        maxIdempotentRetries: 0,
      });
      await h.close();
      await h.open({ api: client });
      await h.engine.syncNow();
      expect(h.of('data:snapshot')).toHaveLength(1);
      const id = h.serverCustomers()[0]!.id;
      h.service.store.updateCustomerDirect(USER, id, { notes: 'after the bad pull' });

      proxy.mode = mode;
      const bad = await h.engine.syncNow();
      expect(bad.kind).toBe('error');
      expect(h.of('data:delta')).toEqual([]);
      expect(h.engine.resendSnapshot()).toBe(true);
      expect(
        h
          .of('data:snapshot')
          .at(-1)
          ?.customers.find((c) => c.id === id)?.notes,
      ).not.toBe('after the bad pull');

      proxy.mode = 'pass';
      expect((await h.engine.syncNow()).kind).toBe('synced');
      expect(h.of('data:delta')[0]!.customers.upserted.map((c) => c.id)).toEqual([id]);
    },
  );
});

/** A real HTTP hop in front of the service that can spoil the customers list. */
async function corruptingProxy(service: RunningService): Promise<{
  url: string;
  mode: 'pass' | 'html' | 'truncated' | 'wrong-type';
  close(): Promise<void>;
}> {
  const state = { mode: 'pass' as 'pass' | 'html' | 'truncated' | 'wrong-type' };
  const server: Server = createServer((req, res) => {
    const upstream = request(
      `${service.url}${req.url}`,
      { method: req.method, headers: req.headers },
      (up) => {
        const chunks: Buffer[] = [];
        up.on('data', (c: Buffer) => chunks.push(c));
        up.on('end', () => {
          let body = Buffer.concat(chunks).toString('utf8');
          const spoil =
            state.mode !== 'pass' && req.method === 'GET' && req.url === '/api/v1/customers';
          let type = up.headers['content-type'] ?? 'application/json';
          if (spoil && state.mode === 'html')
            [body, type] = ['<html><body>Maintenance</body></html>', 'text/html'];
          if (spoil && state.mode === 'truncated')
            body = body.slice(0, Math.floor(body.length / 2));
          if (spoil && state.mode === 'wrong-type')
            body = body.replace(/"numVisits":\d+/, '"numVisits":"many"');
          res.writeHead(up.statusCode ?? 502, { 'content-type': type });
          res.end(body);
        });
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get mode() {
      return state.mode;
    },
    set mode(m) {
      state.mode = m;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
