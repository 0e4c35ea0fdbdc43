// Progress of one sync: requests done and planned, and THE estimate of the time left that the
// status bar and the Selection panel both show (the page counts it down between main's words).
// Each request before the pull's customers list costs a slot of the account's rate limit, or the
// pace this sync's requests really went at once a few have (never faster than the limit). The
// pull costs what it took last time, from its list on: the list (seconds at 100k: one request the
// size of the account) and the rest after it (routes, territories, the diff against the last
// pull), kept as main's own work on an unloaded machine, scaled by how busy the machine is now
// (machine-load.ts: a list measured while both cores were busy takes a fraction of that time on
// a quieter machine, and the other way round), and the list's wait on the service and the
// network, which this laptop's load does not stretch. While the list is on its way, and after
// it, the work it has done counts at the load it ran under, and what is left at the load now. A pull
// whose time is not known, that has outrun it, or that runs on a machine too busy to know it
// (KNOWN_UP_TO_LOAD), leaves the time unknown (etaMs 0): better no time than a wrong one.
import type { SyncState } from '../../../src-shared/sync-state';
import type { MachineLoad } from './machine-load';

/** Requests that must have been answered before their measured pace replaces the limit's. */
const MEASURE_AFTER = 5;
/**
 * Up to this load a pull's time is known, scaled from its last: beyond it (more threads waiting
 * than twice the cores, a machine shared with other heavy work) the same 100k list took from 0.9
 * to 2.4 times its last time, each scaled by the load it ran under. The time left is then said
 * only while the pull is at most UNSURE_SHARE of it, so that its error cannot make the whole
 * more than a fifth off.
 */
const KNOWN_UP_TO_LOAD = 2;
const UNSURE_SHARE = 0.2;
/**
 * Once decided, how far the load must move past KNOWN_UP_TO_LOAD to change it: a load hovering
 * at the line made the time come and go several times a second in a rep trial.
 */
const LOAD_BAND = 0.5;

/** The pull's time from its list on; the engine keeps it as on an unloaded machine (MachineLoad). */
export interface PullTimes {
  /** Main's own work in the customers list, asked for to answered (receiving and reading it). */
  listMs: number;
  /**
   * The rest of the list's time: its wait on the service and the network, the same on a busy
   * laptop (0: none, or not told apart, for a pull kept before it was measured).
   */
  waitMs?: number;
  /** From the list's answer to the pull's end: routes, territories and the diff (0: not known). */
  afterMs: number;
}

export interface SyncProgressOptions {
  /** What the pull took from its list on last time, as on an unloaded machine (MachineLoad). */
  pull?: PullTimes;
  /** The machine's load, now or over the last span, read at each estimate (default 1: none). */
  load?: MachineLoad;
  /** The engine's clock: the list's time counts from when it was asked for. */
  now?: () => number;
  /**
   * Main's CPU time so far, in ms (process.cpuUsage): what of the list was main's own work and
   * what was a wait (absent: not known, all of it counts as work).
   */
  cpuMs?: () => number;
  /**
   * The pull's requests from its list on (the list and those after it): never counted done
   * before they are, however many more requests the push took than planned (default 1).
   */
  fromList?: number;
}

export class SyncProgress {
  readonly #ratePerSecond: number;
  readonly #pull: PullTimes;
  readonly #load: MachineLoad;
  readonly #now: () => number;
  readonly #fromList: number;
  readonly #cpuMs: (() => number) | null;
  #done = 0;
  #total: number;
  /** The pull's list is still to be answered (every sync ends with a pull). */
  #listAhead = true;
  /** When the list was asked for (null: not yet). */
  #listSince: number | null = null;
  /** When the list was answered (null: not yet). */
  #listAnswered: number | null = null;
  /** The machine's load while the list was on its way (null: not answered yet). */
  #listLoad: number | null = null;
  /** Main's CPU time when the list was asked for, then what it spent until the answer. */
  #listCpu: { from: number; spent: number | null } | null = null;
  /** [when, done] at this sync's first answered request: its pace is measured from there. */
  #first: [number, number] | null = null;
  /** The measured time per request, once MEASURE_AFTER have been answered before the list. */
  #paceMs = 0;
  /** The machine was last judged too busy to know the pull's time (null: not judged yet). */
  #busy: boolean | null = null;

