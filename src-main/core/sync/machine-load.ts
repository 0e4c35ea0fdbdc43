// How busy this machine is, as a factor on CPU-bound work, for the time left (progress.ts): the
// runnable threads per core, 1 while a core is free. The system's 1-minute load average trails a
// change by about a minute: a cold start's load was still counted while the reconnect after it
// ran on a quieter machine (a time left far too long), and a busy end of a bulk still read as
// the quieter minute before it (too short). So the run queue itself (Linux's /proc/loadavg, its
// fourth field) is read twice a second and averaged over the last few seconds, and a measured
// phase is scaled by the load while it ran, not by the load at its end. Where the system has no
// run queue to read, the 1-minute load average stands in (0 on Windows: a factor of 1).
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';

/** How often the run queue is read. */
const EVERY_MS = 500;
/** The load now: the average of the last few seconds (a single reading jumps from 1 to 10). */
const NOW_MS = 5_000;
/** How far back readings are kept (the longest phase worth scaling: a large list under load). */
const KEEP_MS = 3 * 60_000;

export interface LoadGaugeOptions {
  /** The runnable threads now, this reader's own included (null: not known here). */
  running?: () => number | null;
  /** The runnable threads over the last minute, on average (the fallback). */
  lastMinute?: () => number;
  cores?: number;
  /** A monotonic clock (ms). */
  now?: () => number;
  /** Starts the repeated reading (default: a timer that never keeps the process alive). */
  every?: (ms: number, read: () => void) => void;
}

/** The run queue's length from /proc/loadavg ("0.52 0.58 0.59 3/512 1234"), or null. */
export function runQueue(): number | null {
  try {
    const field = readFileSync('/proc/loadavg', 'utf8').split(' ')[3];
    const running = Number(field?.split('/')[0]);
    return Number.isFinite(running) ? running : null;
  } catch {
    return null;
  }
}

export class LoadGauge {
  readonly #running: () => number | null;
  readonly #lastMinute: () => number;
  readonly #cores: number;
  readonly #now: () => number;
  readonly #every: (ms: number, read: () => void) => void;
  /** [when, runnable threads] oldest first, each standing for the time since the one before. */
  #readings: Array<[number, number]> = [];
  #started = false;
  /** No run queue here: the 1-minute average alone. */
  #none = false;

  constructor(options: LoadGaugeOptions = {}) {
    this.#running = options.running ?? runQueue;
    this.#lastMinute = options.lastMinute ?? (() => loadavg()[0] ?? 0);
    this.#cores = Math.max(1, options.cores ?? availableParallelism());
    this.#now = options.now ?? (() => performance.now());
    this.#every = options.every ?? ((ms, read) => void setInterval(read, ms).unref());
  }

  /**
   * The factor on CPU-bound work: over the last `overMs` (a phase just measured), or now (the
   * last few seconds). Over a span it is the span over the work done in it (each stretch's time
   * over its own factor), so that a phase's time over it is that work, however the load moved.
   * The first call starts the readings; until a few are in, the 1-minute average counts for the
   * time they do not cover.
   */
  factor(overMs = 0): number {
    this.#start();
    const spanMs = Math.max(overMs, NOW_MS);
    return spanMs / this.#work(spanMs);
  }

  #start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#read();
    if (!this.#none) this.#every(EVERY_MS, () => this.#read());
  }

  #read(): void {
    const running = this.#running();
    const now = this.#now();
    if (running === null) {
      this.#none = this.#readings.length === 0;
      return;
    }
    this.#readings.push([now, running]);
    const old = this.#readings.findIndex(([at]) => at >= now - KEEP_MS);
    if (old > 0) this.#readings.splice(0, old);
  }

  /** A count of runnable threads as a factor on CPU-bound work: 1 while a core is free. */
  #factorOf(threads: number): number {
    return Math.max(1, threads / this.#cores);
  }

  /** The work a CPU-bound task did in the last `spanMs`: each stretch over its factor. */
  #work(spanMs: number): number {
    const now = this.#now();
    const from = now - spanMs;
    const readings = this.#readings;
    if (this.#none || readings.length === 0) return spanMs / this.#factorOf(this.#lastMinute());
    let work = 0;
    let covered = 0;
    // Each reading stands for the time since the one before (a late timer: a busy main, its
    // reading then says how busy); the first for EVERY_MS before it.
    for (let i = readings.length - 1; i >= 0; i--) {
      const [at, threads] = readings[i]!;
      const begin = Math.max(from, i > 0 ? readings[i - 1]![0] : at - EVERY_MS);
      const end = i === readings.length - 1 ? Math.max(at, now) : at;
      if (end <= from) break;
      work += (end - begin) / this.#factorOf(threads);
      covered += end - begin;
      if (begin <= from) break;
    }
    // The span before the first reading: the minute's average for what is not covered.
    if (covered < spanMs) work += (spanMs - covered) / this.#factorOf(this.#lastMinute());
    return work;
  }
}

/**
 * The machine's load as a factor on CPU-bound work (1: a core free): now (the last few seconds),
 * or on average over the last `overMs` (a phase that just ran).
 */
export type MachineLoad = (overMs?: number) => number;

let gauge: LoadGauge | null = null;

/** This machine's load (one gauge per process, reading from its first call on). */
export const machineLoad: MachineLoad = (overMs) => (gauge ??= new LoadGauge()).factor(overMs);

/**
 * This process's CPU time so far (ms, every thread's): main's own work in a phase, told apart
 * from its waits on the network (progress.ts).
 */
export function processCpuMs(): number {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1_000;
}
