// The cache worker's end of the road (src-shared/data-road.ts): messages come by two transports
// (main's data port, or through the page) with no order between them, and leave here in the
// order main numbered them. A message of a newer road starts that road (what is left of the old
// one goes nowhere); one of an older road, or seen already, is dropped. A gap that stays open
// `gapMs` (a message lost on its way) is reported once: the page then opens a new road.
import type { RoadMessage } from '../../../src-shared/data-road';

/** Longest wait for a missing message while later ones wait behind it. */
export const ROAD_GAP_MS = 30_000;

export interface RoadTimers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

type Waiting = { message: RoadMessage; text: string | undefined };

export class RoadReader {
  #road = 0;
  #next = 1;
  #waiting = new Map<number, Waiting>();
  #timer: unknown = null;

  /**
   * `deliver`: each message in order (with its text when it came as text); `started`: a newer
   * road began (the old one's unfinished streams are over); `lost`: a gap stayed open.
   */
  constructor(
    private readonly deliver: (message: RoadMessage, text: string | undefined) => void,
    private readonly started: (road: number) => void,
    private readonly lost: (road: number, seq: number) => void,
    private readonly gapMs = ROAD_GAP_MS,
    private readonly timers: RoadTimers = globalThis,
  ) {}

  take(message: RoadMessage, text?: string): void {
    if (message.road < this.#road) return;
    if (message.road > this.#road) {
      this.#road = message.road;
      this.#next = 1;
      this.#waiting.clear();
      this.#disarm();
      this.started(message.road);
    }
    if (message.seq < this.#next || this.#waiting.has(message.seq)) return;
    this.#waiting.set(message.seq, { message, text });
    let moved = false;
    for (let next = this.#waiting.get(this.#next); next; next = this.#waiting.get(this.#next)) {
      this.#waiting.delete(this.#next);
      this.#next++;
      moved = true;
      this.deliver(next.message, next.text);
    }
    if (moved || this.#waiting.size === 0) this.#disarm();
    if (this.#waiting.size > 0 && this.#timer === null) {
      const road = this.#road;
      const seq = this.#next;
      this.#timer = this.timers.setTimeout(() => {
        this.#timer = null;
        if (this.#road === road && this.#next === seq) this.lost(road, seq);
      }, this.gapMs);
    }
  }

  #disarm(): void {
    if (this.#timer !== null) this.timers.clearTimeout(this.#timer);
    this.#timer = null;
  }
}
