// The page folds main's outbox events that wait their turn into one (app/outbox-events.ts): a
// bulk change of thousands drains without the page falling behind main, and nothing an event
// said is lost in the fold: the newest queue, every acknowledged record, the later word winning.
import { describe, expect, it } from 'vitest';
import type { Op } from '../../src-shared';
import type { EventOf } from '../../src-shared/ipc-contract';
import { mergeOutboxEvents, OutboxInbox } from '../../src-renderer/src/cache/outbox-events';
import { customerRecord } from '../support/customer-record';

type OutboxEvent = EventOf<'outbox:changed'>;
const ops = (n: number) => Array.from({ length: n }, (_, i) => ({ opId: `op${i}` }) as Op);
const event = (queued: number, acknowledged?: OutboxEvent['acknowledged']): OutboxEvent => ({
  accountKey: 'a',
  ops: ops(queued),
  ...(acknowledged ? { acknowledged } : {}),
});

describe('outbox events folded while they wait', () => {
  it('keeps the newest queue and every acknowledged record, the later word winning', () => {
    const one = customerRecord({ id: 'c1', color: 'red' });
    const two = customerRecord({ id: 'c2' });
    const oneAgain = customerRecord({ id: 'c1', color: 'green' });
    const merged = mergeOutboxEvents(
      event(3, { upserted: [one, two], deleted: ['c3'] }),
      event(2, { upserted: [oneAgain, customerRecord({ id: 'c3' })], deleted: ['c2'] }),
    );
    expect(merged.ops).toHaveLength(2);
    expect(merged.acknowledged!.upserted.map((c) => [c.id, c.color])).toEqual([
      ['c1', 'green'],
      ['c3', customerRecord({ id: 'c3' }).color],
    ]);
    expect(merged.acknowledged!.deleted).toEqual(['c2']);
    // An event with nothing acknowledged keeps what the other acknowledged.
    expect(
      mergeOutboxEvents(event(3, { upserted: [one], deleted: [] }), event(2)).acknowledged,
    ).toEqual({ upserted: [one], deleted: [] });
    expect(mergeOutboxEvents(event(3), event(2))).toEqual(event(2));
  });

  it('keeps every op that reached the service, from both events', () => {
    const reached = (queued: number, ids: string[]): OutboxEvent => ({
      ...event(queued),
      reached: ids,
    });
    const one = customerRecord({ id: 'c1' });
    const merged = mergeOutboxEvents(reached(3, ['op7']), {
      ...reached(2, ['op8']),
      acknowledged: { upserted: [one], deleted: [] },
    });
    expect(merged.reached).toEqual(['op7', 'op8']);
    expect(mergeOutboxEvents(reached(3, ['op7']), event(2)).reached).toEqual(['op7']);
    expect(
      mergeOutboxEvents(
        { ...reached(3, ['op7']), acknowledged: { upserted: [one], deleted: [] } },
        { ...reached(2, ['op8']), acknowledged: { upserted: [], deleted: ['c2'] } },
      ).reached,
    ).toEqual(['op7', 'op8']);
  });

  it('applies one event for a burst that came while the page was busy, in its place in the queue', async () => {
    const inbox = new OutboxInbox();
    const applied: string[] = [];
    let queue = Promise.resolve();
    let release!: () => void;
    const busy = new Promise<void>((r) => (release = r));
    const enqueue = (task: () => Promise<void>) => {
      inbox.closeTail();
      queue = queue.then(task);
    };
    const apply = async (e: OutboxEvent) => void applied.push(`outbox ${e.ops.length}`);
    // The page is busy with something else; 1,000 sent changes each mirror the queue.
    enqueue(() => busy.then(() => void applied.push('busy')));
    for (let left = 1000; left > 500; left--) inbox.push(event(left), enqueue, apply);
    // Something else queued after them: a later outbox event must not jump ahead of it.
    enqueue(async () => void applied.push('ids resolved'));
    for (let left = 500; left > 0; left--) inbox.push(event(left), enqueue, apply);
    release();
    await queue;
    expect(applied).toEqual(['busy', 'outbox 501', 'ids resolved', 'outbox 1']);
  });
});
