// Large data crosses process boundaries in pieces (src-shared/data-pieces.ts), each one numbered
// message of the road to the cache worker (src-shared/data-road.ts): the Electron shell sends a
// snapshot or delta as bounded pieces, each valid under the IPC contract, and the renderer's
// joiner rebuilds exactly the event main emitted. Events that are not the road's go as they are.
// (The browser runner's path is covered end to end by test/write/large-account.e2e.test.ts.)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  PIECE_ITEMS,
  PieceJoiner,
  splitEvent,
  type DataPiece,
  type JoinedEvent,
  type OpenSnapshotStream,
} from '../../src-shared/data-pieces';
import { Road, roadEmitter, STREAM_WINDOW, type RoadMessage } from '../../src-shared/data-road';
import { eventChannels, type EventOf } from '../../src-shared/ipc-contract';
import { makeCustomers } from '../renderer/pages/fixtures';
import { DATA_PORT_CHANNEL, DATA_PORT_READY, tookReport } from '../../src-shared/data-port';
import type { ShellMessagePortMain } from '../../src-main/shell/shell-deps';
import { startWithFake } from './shell-harness';

function snapshot(n: number): EventOf<'data:snapshot'> {
  return {
    accountKey: 'acct',
    pulledAt: 1_700_000_000_000,
    user: {
      colors: ['#ff0000', '#00ff00'],
      groups: ['A', 'B'],
    } as unknown as EventOf<'data:snapshot'>['user'],
    customers: makeCustomers(n, 7),
    routes: [],
    territories: [],
  };
}

/** Joins the pieces of road messages; returns the whole events in order. */
function joinAll(messages: readonly RoadMessage[]): JoinedEvent[] {
  const joiner = new PieceJoiner();
  const out: JoinedEvent[] = [];
  for (const message of messages) {
    if (!('piece' in message)) continue;
    const joined = joiner.add(message.piece);
    if (joined) out.push(joined);
  }
  return out;
}

/** A road whose messages all go through the page, recorded. */
function recordedRoad() {
  const messages: RoadMessage[] = [];
  const road = new Road({ direct: () => null, viaPage: (m) => messages.push(m) });
  return { road, messages };
}

