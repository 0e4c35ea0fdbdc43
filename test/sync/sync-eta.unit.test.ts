// "Time left" in the status bar during a sync whose customers list is slow (a 100k account's is
// one request of many seconds): main's estimate counts the list's time as last measured, and
// what it still has while on its way (sync/progress.ts); the page counts that down on its clock
// and shows no time once it ran out (app/sync-status-text.ts). The engine's test runs against
// the reference service with the list held at its gate while the test's clock moves.
import { afterEach, describe, expect, it } from 'vitest';
import { LoadGauge, type MachineLoad } from '../../src-main/core/sync/machine-load';
import { SyncProgress } from '../../src-main/core/sync/progress';
import { pullAll } from '../../src-main/core/sync/pull';
import type { SnapshotStream } from '../../src-shared/data-pieces';
import { SessionState } from '../../src-renderer/src/app/session.svelte';
import { syncStatusView } from '../../src-renderer/src/app/sync-status-text';
import { queueCounts } from '../../src-shared/sync-state';
import { FakeClock } from '../support/clock';
import { Harness } from '../support/main';

describe('SyncProgress: the time left', () => {
  it("counts the pull's known time, and while it is on its way what it still has of it", () => {
    let now = 50_000;
    // A pull at 3 requests/s whose list took 9 s last time and the rest after it 1 s.
    const p = new SyncProgress(4, 3, {
      pull: { listMs: 9_000, afterMs: 1_000 },
      now: () => now,
      fromList: 3,
    });
    // The user's slot of 333 ms, then the pull from its list on.
    expect(p.state).toEqual({ kind: 'syncing', done: 0, total: 4, etaMs: 10_333 });
    p.step(); // the user
    expect(p.state.etaMs).toBe(10_000);
    p.listing();
    now += 4_000;
    expect(p.state.etaMs).toBe(6_000);
    now += 4_999;
    expect(p.state.etaMs).toBe(1_001);
    // Slower than last time: how much longer is not known, so no time rather than a wrong one.
    now += 1;
    expect(p.state.etaMs).toBe(0);
    now += 10_000;
    expect(p.state.etaMs).toBe(0);
    p.step(); // the list came: what comes after it, from now
    expect(p.state).toEqual({ kind: 'syncing', done: 2, total: 4, etaMs: 1_000 });
    now += 600;
    expect(p.state.etaMs).toBe(400);
    p.step(2);
    expect(p.state).toMatchObject({ done: 4, total: 4, etaMs: 0 });
  });

  it('paces the requests before the list as they really go, never faster than the limit', () => {
    let now = 0;
    // Sixteen changes and the user before the list, at 3 a second: 333 ms a slot at most.
    const p = new SyncProgress(20, 3, {
      pull: { listMs: 3_000, afterMs: 0 },
      now: () => now,
      fromList: 3,
    });
    // The first answers come in a burst: the limit's slot still counts.
    p.step(6);
    p.step();
    expect(p.state.etaMs).toBe(Math.round(10 * (1_000 / 3) + 3_000));
    // Then each takes 2 s (a loaded service): from the first answered on, the pace measured.
    for (let i = 0; i < 5; i++) {
      now += 2_000;
      p.step();
    }
    expect(p.state).toMatchObject({ done: 12, total: 20 });
    expect(p.state.etaMs).toBe(Math.round(5 * (10_000 / 6) + 3_000));
  });

  it('keeps the list and the pull after it ahead when the push takes more requests than planned', () => {
    // Planned: 2 changes (and a read for them) and the pull's 4; the push took 6.
    const p = new SyncProgress(7, 3, {
      pull: { listMs: 9_000, afterMs: 500 },
      now: () => 0,
      fromList: 3,
    });
    p.step(6);
    expect(p.state).toEqual({ kind: 'syncing', done: 6, total: 9, etaMs: 9_500 });
    p.step(); // the user
    p.listing();
    p.step(); // the list, at once this time: what comes after it is left
    expect(p.state).toEqual({ kind: 'syncing', done: 8, total: 10, etaMs: 500 });
  });

  it('says no time for a pull on a machine busier than twice its cores, unless a small part', () => {
    let now = 0;
    // 150 changes, the user and the pull at 3 a second; the list last took 2.4 s unloaded, and
    // the machine has five times its cores' threads: 12 s, a time not known to a fifth.
    const pull = { listMs: 2_400, afterMs: 0 };
    const p = new SyncProgress(155, 3, { pull, load: () => 5, now: () => now, fromList: 3 });
    // 152 slots of 333 ms and the pull's 12 s: the pull is under a fifth of it.
    expect(p.state.etaMs).toBe(Math.round(152 * (1_000 / 3) + 12_000));
    // 120 answered at the limit's pace: 32 slots and the pull, now more than a fifth of it.
    for (let i = 0; i < 120; i++) {
      now += 333;
      p.step();
    }
    expect(p.state.etaMs).toBe(0);
    // With twice the cores' threads, it is said.
    const q = new SyncProgress(5, 3, { pull, load: () => 2, now: () => now, fromList: 3 });
    expect(q.state.etaMs).toBe(Math.round(2 * (1_000 / 3) + 4_800));
  });

  it('keeps saying or not saying the time while the load hovers at the line', () => {
    const now = 0;
    const pull = { listMs: 2_400, afterMs: 0 };
    // 3 requests before a pull of 2.4 s unloaded: the pull is most of the time left.
    const left = (loads: number[]) => {
      let at = 0;
      const p = new SyncProgress(5, 3, {
        pull,
        load: () => loads[at]!,
        now: () => now,
        fromList: 3,
      });
      return loads.map((_, i) => ((at = i), p.state.etaMs));
    };
    // Judged busy at 2.2: no time at 1.8 or 2.4 either, until the load falls under 1.5.
    const busy = left([2.2, 1.8, 2.4, 1.8, 1.4, 1.8]);
    expect(busy.map((ms) => ms > 0)).toEqual([false, false, false, false, true, true]);
    // Judged quiet at 1.8: the time stays at 2.2 and 2.4, and goes above 2.5.
    const quiet = left([1.8, 2.2, 2.4, 2.2, 2.6, 2.2]);
    expect(quiet.map((ms) => ms > 0)).toEqual([true, true, true, true, false, false]);
  });

  it("gives no time while the pull's time is not known, nor with no rate limit", () => {
    const unknown = new SyncProgress(4, 3, { now: () => 0 });
    expect(unknown.state.etaMs).toBe(0);
    unknown.step();
    unknown.listing();
    expect(unknown.state.etaMs).toBe(0);
    unknown.step();
    expect(unknown.state.etaMs).toBe(0);
    const unlimited = new SyncProgress(4, 0, { pull: { listMs: 9_000, afterMs: 0 }, now: () => 0 });
    expect(unlimited.state.etaMs).toBe(0);
  });
});

