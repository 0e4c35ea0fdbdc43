// A first pull streams its snapshot while main still parses and validates the customers
// (pull.ts, roadEmitter's openSnapshotStream), so the renderer saves while main reads. Here
// against the reference service behind a loopback proxy of this test that can spoil one
// record of GET /customers: the stream is then given up with an abort piece, nothing is
// kept, and the next sync streams the whole account.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PieceJoiner, type DataPiece, type JoinedEvent } from '../../src-shared/data-pieces';
import { Road, roadEmitter, STREAM_WINDOW } from '../../src-shared/data-road';
import { ServiceClient } from '../../src-main/core/service/client';
import { RateLimiter } from '../../src-main/core/service/rate-limiter';
import { normaliseCustomer } from '../../src-main/core/sync/pull';
import { Harness, USER } from '../support/main';
import { testBoundMs } from '../support/until';

let h: Harness | null = null;
let proxy: Server | null = null;

afterEach(async () => {
  proxy?.closeAllConnections();
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
  proxy = null;
  await h?.dispose();
  h = null;
});

/** A proxy to `target`; while `spoil.at` is a number, that customer's latitude is a word. */
async function spoilingProxy(target: string, spoil: { at: number | null }): Promise<string> {
  proxy = createServer((req, res) => {
    const upstream = request(
      `${target}${req.url}`,
      { method: req.method, headers: req.headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (c: Buffer) => chunks.push(c));
        answer.on('end', () => {
          let body = Buffer.concat(chunks);
          if (req.url === '/api/v1/customers' && spoil.at !== null && answer.statusCode === 200) {
            const list = JSON.parse(body.toString('utf8')) as Array<Record<string, unknown>>;
            list[spoil.at]!.latitude = 'north';
            body = Buffer.from(JSON.stringify(list));
          }
          const headers = { ...answer.headers, 'content-length': String(body.length) };
          res.writeHead(answer.statusCode ?? 502, headers);
          res.end(body);
        });
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(proxy!.address() as AddressInfo).port}`;
}

describe('a first pull streams its snapshot', () => {
  it('gives the stream up when a record fails validation mid-list, then streams the whole account', async () => {
    h = await Harness.start({ customers: 5_000 });
    const spoil = { at: 4_321 as number | null };
    const url = await spoilingProxy(h.service.url, spoil);
    const sent: Array<{ event: string; payload: unknown }> = [];
    const pieces: DataPiece[] = [];
    const road = new Road({
      direct: () => null,
      viaPage: (message) => {
        if ('piece' in message) pieces.push(message.piece);
        else sent.push({ event: message.event, payload: message.payload });
      },
    });
    const emit = roadEmitter(
      (event, payload) => sent.push({ event, payload }),
      () => [road],
    );
    emit.openRoad();
    const api = new ServiceClient({
      baseUrl: url,
      username: USER,
      getPassword: async () => 'rep-password',
      limiter: new RateLimiter({ limit: 500, marginMs: 5 }),
      timeoutMs: testBoundMs(),
    });
    await h.close();
    await h.open({ api, emit });

    const failed = await h.engine.syncNow();
    expect(failed.kind).toBe('error');
    expect(failed.kind === 'error' ? failed.message : '').toMatch(/\[4321\]\.latitude/);
    // Each piece names every piece it would have had; slices 0-1,999 and 2,000-3,999 went out
    // before the third failed validation, then the abort.
    const { count, total } = pieces[0]!;
    expect(total).toBe(5_000);
    expect(pieces.map((p) => [p.index, p.items.length, p.abort ?? false])).toEqual([
      [0, 2_000, false],
      [1, 2_000, false],
      [2, 0, true],
    ]);
    expect(count).toBeGreaterThan(3);
    expect(sent.some((s) => s.event === 'data:snapshot')).toBe(false);
    // Nothing was kept: there is no snapshot to send again.
    expect(h.engine.resendSnapshot()).toBe(false);

    spoil.at = null;
    pieces.length = 0;
    expect((await h.engine.syncNow()).kind).toBe('synced');
    const joiner = new PieceJoiner();
    let joined: JoinedEvent | null = null;
    for (const piece of pieces) joined = joiner.add(piece) ?? joined;
    expect(joined?.event).toBe('data:snapshot');
    const snapshot = joined!.event === 'data:snapshot' ? joined!.payload : null;
    const expected = h.service.store.customers(USER).map(normaliseCustomer);
    expect(snapshot!.customers).toEqual(expected);
    expect(snapshot!.routes).toHaveLength(h.service.store.routes(USER).length);
    expect(sent.some((s) => s.event === 'data:snapshot')).toBe(false);
    // Kept, so a page that asks gets it again (the event as the contract has it, nothing more);
    // the next pull is a delta, not a stream.
    pieces.length = 0;
    expect(h.engine.resendSnapshot()).toBe(true);
    expect(Object.keys(pieces[0]!.head!).sort()).toEqual(
      ['accountKey', 'customers', 'pulledAt', 'routes', 'territories', 'user'].sort(),
    );
    pieces.length = 0;
    expect((await h.engine.syncNow()).kind).toBe('synced');
    expect(pieces.length).toBeGreaterThan(0);
    expect(pieces.every((p) => p.event === 'data:delta')).toBe(true);
  }, 60_000);

  it("sends a stream's next pieces only while few sent are not yet taken by the worker", async () => {
    h = await Harness.start({ customers: 30_000 });
    // The worker's own channel: messages wait here until the test says the worker took them.
    const onTheirWay: Array<{ road: number; seq: number; piece?: DataPiece }> = [];
    const pieces: DataPiece[] = [];
    const road = new Road({
      direct: () => (text) => {
        const message = JSON.parse(text) as { road: number; seq: number; piece?: DataPiece };
        onTheirWay.push(message);
        if (message.piece) pieces.push(message.piece);
      },
      viaPage: () => undefined,
    });
    const emit = roadEmitter(
      () => undefined,
      () => [road],
    );
    emit.openRoad();
    // The worker takes the road's first message: from then on it is known to report.
    emit('session:changed', null);
    const first = onTheirWay.shift()!;
    road.took(first.road, first.seq);
    await h.close();
    await h.open({ emit });

    const sync = h.engine.syncNow();
    const onTheirWayPieces = () => onTheirWay.filter((m) => m.piece).length;
    // Main sends up to the window (and the piece that filled it), then waits for the worker.
    await expect.poll(() => road.waiting, { timeout: testBoundMs() }).toBe(true);
    expect(pieces).toHaveLength(STREAM_WINDOW + 1);
    const count = pieces[0]!.count;
    expect(count).toBeGreaterThan(STREAM_WINDOW + 3);
    // Each piece the worker takes lets one more go, never more than the window's worth.
    for (let taken = 1; taken <= 3; taken++) {
      const [next] = onTheirWay.splice(
        onTheirWay.findIndex((m) => m.piece),
        1,
      );
      road.took(next!.road, next!.seq);
      await expect
        .poll(() => road.waiting && pieces.length === STREAM_WINDOW + 1 + taken, {
          timeout: testBoundMs(),
        })
        .toBe(true);
      expect(onTheirWayPieces()).toBe(STREAM_WINDOW + 1);
    }
    // The worker takes everything as it comes: the whole stream goes and the sync ends.
    const takeAll = () => {
      for (const m of onTheirWay.splice(0)) road.took(m.road, m.seq);
    };
    while (pieces.length < count) {
      takeAll();
      await expect
        .poll(() => onTheirWay.length > 0 || pieces.length === count, { timeout: testBoundMs() })
        .toBe(true);
    }
    takeAll();
    expect((await sync).kind).toBe('synced');
    const joiner = new PieceJoiner();
    let joined: JoinedEvent | null = null;
    for (const piece of pieces) joined = joiner.add(piece) ?? joined;
    const snapshot = joined!.event === 'data:snapshot' ? joined!.payload : null;
    expect(snapshot!.customers).toEqual(h.service.store.customers(USER).map(normaliseCustomer));
  }, 60_000);
});
