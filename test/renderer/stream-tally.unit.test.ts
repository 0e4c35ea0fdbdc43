// The page's count of main's data streams on their way to the cache worker (stream-tally.ts): a
// stream is on its way from main's announcement, which reaches the page in order with main's
// state, until its last piece, however late the worker reports its pieces. A piece that overtook
// its announcement, a dropped stream, one whose pieces never came and one whose tail was lost
// leave nothing counted for ever; another account's stream is not the shown account's business.
import { describe, expect, it } from 'vitest';
import type { PieceMeta } from '../../src-shared/data-pieces';
import { receivingFor, StreamTally } from '../../src-renderer/src/app/stream-tally';

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

const announced = (
  stream: string,
  total: number,
  accountKey = 'acct',
  event: 'data:snapshot' | 'data:delta' = 'data:snapshot',
) => ({ stream, event, total, accountKey });

/** What the status bar shows of the tally for the account 'acct'. */
const shown = (tally: StreamTally, accountKey: string | null = 'acct') =>
  receivingFor(tally.summary(), accountKey);

describe('the streams on their way to the cache worker', () => {
  it('counts a stream from its announcement, before the worker reports a piece', () => {
    const tally = new StreamTally();
    expect(shown(tally)).toBeNull();
    tally.announce(announced('s1', 20_000));
    expect(shown(tally)).toEqual({ done: 0, total: 20_000 });
    for (let i = 0; i < 9; i++) expect(tally.piece(meta('s1', i, 10, 20_000))).toBe('counted');
    expect(shown(tally)).toEqual({ done: 18_000, total: 20_000 });
    expect(tally.piece(meta('s1', 9, 10, 20_000))).toBe('last');
    expect(shown(tally)).toBeNull();
  });

  it('ignores an announcement that comes after its stream is over, and a delta without customers', () => {
    const tally = new StreamTally();
    expect(tally.piece(meta('s1', 0, 1, 500))).toBe('last');
    tally.announce(announced('s1', 500));
    expect(shown(tally)).toBeNull();
    // One that comes mid-stream changes nothing.
    expect(tally.piece(meta('s2', 0, 2, 4_000))).toBe('counted');
    tally.announce(announced('s2', 4_000));
    expect(shown(tally)).toEqual({ done: 2_000, total: 4_000 });
    expect(tally.piece(meta('s2', 1, 2, 4_000))).toBe('last');
    expect(shown(tally)).toBeNull();
    // A sync's empty delta: no "0 of 0".
    tally.announce(announced('s3', 0, 'acct', 'data:delta'));
    expect(shown(tally)).toBeNull();
    // An empty snapshot empties the list: on its way like any other.
    tally.announce(announced('s4', 0));
    expect(shown(tally)).toEqual({ done: 0, total: 0 });
  });

  it('drops a stream on a piece out of order or one the worker dropped, and then only once', () => {
    const tally = new StreamTally();
    tally.announce(announced('s1', 6_000));
    expect(tally.piece(meta('s1', 1, 3, 6_000))).toBe('dropped');
    expect(shown(tally)).toBeNull();
    expect(tally.piece({ ...meta('s1', 2, 3, 6_000), dropped: true })).toBe('stale');
    tally.announce(announced('s2', 6_000));
    expect(tally.piece(meta('s2', 0, 3, 6_000))).toBe('counted');
    expect(tally.piece({ ...meta('s2', 1, 3, 6_000), dropped: true })).toBe('dropped');
    expect(shown(tally)).toBeNull();
    // A page that loaded mid-stream hears pieces of a stream it never saw start: dropped.
    expect(tally.piece(meta('s9', 4, 9, 18_000))).toBe('dropped');
  });

  it('forgets an announced stream whose first piece never came, and counts it again if it does', () => {
    const tally = new StreamTally();
    tally.announce(announced('s1', 4_000));
    expect(tally.unheard('s1')).toBe(true);
    expect(shown(tally)).toBeNull();
    expect(tally.unheard('s1')).toBe(false);
    expect(tally.piece(meta('s1', 0, 2, 4_000))).toBe('counted');
    expect(tally.unheard('s1')).toBe(false);
    expect(shown(tally)).toEqual({ done: 2_000, total: 4_000 });
  });

  it('forgets a stream whose tail was lost once the worker says its save failed, and only then', () => {
    const tally = new StreamTally();
    tally.announce(announced('s1', 6_000));
    tally.piece(meta('s1', 0, 3, 6_000));
    tally.piece(meta('s1', 1, 3, 6_000));
    expect(shown(tally)).toEqual({ done: 3_900, total: 6_000 }); // in twentieths
    expect(tally.lost('s1')).toBe(true);
    expect(shown(tally)).toBeNull();
    // A late piece of it, and a second report, change nothing.
    expect(tally.piece(meta('s1', 2, 3, 6_000))).toBe('stale');
    expect(tally.lost('s1')).toBe(false);
    // A stream whose every piece came: its failed save is the page's 'stream' request's to tell.
    tally.piece(meta('s2', 0, 1, 500));
    expect(tally.lost('s2')).toBe(false);
  });

  it("shows the oldest stream of the shown account, not another account's", () => {
    const tally = new StreamTally();
    tally.announce(announced('s1', 100_000));
    tally.piece(meta('s1', 0, 50, 100_000));
    tally.announce(announced('s2', 40));
    tally.announce(announced('other', 9_000, 'signed-out'));
    expect(shown(tally)).toEqual({ done: 0, total: 100_000 });
    for (let i = 1; i < 50; i++) tally.piece(meta('s1', i, 50, 100_000));
    expect(shown(tally)).toEqual({ done: 0, total: 40 });
    tally.piece(meta('s2', 0, 1, 40));
    expect(shown(tally)).toBeNull();
    expect(shown(tally, 'signed-out')).toEqual({ done: 0, total: 9_000 });
    // No account shown yet (before the signed-in account's cache opens): any stream counts.
    expect(shown(tally, null)).toEqual({ done: 0, total: 9_000 });
  });
});