let h: Harness | undefined;
/** Gates a failed test left holding: released first, or the engine's stop waits on them. */
const gates: Array<{ release(): void }> = [];
afterEach(async () => {
  for (const gate of gates.splice(0)) gate.release();
  await h?.dispose();
  h = undefined;
});

/** Holds the next customers list at the service's gate. */
function holdList(harness: Harness) {
  const gate = harness.service.hold('GET', /^\/api\/v1\/customers$/);
  gates.push(gate);
  return gate;
}

/** An engine on `clock` at 3 req/s whose first sync's list took 12 s on that clock. */
async function syncedWithListOf12s(clock: FakeClock, load?: MachineLoad): Promise<Harness> {
  // Set before the sync, so afterEach disposes of it whatever fails.
  const harness = (h = await Harness.start({
    customers: 40,
    engine: { clock, ratePerSecond: 3, ...(load && { load }) },
  }));
  const first = holdList(harness);
  const firstSync = harness.engine.syncNow();
  await first.arrived;
  await clock.advance(12_000);
  first.release();
  expect((await firstSync).kind).toBe('synced');
  return harness;
}

describe('time left while the customers list is on its way', () => {
  it('never shows a time left that is already past, and counts the list it waits for', async () => {
    const clock = new FakeClock();
    // The first pull's list takes 12 s on the engine's clock; the prints keep that time.
    h = await syncedWithListOf12s(clock);
    // A restart: the next sync knows the list's time from the saved prints alone.
    await h.close();
    await h.open();
    const harness = h;

    // The page: applies each state main sends as it comes, on the same clock.
    const page = new SessionState(() => clock.now());
    let applied = 0;
    const apply = () => {
      const states = harness.of('sync:state');
      for (const state of states.slice(applied)) page.setSync(state);
      applied = states.length;
    };
    const shown = () => {
      apply();
      return syncStatusView(page.sync, queueCounts([]), {
        online: true,
        now: clock.now(),
        syncAt: page.syncAt,
        lastSync: 1,
      }).text;
    };
    const advance = async (ms: number) => {
      apply();
      await clock.advance(ms);
    };

    const list = holdList(h);
    const sync = h.engine.syncNow();
    await list.arrived;
    const start = clock.now();
    // The list's 12 s (the two requests after it go at once): not "about 1 s left".
    expect(shown()).toBe('Syncing · about 12 s left');
    // The list is held for longer than last time. Each second, the time shown is what is left
    // of main's estimate as the page applied it, and none once that is past.
    for (let t = 0; t <= 16_000; t += 1_000) {
      const said = /about (\d+) s left/.exec(shown());
      const state = page.sync;
      const end = page.syncAt + (state.kind === 'syncing' ? state.etaMs : 0);
      if (end <= clock.now()) expect(said).toBeNull();
      else expect(Number(said?.[1]) * 1_000).toBeLessThanOrEqual(end - clock.now() + 500);
      // Counted down on the page between main's words.
      if (t === 5_000) expect(said?.[1]).toBe('7');
      await advance(1_000);
    }
    expect(clock.now() - start).toBe(17_000);
    expect(shown()).toBe('Syncing');
    // A page that opens its road now gets main's state as of now: no time either.
    expect(h.engine.state).toMatchObject({ kind: 'syncing', etaMs: 0 });
    list.release();
    expect((await sync).kind).toBe('synced');
    expect(shown()).toMatch(/^Synced at/);
  });

  it("gives a page that opens mid-list what is left of the list's time", async () => {
    const clock = new FakeClock();
    h = await syncedWithListOf12s(clock);
    // Measured in this session: the next sync expects it.
    const list = holdList(h);
    const sync = h.engine.syncNow();
    await list.arrived;
    expect(h.engine.state).toMatchObject({ kind: 'syncing', done: 1, etaMs: 12_000 });
    await clock.advance(5_000);
    expect(h.engine.state).toMatchObject({ kind: 'syncing', done: 1, etaMs: 7_000 });
    list.release();
    await sync;
  });
});

