// SnapshotStage (cache/snapshot-stage.ts) keeps a snapshot's customers as the cache worker hands
// on each piece's text, in the cache's primary-key order, and gives them out only when every
// piece came, in order and with its text. (The feed's adoption of them, over the real cache
// worker, is in cache.test.ts.)
import { describe, expect, it } from 'vitest';
import type { EventOf } from '../../src-shared';
import { metaOf, splitEvent, type DataPiece } from '../../src-shared/data-pieces';
import { SnapshotStage } from '../../src-renderer/src/cache/snapshot-stage';
import type { CustomerRow } from '../../src-renderer/src/cache/schema';
import { makeCustomers } from './pages/fixtures';

function snapshot(accountKey: string, n: number, seed: number): EventOf<'data:snapshot'> {
  return {
    accountKey,
    pulledAt: 1,
    user: { colors: [], groups: [] } as unknown as EventOf<'data:snapshot'>['user'],
    customers: makeCustomers(n, seed),
    routes: [],
    territories: [],
  };
}

function pieces(stream: string, payload: EventOf<'data:snapshot'>, max = 700): DataPiece[] {
  return splitEvent(stream, 'data:snapshot', payload, max, true)!;
}

const feed = (stage: SnapshotStage, list: DataPiece[], text = true) => {
  for (const piece of list) stage.add(metaOf(piece), text ? JSON.stringify(piece) : undefined);
};

const ids = (rows: CustomerRow[] | null) => rows?.map((r) => r.id) ?? null;