describe('large events in pieces', () => {
  it('splits a snapshot into valid bounded numbered pieces and joins it back exactly', () => {
    const event = snapshot(5_001);
    const { road, messages } = recordedRoad();
    const emit = roadEmitter(
      () => undefined,
      () => [road],
    );
    emit.openRoad();
    emit('data:snapshot', event);

    expect(messages.map((m) => [m.road, m.seq])).toEqual([
      [1, 1],
      [1, 2],
      [1, 3],
    ]);
    for (const message of messages) {
      expect(v.safeParse(eventChannels['data:road'], message).success).toBe(true);
      const piece = (message as { piece: DataPiece }).piece;
      expect(piece.items.length).toBeLessThanOrEqual(PIECE_ITEMS);
      expect(piece.total).toBe(5_001);
    }
    expect(joinAll(messages)).toEqual([{ event: 'data:snapshot', payload: event }]);
  });

  it('splits a delta across its upserted and deleted lists', () => {
    const delta: EventOf<'data:delta'> = {
      accountKey: 'acct',
      pulledAt: 2,
      base: null,
      present: null,
      user: null,
      customers: {
        upserted: makeCustomers(2_500, 3),
        deleted: Array.from({ length: 2_100 }, (_, i) => `gone-${i}`),
      },
      routes: { upserted: [], deleted: ['r1'] },
      territories: { upserted: [], deleted: [] },
    };
    const pieces = splitEvent('s', 'data:delta', delta, 1_000)!;
    expect(pieces.map((p) => [p.path.join('.'), p.items.length])).toEqual([
      ['customers.upserted', 1_000],
      ['customers.upserted', 1_000],
      ['customers.upserted', 500],
      ['customers.deleted', 1_000],
      ['customers.deleted', 1_000],
      ['customers.deleted', 100],
      ['routes.deleted', 1],
    ]);
    const joiner = new PieceJoiner();
    const results = pieces.map((p) => joiner.add(p));
    expect(results.slice(0, -1).every((r) => r === null)).toBe(true);
    expect(results.at(-1)).toEqual({ event: 'data:delta', payload: delta });
  });

  it("sends other events as they are, and the road's on the road only while it is open", () => {
    const sent: Array<{ event: string; payload: unknown }> = [];
    const { road, messages } = recordedRoad();
    const emit = roadEmitter(
      (e, p) => sent.push({ event: e, payload: p }),
      () => [road],
    );
    const small = snapshot(3);
    emit('data:snapshot', small);
    emit('session:changed', null);
    emit('customer:open', {});
    // Before the page opened a road nothing of it goes (the page asks for what it lacks).
    expect(messages).toEqual([]);
    emit.openRoad();
    emit('session:changed', null);
    emit('data:snapshot', small);
    expect(sent).toEqual([{ event: 'customer:open', payload: {} }]);
    expect(messages.map((m) => ('piece' in m ? 'piece' : m.event))).toEqual([
      'session:changed',
      'piece',
    ]);
    // A new road numbers from 1 again; a stream streamed on the old one stays there.
    const stream = emit.openSnapshotStream(small, { customers: 3, routes: 0, territories: 0 })!;
    emit.openRoad();
    stream.add('customers', small.customers);
    stream.end();
    emit('sync:state', { kind: 'signed-out' });
    expect(messages.slice(2).map((m) => [m.road, m.seq])).toEqual([[2, 1]]);
  });

  it('drops a stream whose pieces arrive out of order, and joins the next one', () => {
    const pieces = splitEvent('s1', 'data:snapshot', snapshot(30), 10)!;
    const joiner = new PieceJoiner();
    expect(joiner.add(pieces[0]!)).toBeNull();
    expect(() => joiner.add(pieces[2]!)).toThrow(/out of order/);
    expect(() => joiner.add(pieces[1]!)).toThrow(/out of order/);
    const again = splitEvent('s2', 'data:snapshot', snapshot(30), 10)!;
    const results = again.map((p) => joiner.add(p));
    expect(results.at(-1)?.payload).toEqual(snapshot(30));
  });
});

