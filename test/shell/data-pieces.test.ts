// Large data crosses process boundaries in pieces (src-shared/data-pieces.ts): the Electron
// shell sends a large snapshot or delta as bounded 'data:piece' messages, each valid under the
// IPC contract, and the renderer's joiner rebuilds exactly the event main emitted. Small events
// go as they are. (The browser runner's path is covered end to end by
// test/write/large-account.test.ts.)
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

    expect(sent.map((s) => s.event)).toEqual(['data:piece', 'data:piece', 'data:piece']);
    for (const { payload } of sent) {
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
    expect(sent.length).toBe(3);
    expect(sent.every((s) => s.event === 'data:piece')).toBe(true);
    expect(joinAll(sent)).toEqual([{ event: 'data:snapshot', payload: event }]);
  });
});
