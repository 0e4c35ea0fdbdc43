// The page's count of main's data streams on their way to the cache worker (stream-tally.ts): a
// stream is on its way from main's announcement, which reaches the page in order with main's
// state, until its last piece, however late the worker reports its pieces; a piece that
// overtook its announcement, a dropped stream and one whose pieces never came leave nothing
// counted for ever.
import { describe, expect, it } from 'vitest';
import type { PieceMeta } from '../../src-shared/data-pieces';
import { StreamTally } from '../../src-renderer/src/app/stream-tally';

const meta = (stream: string, index: number, count: number, total: number): PieceMeta => ({
  stream,
  event: 'data:snapshot',
  accountKey: 'acct',
  index,
  count,
  total,
  first: index === 0,
  customers: Math.min(2_000, total - index * 2_000),
  dropped: false,
});

describe('the streams on their way to the cache worker', () => {
  it('counts a stream from its announcement, before the worker reports a piece', () => {
    const tally = new StreamTally();
    expect(tally.receiving()).toBeNull();
    tally.announce({ stream: 's1', total: 20_000 });
    expect(tally.receiving()).toEqual({ done: 0, total: 20_000 });
    for (let i = 0; i < 9; i++) expect(tally.piece(meta('s1', i, 10, 20_000))).toBe('counted');
    expect(tally.receiving()).toEqual({ done: 18_000, total: 20_000 });
    expect(tally.piece(meta('s1', 9, 10, 20_000))).toBe('last');
    expect(tally.receiving()).toBeNull();
  });

  it('ignores an announcement that comes after its stream is over', () => {
    const tally = new StreamTally();
    expect(tally.piece(meta('s1', 0, 1, 500))).toBe('last');
    tally.announce({ stream: 's1', total: 500 });
    expect(tally.receiving()).toBeNull();
    // And one that comes mid-stream changes nothing.
    expect(tally.piece(meta('s2', 0, 2, 4_000))).toBe('counted');
    tally.announce({ stream: 's2', total: 4_000 });
    expect(tally.receiving()).toEqual({ done: 2_000, total: 4_000 });
    expect(tally.piece(meta('s2', 1, 2, 4_000))).toBe('last');
    expect(tally.receiving()).toBeNull();
  });

  it('drops a stream on a piece out of order or one the worker dropped', () => {
    const tally = new StreamTally();
    tally.announce({ stream: 's1', total: 6_000 });
    expect(tally.piece(meta('s1', 1, 3, 6_000))).toBe('dropped');
    expect(tally.receiving()).toBeNull();
    tally.announce({ stream: 's2', total: 6_000 });
    expect(tally.piece(meta('s2', 0, 3, 6_000))).toBe('counted');
    expect(tally.piece({ ...meta('s2', 1, 3, 6_000), dropped: true })).toBe('dropped');
    expect(tally.receiving()).toBeNull();
  });

  it('forgets an announced stream whose first piece never came, and counts it again if it does', () => {
    const tally = new StreamTally();
    tally.announce({ stream: 's1', total: 4_000 });
    expect(tally.unheard('s1')).toBe(true);
    expect(tally.receiving()).toBeNull();
    expect(tally.unheard('s1')).toBe(false);
    expect(tally.piece(meta('s1', 0, 2, 4_000))).toBe('counted');
    expect(tally.unheard('s1')).toBe(false);
    expect(tally.receiving()).toEqual({ done: 2_000, total: 4_000 });
  });

  it('shows the oldest stream on its way while a later one is announced', () => {
    const tally = new StreamTally();
    tally.announce({ stream: 's1', total: 100_000 });
    tally.piece(meta('s1', 0, 50, 100_000));
    tally.announce({ stream: 's2', total: 40 });
    expect(tally.receiving()).toEqual({ done: 0, total: 100_000 });
    for (let i = 1; i < 50; i++) tally.piece(meta('s1', i, 50, 100_000));
    expect(tally.receiving()).toEqual({ done: 0, total: 40 });
  });
});