describe('the Electron shell', () => {
  let rendererDir: string;
  beforeEach(() => {
    rendererDir = mkdtempSync(join(tmpdir(), 'fieldmap-pieces-'));
    mkdirSync(join(rendererDir, 'assets'));
    writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Fieldmap</title>');
  });
  afterEach(() => rmSync(rendererDir, { recursive: true, force: true }));

  it('sends a large snapshot to the window in bounded pieces on the open road', async () => {
    const { services, fake } = await startWithFake(rendererDir);
    const emit = services.emit as unknown as ((event: string, payload: unknown) => void) & {
      openRoad(): void;
    };
    const event = snapshot(4_500);
    emit.openRoad();
    emit('data:snapshot', event);
    const sent = fake.windows[0]!.webContents.sent;
    expect(sent.map((s) => s.channel)).toEqual(['data:road', 'data:road', 'data:road']);
    expect(joinAll(sent.map((s) => s.args[0] as RoadMessage))).toEqual([
      { event: 'data:snapshot', payload: event },
    ]);
  });

  it('sends every snapshot and delta over the data port once the cache worker answers on it', async () => {
    class FakePort implements ShellMessagePortMain {
      readonly posted: unknown[] = [];
      readonly listeners: Array<(event: { data: unknown }) => void> = [];
      started = false;
      closed = false;
      postMessage(message: unknown): void {
        this.posted.push(message);
      }
      on(_event: 'message', listener: (event: { data: unknown }) => void): this {
        this.listeners.push(listener);
        return this;
      }
      start(): void {
        this.started = true;
      }
      close(): void {
        this.closed = true;
      }
      answer(data: unknown): void {
        for (const listener of this.listeners) listener({ data });
      }
    }
    const channels: Array<{ port1: FakePort; port2: FakePort }> = [];
    const handed: Array<{ channel: string; port: unknown }> = [];
    class FakeChannel {
      readonly port1 = new FakePort();
      readonly port2 = new FakePort();
      constructor() {
        channels.push(this);
      }
    }
    const { services, fake } = await startWithFake(rendererDir, {
      dataPorts: {
        MessageChannelMain: FakeChannel,
        postPort: (_contents, channel, port) => handed.push({ channel, port }),
      },
    });
    const emit = services.emit as unknown as ((event: string, payload: unknown) => void) & {
      openRoad(): void;
    };
    const contents = fake.windows[0]!.webContents;
    const ipc = () => contents.sent.map((s) => s.channel);

    // The page has not loaded: no port yet, so the road's messages go over IPC.
    emit.openRoad();
    emit('data:snapshot', snapshot(2_500));
    expect(ipc()).toEqual(['data:road', 'data:road']);

    // Loaded: main hands the page one end, and waits for the worker's answer before using it.
    contents.emit('did-finish-load');
    expect(handed).toEqual([{ channel: DATA_PORT_CHANNEL, port: channels[0]!.port2 }]);
    const port = channels[0]!.port1;
    expect(port.started).toBe(true);
    emit('sync:state', { kind: 'signed-out' });
    expect(ipc().at(-1)).toBe('data:road');

    // The worker listens: every message of the road goes to it as text, numbered on.
    port.answer(DATA_PORT_READY);
    const sentOverIpc = contents.sent.length;
    const large = snapshot(4_500);
    const delta: EventOf<'data:delta'> = {
      accountKey: 'acct',
      pulledAt: 3,
      base: null,
      present: null,
      user: null,
      customers: { upserted: makeCustomers(3, 9), deleted: ['gone'] },
      routes: { upserted: [], deleted: [] },
      territories: { upserted: [], deleted: [] },
    };
    emit('data:snapshot', large);
    emit('data:delta', delta);
    emit('session:changed', null);
    emit('customer:open', {});
    // Only the event that is not the road's takes IPC.
    expect(contents.sent.slice(sentOverIpc).map((s) => s.channel)).toEqual(['customer:open']);
    expect(port.posted.length).toBe(6); // 3 of the snapshot, 2 of the delta, the session
    for (const text of port.posted) expect(typeof text).toBe('string');
    const posted = port.posted.map((text) => JSON.parse(text as string) as RoadMessage);
    for (const message of posted)
      expect(v.safeParse(eventChannels['data:road'], message).success).toBe(true);
    expect(posted.map((m) => m.seq)).toEqual([4, 5, 6, 7, 8, 9]);
    expect(joinAll(posted)).toEqual([
      { event: 'data:snapshot', payload: large },
      { event: 'data:delta', payload: delta },
    ]);

    // The worker reports each message it takes on the port: a stream then sends on only while
    // at most STREAM_WINDOW pieces are on their way.
    const last = posted.at(-1)!;
    port.answer(tookReport(last.road, last.seq));
    const open = (services.emit as unknown as { openSnapshotStream: OpenSnapshotStream })
      .openSnapshotStream;
    const whole = snapshot(2_000 * (STREAM_WINDOW + 2));
    const counts = { customers: whole.customers.length, routes: 0, territories: 0 };
    const stream = open({ ...whole, customers: [] }, counts)!;
    for (let i = 0; i <= STREAM_WINDOW; i++)
      stream.add('customers', whole.customers.slice(i * 2_000, (i + 1) * 2_000));
    expect(port.posted.length).toBe(6 + STREAM_WINDOW + 1);
    let room = false;
    void stream.room().then(() => (room = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(room).toBe(false);
    const taken = JSON.parse(port.posted[6] as string) as RoadMessage;
    port.answer(tookReport(taken.road, taken.seq));
    await expect.poll(() => room).toBe(true);

    // The page reloads: the old port is closed and the road too, until the new page opens one.
    contents.emit('did-start-loading');
    expect(port.closed).toBe(true);
    const before = contents.sent.length;
    const sentOnPort = port.posted.length;
    emit('data:snapshot', snapshot(5));
    expect(contents.sent.length).toBe(before);
    expect(port.posted.length).toBe(sentOnPort);
  });
});