  constructor(plannedRequests: number, ratePerSecond: number, options: SyncProgressOptions = {}) {
    this.#ratePerSecond = ratePerSecond;
    const pull = options.pull ?? { listMs: 0, afterMs: 0 };
    this.#pull = {
      listMs: Math.max(0, pull.listMs),
      waitMs: Math.max(0, pull.waitMs ?? 0),
      afterMs: Math.max(0, pull.afterMs),
    };
    this.#cpuMs = options.cpuMs ?? null;
    this.#load = options.load ?? (() => 1);
    this.#now = options.now ?? Date.now;
    this.#fromList = Math.max(1, options.fromList ?? 1);
    this.#total = Math.max(plannedRequests, this.#fromList);
  }

  /** The pull's customers list is asked for now. */
  listing(): void {
    this.#listSince = this.#now();
    if (this.#cpuMs) this.#listCpu = { from: this.#cpuMs(), spent: null };
  }

  /** When the pull's list was answered, on the engine's clock (null: not yet). */
  get listAnsweredAt(): number | null {
    return this.#listAnswered;
  }

  /** When the pull's list was asked for, on the engine's clock (null: not yet). */
  get listAskedAt(): number | null {
    return this.#listSince;
  }

  /** The machine's load while the list was on its way (null: not answered yet). */
  get listLoad(): number | null {
    return this.#listLoad;
  }

  /** Main's CPU time spent from the list's ask to its answer (null: not known, or not yet). */
  get listCpuMs(): number | null {
    return this.#listCpu?.spent ?? null;
  }

  /** Requests answered; the first after `listing` is the list's (the pull's GETs go in turn). */
  step(requests = 1): void {
    const now = this.#now();
    this.#done += requests;
    if (this.#listSince !== null && this.#listAhead) {
      this.#listAhead = false;
      this.#listAnswered = now;
      this.#listLoad = this.#load(now - this.#listSince);
      const cpu = this.#listCpu;
      if (cpu && this.#cpuMs) cpu.spent = Math.max(0, this.#cpuMs() - cpu.from);
    }
    if (this.#listAhead) {
      // The pace of the requests before the list: the first answered starts the measure.
      if (this.#first === null) this.#first = [now, this.#done];
      else if (this.#done - this.#first[1] >= MEASURE_AFTER)
        this.#paceMs = (now - this.#first[0]) / (this.#done - this.#first[1]);
    }
    const ahead = this.#listAhead ? this.#fromList : 0;
    this.#total = Math.max(this.#total, this.#done + ahead);
  }

  get state(): Extract<SyncState, { kind: 'syncing' }> {
    return { kind: 'syncing', done: this.#done, total: this.#total, etaMs: this.#etaMs() };
  }

  #etaMs(): number {
    const left = this.#total - this.#done;
    // Rate 0 means unlimited: the time is then only the network's, which is not guessed.
    if (left <= 0 || this.#ratePerSecond <= 0) return 0;
    const { listMs, waitMs = 0, afterMs } = this.#pull;
    if (listMs + waitMs <= 0) return 0;
    // What is left of the pull: its work at the machine's load now, the list's wait as it is.
    const load = this.#load();
    const now = this.#now();
    const answered = this.#listAnswered;
    const since = this.#listSince;
    let pullMs: number;
    if (answered !== null) pullMs = (afterMs - this.#worked(now - answered)) * load;
    else if (since !== null) {
      // The share of the list gone by: its time so far over what it takes at the load meanwhile.
      const spent = now - since;
      const gone = spent > 0 ? spent / (waitMs + listMs * this.#load(spent)) : 0;
      pullMs = gone < 1 ? (1 - gone) * (waitMs + listMs * load) + afterMs * load : 0;
    } else pullMs = waitMs + (listMs + afterMs) * load;
    if (pullMs <= 0) return 0;
    // Never faster than the limit: answers can come in a burst.
    const slotMs = Math.max(1_000 / this.#ratePerSecond, this.#paceMs);
    const requestsMs = since === null ? (left - this.#fromList) * slotMs : 0;
    const totalMs = requestsMs + pullMs;
    if (this.#tooBusy(load) && pullMs > UNSURE_SHARE * totalMs) return 0;
    return Math.round(totalMs);
  }

  #tooBusy(load: number): boolean {
    const busy = this.#busy;
    this.#busy =
      busy === null
        ? load > KNOWN_UP_TO_LOAD
        : busy
          ? load >= KNOWN_UP_TO_LOAD - LOAD_BAND
          : load > KNOWN_UP_TO_LOAD + LOAD_BAND;
    return this.#busy;
  }

  /** The unloaded work done in the last `spentMs`, at the machine's load meanwhile. */
  #worked(spentMs: number): number {
    return spentMs > 0 ? spentMs / this.#load(spentMs) : 0;
  }
}
