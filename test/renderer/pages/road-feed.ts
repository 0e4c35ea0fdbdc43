// A test's stand-in for main's end of the road (src-shared/data-road.ts): numbers messages as
// main does, hands them to the real cache worker through CacheWriter (as the page hands on those
// that came its way), and waits for the worker's reports that they were applied.
import type { EventOf } from '../../../src-shared';
import { splitEvent, type PiecedEvent } from '../../../src-shared/data-pieces';
import type { RoadMessage, StateEvent } from '../../../src-shared/data-road';
import type { WriterReply } from '../../../src-renderer/src/cache/cache-writer';
import type { CacheWriter } from '../../../src-renderer/src/cache/cache-writer-page';

type Applied = Extract<WriterReply, { kind: 'applied' }>;

export class RoadFeed {
  road = 1;
  #seq = 0;
  #streams = 0;
  readonly reports: Array<Exclude<WriterReply, { kind: 'done' } | { kind: 'failed' }>> = [];
  #waiters: Array<{ test: (r: Applied) => boolean; resolve: (r: Applied) => void }> = [];

  constructor(readonly writer: CacheWriter) {
    writer.listen((report) => {
      this.reports.push(report);
      if (report.kind !== 'applied') return;
      for (const waiter of [...this.#waiters])
        if (waiter.test(report)) {
          this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
          waiter.resolve(report);
        }
    });
  }

  /** Starts a new road (what main does when the page opens one). */
  newRoad(): void {
    this.road++;
    this.#seq = 0;
  }

  /** A state event as main numbers it (not sent). */
  event<E extends StateEvent>(event: E, payload: EventOf<E>): RoadMessage {
    return { road: this.road, seq: ++this.#seq, event, payload };
  }

  /** A snapshot or delta as main's numbered pieces (not sent). */
  pieces<E extends PiecedEvent>(
    event: E,
    payload: EventOf<E>,
    max = 2_000,
    stream = `feed-${this.road}-${++this.#streams}`,
  ): RoadMessage[] {
    return splitEvent(stream, event, payload, max, true)!.map((piece) => ({
      road: this.road,
      seq: ++this.#seq,
      piece,
    }));
  }

  /** Hands messages to the worker as text (main's data port) or objects (through the page). */
  send(messages: readonly RoadMessage[], as: 'text' | 'object' = 'object'): void {
    for (const message of messages)
      this.writer.road(as === 'text' ? JSON.stringify(message) : message);
  }

  /** Resolves with the worker's report once it applied message `seq` of the current road. */
  applied(seq: number, road = this.road): Promise<Applied> {
    const test = (r: Applied) => r.road === road && r.seq === seq;
    const done = this.reports.find((r): r is Applied => r.kind === 'applied' && test(r));
    if (done) return Promise.resolve(done);
    return new Promise((resolve) => this.#waiters.push({ test, resolve }));
  }

  /** Sends messages in order and waits until the last of them is applied. */
  async apply(
    messages: readonly RoadMessage[],
    as: 'text' | 'object' = 'object',
  ): Promise<Applied> {
    this.send(messages, as);
    return this.applied(messages.at(-1)!.seq);
  }

  /** Main's session on the road: the worker applies the account's messages from here on. */
  session(accountKey: string): Promise<Applied> {
    const account = { accountKey, baseUrl: 'http://127.0.0.1:1', username: 'feed', demo: false };
    return this.apply([this.event('session:changed', account)]);
  }

  /** A whole snapshot or delta, applied: the customers then cached (null: not saved). */
  async data<E extends PiecedEvent>(event: E, payload: EventOf<E>): Promise<number | null> {
    return (await this.apply(this.pieces(event, payload))).count;
  }

  /** The outbox mirror, applied: the customers then cached. */
  async outbox(payload: EventOf<'outbox:changed'>): Promise<number | null> {
    return (await this.apply([this.event('outbox:changed', payload)])).count;
  }

  /** A resolved id, applied: the customers then cached. */
  async resolved(payload: EventOf<'ids:resolved'>): Promise<number | null> {
    return (await this.apply([this.event('ids:resolved', payload)])).count;
  }
}