describe('SnapshotStage', () => {
  it('gives out every customer of a whole stream once, in primary-key order', () => {
    const payload = snapshot('a', 10_007, 4);
    // Shuffled as a service might send them; ids like c10 and c9 sort as strings, as IndexedDB does.
    payload.customers.sort(() => Math.random() - 0.5);
    const stage = new SnapshotStage();
    const list = pieces('s1', payload);
    expect(list.length).toBeGreaterThan(14);
    feed(stage, list.slice(0, -1));
    expect(stage.has('s1')).toBe(false);
    expect(stage.take('s1')).toBeNull();
    feed(stage, list.slice(-1));
    expect(stage.has('s1')).toBe(true);
    const rows = stage.take('s1');
    const expected = payload.customers.map((c) => c.id).sort();
    expect(ids(rows)).toEqual(expected);
    expect(rows![5]).toEqual(payload.customers.find((c) => c.id === expected[5]));
    expect(stage.take('s1')).toBeNull();
  });

  it('gives out an id listed twice once, its last copy, as the cache saves it', () => {
    const payload = snapshot('a', 3_000, 2);
    const copy = (id: string, name: string) => ({
      ...payload.customers.find((c) => c.id === id)!,
      name,
    });
    // c7 twice in its own piece and again four pieces later; c2500 in its piece and the last.
    payload.customers.splice(100, 0, copy('c7', 'second'));
    payload.customers.push(copy('c7', 'third'), copy('c2500', 'last'));
    const stage = new SnapshotStage();
    feed(stage, pieces('dup', payload));
    const rows = stage.peek('dup')!;
    expect(ids(rows)).toEqual(
      makeCustomers(3_000, 2)
        .map((c) => c.id)
        .sort(),
    );
    expect(rows.find((r) => r.id === 'c7')!.name).toBe('third');
    expect(rows.find((r) => r.id === 'c2500')!.name).toBe('last');
    expect(stage.take('dup')).toBe(rows);
  });

  it('merges a whole stream in several tasks, with what peek gives; a take meanwhile wins', async () => {
    const payload = snapshot('a', 40_000, 5);
    payload.customers.sort(() => Math.random() - 0.5);
    const last = { ...payload.customers[10]!, name: 'last copy' };
    payload.customers.push(last);
    const expected = makeCustomers(40_000, 5)
      .map((c) => c.id)
      .sort();
    const stage = new SnapshotStage();
    feed(stage, pieces('m', payload, 2_000));
    // Tasks that ran while it merged: it let the event loop go between its slices.
    let ticks = 0;
    const tick = setInterval(() => ticks++, 0);
    const rows = await stage.merged('m');
    clearInterval(tick);
    expect(ticks).toBeGreaterThan(1);
    expect(ids(rows)).toEqual(expected);
    expect(rows!.find((r) => r.id === last.id)!.name).toBe('last copy');
    expect(stage.peek('m')).toBe(rows);
    expect(stage.take('m')).toBe(rows);
    // Taken (adopted) while merging: the take has every row, the merge nothing.
    const again = new SnapshotStage();
    feed(again, pieces('t', payload, 2_000));
    const merging = again.merged('t');
    const taken = again.take('t');
    expect(ids(taken)).toEqual(expected);
    expect(await merging).toBeNull();
    // Merged behind the pieces as they come, a task or more between them: the same rows.
    const behind = new SnapshotStage();
    for (const piece of pieces('b', payload, 2_000)) {
      feed(behind, [piece]);
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setTimeout(resolve, 0));
    }
    expect(ids(await behind.merged('b'))).toEqual(expected);
    expect(behind.peek('b')!.find((r) => r.id === last.id)!.name).toBe('last copy');
  });

  it('keeps nothing of a stream with a piece missing, out of order, dropped or without its text', () => {
    const stage = new SnapshotStage();
    const gap = pieces('gap', snapshot('a', 3_000, 1));
    feed(stage, [gap[0]!, ...gap.slice(2)]);
    const swapped = pieces('swap', snapshot('b', 3_000, 1));
    feed(stage, [swapped[0]!, swapped[2]!, swapped[1]!, ...swapped.slice(3)]);
    const noText = pieces('text', snapshot('c', 3_000, 1));
    feed(stage, noText.slice(0, 2));
    feed(stage, noText.slice(2, 3), false);
    feed(stage, noText.slice(3));
    const dropped = pieces('drop', snapshot('d', 3_000, 1));
    feed(stage, dropped.slice(0, 2));
    stage.add(metaOf(dropped[2]!, true));
    feed(stage, dropped.slice(3));
    for (const stream of ['gap', 'swap', 'text', 'drop']) expect(stage.take(stream)).toBeNull();
  });

  it('holds one stream per account: a newer snapshot replaces the older, and drops forget', () => {
    const stage = new SnapshotStage();
    feed(stage, pieces('old', snapshot('a', 1_500, 1)));
    feed(stage, pieces('other', snapshot('b', 1_500, 2)));
    feed(stage, pieces('new', snapshot('a', 1_000, 3)));
    expect(stage.has('old')).toBe(false);
    expect(stage.take('new')?.length).toBe(1_000);
    expect(stage.has('other')).toBe(true);
    stage.dropAccount('b');
    expect(stage.has('other')).toBe(false);
    feed(stage, pieces('gone', snapshot('a', 800, 4)));
    stage.drop('gone');
    expect(stage.take('gone')).toBeNull();
  });

  it('tells whether a stream is still coming, and settles its waiters once it is whole or lost', async () => {
    const stage = new SnapshotStage();
    const list = pieces('s', snapshot('a', 2_000, 1));
    expect(stage.pending('s')).toBe(false);
    feed(stage, list.slice(0, 1));
    expect(stage.pending('s')).toBe(true);
    let settled = false;
    const waiting = stage.settled('s').then(() => (settled = true));
    feed(stage, list.slice(1, -1));
    await Promise.resolve();
    expect(settled).toBe(false);
    feed(stage, list.slice(-1));
    await waiting;
    expect(stage.pending('s')).toBe(false);
    expect(stage.has('s')).toBe(true);
    // A stream that loses a piece settles its waiters too (the feed then reads the cache back).
    const lost = pieces('lost', snapshot('b', 2_000, 1));
    feed(stage, lost.slice(0, 1));
    const gone = stage.settled('lost');
    stage.add(metaOf(lost[1]!, true));
    await gone;
    expect(stage.pending('lost')).toBe(false);
    expect(stage.has('lost')).toBe(false);
  });

  it('drops the copies no longer arriving when the feed reads the cache back instead', () => {
    const stage = new SnapshotStage();
    feed(stage, pieces('done', snapshot('a', 1_500, 1)));
    const coming = pieces('coming', snapshot('b', 1_500, 2));
    feed(stage, coming.slice(0, 1));
    stage.dropSettled();
    expect(stage.has('done')).toBe(false);
    expect(stage.pending('coming')).toBe(true);
    feed(stage, coming.slice(1));
    expect(stage.take('coming')?.length).toBe(1_500);
  });

  it('tells its listeners when a stream is whole and when one goes unadopted; peek keeps it', () => {
    const stage = new SnapshotStage();
    const heard: string[] = [];
    const stop = stage.listen({
      whole: (stream, accountKey) => heard.push(`whole ${stream} ${accountKey}`),
      gone: (stream) => heard.push(`gone ${stream}`),
    });
    const list = pieces('s1', snapshot('a', 2_500, 1));
    feed(stage, list.slice(0, -1));
    expect(heard).toEqual([]);
    feed(stage, list.slice(-1));
    expect(heard).toEqual(['whole s1 a']);
    const peeked = stage.peek('s1');
    expect(peeked?.length).toBe(2_500);
    expect(stage.peek('s1')).toBe(peeked);
    // Taken (adopted): not gone, and the rows are the very ones peeked.
    expect(stage.take('s1')).toBe(peeked);
    expect(stage.peek('s1')).toBeNull();
    // Replaced by a newer snapshot of the account, dropped, or losing a piece: gone.
    feed(stage, pieces('s2', snapshot('a', 700, 2)));
    feed(stage, pieces('s3', snapshot('a', 2_000, 3)).slice(0, 1));
    stage.drop('s3');
    const lost = pieces('s4', snapshot('b', 2_000, 4));
    feed(stage, [lost[0]!, lost[2]!]);
    stop();
    feed(stage, pieces('s5', snapshot('b', 700, 5)));
    expect(heard).toEqual(['whole s1 a', 'whole s2 a', 'gone s2', 'gone s3', 'gone s4']);
  });

  it('ignores deltas', () => {
    const stage = new SnapshotStage();
    const delta = splitEvent(
      'd',
      'data:delta',
      {
        accountKey: 'a',
        pulledAt: 1,
        base: null,
        present: null,
        user: null,
        customers: { upserted: makeCustomers(1_000, 1), deleted: [] },
        routes: { upserted: [], deleted: [] },
        territories: { upserted: [], deleted: [] },
      },
      700,
      true,
    )!;
    for (const piece of delta) stage.add(metaOf(piece), JSON.stringify(piece));
    expect(stage.has('d')).toBe(false);
  });
});