describe("the time left of a bulk's sync, to its end", () => {
  it("counts the pull after the changes at the machine's load now, not the first sync's", async () => {
    const clock = new FakeClock();
    let load = 6;
    const harness = (h = await Harness.start({
      customers: 40,
      engine: { clock, ratePerSecond: 3, load: () => load },
    }));
    // The first sync's list took 18 s while the machine was busy (a first sync loads both cores).
    const first = holdList(harness);
    const firstSync = harness.engine.syncNow();
    await first.arrived;
    await clock.advance(18_000);
    first.release();
    expect((await firstSync).kind).toBe('synced');

    // A bulk colour change of 10 customers, on a machine a third as busy: its final pull's list
    // takes a third of that time.
    load = 2;
    await queueColours(harness, 10);
    harness.events = [];
    const bar = barOf(harness, clock);
    const list = holdList(harness);
    const sync = harness.engine.syncNow();
    await list.arrived;
    const end = clock.now() + 6_000;
    // Every reading while the list is on its way is within 20 % of the time really left (not
    // the 18 s the first sync's list took).
    await readEachSecond(clock, bar, end, end - 1_000);
    await clock.advance(end - clock.now());
    list.release();
    expect((await sync).kind).toBe('synced');
  });
});

describe("a list's wait on the service, apart from main's own work", () => {
  /**
   * A first sync's list answered after `firstMs` at `firstLoad`, main's CPU time in it
   * `cpuMs`; then a bulk's final pull at `nextLoad`, whose list the bar must say `nextMs` for.
   */
  async function pulls(
    first: [number, number, number],
    next: [number, number],
    restart = false,
  ): Promise<void> {
    const [firstLoad, firstMs, cpuMs] = first;
    const [nextLoad, nextMs] = next;
    const clock = new FakeClock();
    let load = firstLoad;
    let cpu = 0;
    const harness = (h = await Harness.start({
      customers: 40,
      engine: { clock, ratePerSecond: 3, load: () => load, cpuMs: () => cpu },
    }));
    const firstList = holdList(harness);
    const firstSync = harness.engine.syncNow();
    await firstList.arrived;
    await clock.advance(firstMs);
    cpu += cpuMs;
    firstList.release();
    expect((await firstSync).kind).toBe('synced');
    // The times are kept with the pull's prints: a restart reads them back.
    if (restart) {
      await harness.close();
      await harness.open();
    }

    load = nextLoad;
    await queueColours(harness, 10);
    const bar = barOf(harness, clock);
    const list = holdList(harness);
    const sync = harness.engine.syncNow();
    await list.arrived;
    const end = clock.now() + nextMs;
    await readEachSecond(clock, bar, end, end - 1_000);
    await clock.advance(end - clock.now());
    list.release();
    expect((await sync).kind).toBe('synced');
  }

  it('keeps the wait as it was when the machine is quieter than during the first list', async () => {
    // 18 s at six times the cores' threads, main's work 1 s of CPU (6 s at that load): 12 s
    // were the service's. At load 2 the list takes 12 + 2 s, not a third of 18.
    await pulls([6, 18_000, 1_000], [2, 14_000]);
  });

  it('keeps the wait and the work apart across a restart', async () => {
    await pulls([6, 18_000, 1_000], [2, 14_000], true);
  });

  it('does not stretch the wait when the machine is busier than during the first list', async () => {
    // 12 s on a quiet machine, 3 s of it main's work: twice as busy, 9 + 6 s, not 24.
    await pulls([1, 12_000, 3_000], [2, 15_000]);
  });
});

