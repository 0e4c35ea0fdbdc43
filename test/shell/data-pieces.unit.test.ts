// Large data crosses process boundaries in pieces (src-shared/data-pieces.ts): the Electron
// shell sends a large snapshot or delta as bounded 'data:piece' messages, each valid under the
// IPC contract, and the renderer's joiner rebuilds exactly the event main emitted. Small events
// go as they are. (The browser runner's path is covered end to end by
// test/write/large-account.e2e.test.ts.)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  PIECE_ITEMS,
  PieceJoiner,
  sendInPieces,
  splitEvent,
  type DataPiece,
  type JoinedEvent,
} from '../../src-shared/data-pieces';
import { eventChannels, type EventOf } from '../../src-shared/ipc-contract';
import { makeCustomers } from '../renderer/pages/fixtures';
import { DATA_PORT_CHANNEL, DATA_PORT_READY } from '../../src-shared/data-port';
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

/** Joins what a transport sent; returns the whole events in order. */
function joinAll(sent: Array<{ event: string; payload: unknown }>): JoinedEvent[] {
  const joiner = new PieceJoiner();
  const out: JoinedEvent[] = [];
  for (const { event, payload } of sent) {
    if (event === 'data:stream') continue; // announced on the page's channel (checked apart)
    if (event !== 'data:piece') {
      out.push({ event, payload } as JoinedEvent);
      continue;
    }
    const joined = joiner.add(payload as DataPiece);
    if (joined) out.push(joined);
  }
  return out;
}

describe('large events in pieces', () => {
  it('splits a snapshot into valid bounded pieces and joins it back exactly', () => {
    const event = snapshot(5_001);
    const sent: Array<{ event: string; payload: unknown }> = [];
    const emit = sendInPieces((e, p) => sent.push({ event: e, payload: p }));
    emit('data:snapshot', event);

    // Announced first, on the same channel, then its pieces.
    expect(sent.map((s) => s.event)).toEqual([
      'data:stream',
      'data:piece',
      'data:piece',
      'data:piece',
    ]);
    const announced = v.parse(eventChannels['data:stream'], sent[0]!.payload);
    const first = sent[1]!.payload as DataPiece;
    expect(announced).toEqual({
      stream: first.stream,
      event: 'data:snapshot',
      accountKey: event.accountKey,
      count: 3,
      total: 5_001,
    });
    for (const { payload } of sent.slice(1)) {
      const parsed = v.safeParse(eventChannels['data:piece'], payload);
      expect(parsed.success).toBe(true);
      expect((payload as DataPiece).items.length).toBeLessThanOrEqual(PIECE_ITEMS);
      expect((payload as DataPiece).total).toBe(5_001);
    }
    expect(joinAll(sent)).toEqual([{ event: 'data:snapshot', payload: event }]);
  });

  it('splits a delta across its upserted and deleted lists', () => {
    const delta: EventOf<'data:delta'> = {
      accountKey: 'acct',
      pulledAt: 2,
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

  it('sends small events as they are', () => {
    const sent: Array<{ event: string; payload: unknown }> = [];
    const emit = sendInPieces((e, p) => sent.push({ event: e, payload: p }));
    const small = snapshot(PIECE_ITEMS);
    emit('data:snapshot', small);
    emit('session:changed', null);
    expect(sent).toEqual([
      { event: 'data:snapshot', payload: small },
      { event: 'session:changed', payload: null },
    ]);
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

  it('sends a large snapshot to the window in bounded pieces', async () => {
    const { services, fake } = await startWithFake(rendererDir);
    const emit = services.emit as unknown as (event: string, payload: unknown) => void;
    const event = snapshot(4_500);
    emit('data:snapshot', event);
    const sent = fake.windows[0]!.webContents.sent.map((s) => ({
      event: s.channel,
      payload: s.args[0],
    }));
    expect(sent.map((s) => s.event)).toEqual([
      'data:stream',
      'data:piece',
      'data:piece',
      'data:piece',
    ]);
    expect(joinAll(sent)).toEqual([{ event: 'data:snapshot', payload: event }]);
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
    const emit = services.emit as unknown as (event: string, payload: unknown) => void;
    const contents = fake.windows[0]!.webContents;
    const ipc = () => contents.sent.map((s) => s.channel);

    // The page has not loaded: no port yet, so a large snapshot goes over IPC in pieces.
    emit('data:snapshot', snapshot(2_500));
    expect(ipc()).toEqual(['data:stream', 'data:piece', 'data:piece']);

    // Loaded: main hands the page one end, and waits for the worker's answer before using it.
    contents.emit('did-finish-load');
    expect(handed).toEqual([{ channel: DATA_PORT_CHANNEL, port: channels[0]!.port2 }]);
    const port = channels[0]!.port1;
    expect(port.started).toBe(true);
    emit('data:snapshot', snapshot(5));
    expect(ipc().at(-1)).toBe('data:snapshot');

    // The worker listens: every snapshot and delta, small ones too, goes to it as pieces, in order.
    port.answer(DATA_PORT_READY);
    const sentOverIpc = contents.sent.length;
    const large = snapshot(4_500);
    const delta: EventOf<'data:delta'> = {
      accountKey: 'acct',
      pulledAt: 3,
      user: null,
      customers: { upserted: makeCustomers(3, 9), deleted: ['gone'] },
      routes: { upserted: [], deleted: [] },
      territories: { upserted: [], deleted: [] },
    };
    emit('data:snapshot', large);
    emit('data:delta', delta);
    emit('session:changed', null);
    // Only each stream's announcement takes IPC, in order with the other events.
    const announced = contents.sent.slice(sentOverIpc);
    expect(announced.map((s) => s.channel)).toEqual([
      'data:stream',
      'data:stream',
      'session:changed',
    ]);
    expect(announced.slice(0, 2).map((s) => (s.args[0] as { count: number }).count)).toEqual([
      3, 2,
    ]);
    expect(port.posted.length).toBe(5); // 3 of the snapshot, 2 of the delta (upserted, deleted)
    // Each piece goes as its JSON text (the worker hands a snapshot's customers on as text).
    for (const text of port.posted) expect(typeof text).toBe('string');
    const posted = port.posted.map((text) => JSON.parse(text as string) as unknown);
    for (const piece of posted)
      expect(v.safeParse(eventChannels['data:piece'], piece).success).toBe(true);
    const overPort = posted.map((payload) => ({ event: 'data:piece', payload }));
    expect(joinAll(overPort)).toEqual([
      { event: 'data:snapshot', payload: large },
      { event: 'data:delta', payload: delta },
    ]);

    // The page reloads: the old port is closed and data goes over IPC until the new one answers.
    contents.emit('did-start-loading');
    expect(port.closed).toBe(true);
    emit('data:snapshot', snapshot(5));
    expect(ipc().at(-1)).toBe('data:snapshot');
    expect(port.posted.length).toBe(5);
  });
});