/**
 * A machine of two cores on the test's clock: `running` threads (the test sets it), the kernel's
 * 1-minute load average of them (brought up to date each 5 s, as Linux does) and the gauge the
 * engine reads, reading the run queue each 500 ms of that clock.
 */
function machineOn(clock: FakeClock) {
  const m = { running: 2, lastMinute: 2 };
  const every = (ms: number, read: () => void) =>
    void (async () => {
      for (;;) {
        await clock.sleep(ms);
        read();
      }
    })();
  const decay = Math.exp(-5 / 60);
  every(5_000, () => (m.lastMinute = m.lastMinute * decay + m.running * (1 - decay)));
  const gauge = new LoadGauge({
    running: () => m.running,
    lastMinute: () => m.lastMinute,
    cores: 2,
    now: () => clock.now(),
    every,
  });
  const load: MachineLoad = (overMs) => gauge.factor(overMs);
  // Reading from now on, as the engine's start has it do.
  load();
  return { m, load };
}

/** The status bar's time left (ms) on a page that applies main's states on `clock`. */
function barOf(harness: Harness, clock: FakeClock): () => number | null {
  const page = new SessionState(() => clock.now());
  let applied = harness.of('sync:state').length;
  return () => {
    const states = harness.of('sync:state');
    for (const state of states.slice(applied)) page.setSync(state);
    applied = states.length;
    const text = syncStatusView(page.sync, queueCounts([]), {
      online: true,
      now: clock.now(),
      syncAt: page.syncAt,
      lastSync: 1,
    }).text;
    const said = /about (\d+) s left/.exec(text);
    return said ? Number(said[1]) * 1_000 : null;
  };
}

/** Queues a colour change of `n` customers, as a bulk does. */
async function queueColours(harness: Harness, n: number): Promise<void> {
  for (const c of harness.serverCustomers().slice(0, n))
    await harness.outbox.enqueue({
      kind: 'updateCustomer',
      target: c.id,
      payload: { color: '#ff0000' },
      base: harness.base(c.id),
    });
}

/** Each second until `until`, the bar says a time within 20 % of what is left to `end`. */
async function readEachSecond(
  clock: FakeClock,
  bar: () => number | null,
  end: number,
  until = end,
): Promise<void> {
  while (until - clock.now() >= 1_000) {
    const left = bar();
    const really = end - clock.now();
    expect(left, `${really} ms before the end`).not.toBeNull();
    expect(Math.abs(left! - really), `said ${left} ms, ${really} ms left`).toBeLessThanOrEqual(
      0.2 * really,
    );
    await clock.advance(1_000);
  }
}

/**
 * `changes` colour changes queued and synced, the pull's list answered `listMs` after it is asked
 * for: each second of it the bar says a time within 20 % of what is left; the sync ends synced.
 */
async function listTaking(
  harness: Harness,
  clock: FakeClock,
  changes: number,
  listMs: number,
): Promise<void> {
  await queueColours(harness, changes);
  const bar = barOf(harness, clock);
  const list = holdList(harness);
  const sync = harness.engine.syncNow();
  await list.arrived;
  const end = clock.now() + listMs;
  await readEachSecond(clock, bar, end);
  await clock.advance(end - clock.now());
  list.release();
  expect((await sync).kind).toBe('synced');
}

describe("the machine's load: as it is now, and as it was while the pull ran", () => {
  it('counts a reconnect after a busy minute at the load of its last seconds', async () => {
    const clock = new FakeClock();
    const machine = machineOn(clock);
    h = await syncedWithListOf12s(clock, machine.load);
    // A restart whose cold start kept the machine busy for 40 s, then 6 s of quiet: the
    // minute's average still counts most of the busy part.
    await h.close();
    machine.m.running = 12;
    await clock.advance(40_000);
    machine.m.running = 2;
    await clock.advance(6_000);
    await h.open();
    // The list takes what it took before, on a machine as quiet: not "about 38 s left".
    await listTaking(h, clock, 3, 12_000);
  });

  it("counts a bulk's final pull at a load that rose in its last seconds", async () => {
    const clock = new FakeClock();
    const machine = machineOn(clock);
    h = await syncedWithListOf12s(clock, machine.load);
    const harness = h;
    await clock.advance(60_000);
    // Other work keeps both cores busy twice over from 8 s before the final pull: its list takes
    // twice as long as on the quiet machine it was measured on.
    machine.m.running = 4;
    await clock.advance(8_000);
    await listTaking(harness, clock, 10, 24_000);
  });

  it('tells the page anew when the load moves while the list is on its way', async () => {
    const clock = new FakeClock();
    const machine = machineOn(clock);
    h = await syncedWithListOf12s(clock, machine.load);
    const harness = h;
    await clock.advance(60_000);
    await queueColours(harness, 3);
    const bar = barOf(harness, clock);
    const list = holdList(harness);
    const sync = harness.engine.syncNow();
    await list.arrived;
    // 4 s of the list's 12 on the quiet machine it was measured on, then twice as busy: its
    // other 8 s of work take 16 s.
    const end = clock.now() + 4_000 + 16_000;
    // The page applies main's states as they come.
    const applying = async (ms: number) => {
      for (let t = 0; t < ms; t += 1_000) {
        bar();
        await clock.advance(1_000);
      }
    };
    await applying(4_000);
    machine.m.running = 4;
    // Once the last seconds' readings say so, main tells the page, and every reading is true.
    await applying(6_000);
    await readEachSecond(clock, bar, end);
    await clock.advance(end - clock.now());
    list.release();
    expect((await sync).kind).toBe('synced');
  });

  it('keeps a pull as the load it ran under made it, not the load at its end', async () => {
    const clock = new FakeClock();
    const machine = machineOn(clock);
    const harness = (h = await Harness.start({
      customers: 40,
      engine: { clock, ratePerSecond: 3, load: machine.load },
    }));
    const routes = () => {
      const gate = harness.service.hold('GET', /^\/api\/v1\/routes$/);
      gates.push(gate);
      return gate;
    };
    // The first list takes 18 s with six times the cores' threads (a first sync's save beside
    // it), the routes after it 6 s on a machine gone quiet.
    machine.m.running = 12;
    const firstList = holdList(harness);
    const firstRoutes = routes();
    const first = harness.engine.syncNow();
    await firstList.arrived;
    await clock.advance(18_000);
    firstList.release();
    await firstRoutes.arrived;
    machine.m.running = 2;
    await clock.advance(6_000);
    firstRoutes.release();
    expect((await first).kind).toBe('synced');

    // On the quiet machine the list takes 3 s, the routes 6 s: not the 18 s of the first list.
    await clock.advance(30_000);
    await queueColours(harness, 3);
    const bar = barOf(harness, clock);
    const list = holdList(harness);
    const nextRoutes = routes();
    const sync = harness.engine.syncNow();
    await list.arrived;
    const end = clock.now() + 9_000;
    await readEachSecond(clock, bar, end, end - 6_000);
    await clock.advance(end - 6_000 - clock.now());
    list.release();
    await nextRoutes.arrived;
    await readEachSecond(clock, bar, end);
    await clock.advance(end - clock.now());
    nextRoutes.release();
    expect((await sync).kind).toBe('synced');
  });
});

describe("a first pull's time, as a later pull's estimate", () => {
  it("leaves out the stream's hand-off to the page, which a later pull does not do", async () => {
    h = await Harness.start({ customers: 5_000 });
    // The pull's clock moves only while the page is handed a slice (a second each): a slow
    // page's side, not the list's.
    let now = 0;
    const sink: SnapshotStream = {
      add: () => void (now += 1_000),
      end: () => undefined,
      abort: () => undefined,
      room: () => Promise.resolve(),
    };
    const progress = { step: () => undefined, listing: () => undefined };
    const pulled = await pullAll(
      h.client,
      'user',
      progress,
      { now: () => now },
      {
        open: () => sink,
        accountKey: h.accountKey,
        pulledAt: 1,
      },
    );
    expect(pulled.streamed).toBe(true);
    expect(now).toBeGreaterThan(0);
    expect(pulled.parseMs).toBe(0);
  });
});
