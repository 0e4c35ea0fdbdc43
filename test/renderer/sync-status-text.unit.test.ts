// The status bar's words for a large first sync: "Downloading customers…" while main pulls,
// then the renderer's phases with counts, and "Synced" only when none is left. Main's own
// trouble (offline, errors) still wins over the local phases.
import { describe, expect, it } from 'vitest';
import { queueCounts } from '../../src-shared';
import { SessionState } from '../../src-renderer/src/app/session.svelte';
import { progressStep, syncStatusView } from '../../src-renderer/src/app/sync-status-text';

const none = queueCounts([]);
const env = { online: true, now: 1_700_000_000_000, lastSync: null };

describe('status during a large first sync', () => {
  it('says it is downloading the customers while main pulls a first sync', () => {
    const view = syncStatusView({ kind: 'syncing', done: 1, total: 4, etaMs: 2_000 }, none, env);
    expect(view.text).toBe('Downloading customers… · about 2 s left');
    expect(view.progress).toEqual({ done: 1, total: 4 });
  });

  it('counts the time left down on the page’s clock from when it applied it, then drops it', () => {
    let now = env.now;
    const page = new SessionState(() => now);
    const view = (queue = none) =>
      syncStatusView(page.sync, queue, { ...env, now, syncAt: page.syncAt });
    now += 60_000;
    page.setSync({ kind: 'syncing', done: 1, total: 4, etaMs: 12_600 });
    expect(view()).toMatchObject({
      text: 'Downloading customers… · about 13 s left',
      timeLeftMs: 12_600,
    });
    now += 5_000;
    expect(view()).toMatchObject({
      text: 'Downloading customers… · about 8 s left',
      timeLeftMs: 7_600,
    });
    now += 7_599;
    expect(view().text).toBe('Downloading customers… · about 1 s left');
    // Run out while main still syncs: no time at all, not "about 1 s left".
    now += 1;
    expect(view()).toMatchObject({ text: 'Downloading customers…', timeLeftMs: null });
    now += 30_000;
    const sending = queueCounts([{ state: 'pending' }]);
    expect(view(sending)).toMatchObject({ text: 'Sending 1 change', timeLeftMs: null });
    // Main's next word starts a new countdown from when the page applied it.
    page.setSync({ kind: 'syncing', done: 2, total: 4, etaMs: 700 });
    expect(view().text).toBe('Downloading customers… · about 1 s left');
    // No estimate from main (none known): no time.
    page.setSync({ kind: 'syncing', done: 1, total: 4, etaMs: 0 });
    expect(view()).toMatchObject({ text: 'Downloading customers…', timeLeftMs: null });
  });

  it('says offline at once while main tries its queue on a machine with no network, still syncing', () => {
    const trying = { kind: 'syncing', done: 0, total: 7, etaMs: 10_000 } as const;
    const queued = queueCounts([{ state: 'pending' }, { state: 'pending' }, { state: 'pending' }]);
    expect(syncStatusView(trying, queued, env).text).toBe('Sending 3 changes · about 10 s left');
    const offline = { ...env, online: false };
    const main = syncStatusView({ kind: 'offline', nextProbeAt: null }, queued, offline);
    expect(main.text).toBe('Offline — 3 changes waiting to be sent');
    // The words are the rep's; the kind is main's, whose sync is not over until it says so.
    expect(syncStatusView(trying, queued, offline)).toEqual({
      kind: 'syncing',
      text: main.text,
      tone: main.tone,
      nextTryAt: null,
      tryNow: false,
      progress: null,
      timeLeftMs: null,
    });
  });

  it('counts down to the next try, then says it is trying, never a countdown stuck at 1 s', () => {
    const queued = queueCounts([{ state: 'pending' }, { state: 'pending' }, { state: 'pending' }]);
    const offline = { ...env, online: false };
    const probe = { kind: 'offline', nextProbeAt: env.now + 4_000 } as const;
    expect(syncStatusView(probe, queued, offline).text).toBe(
      'Offline — 3 changes waiting to be sent · next try in 4 s',
    );
    const at = (now: number) => syncStatusView(probe, queued, { ...offline, now }).text;
    expect(at(env.now + 3_600)).toBe('Offline — 3 changes waiting to be sent · next try in 1 s');
    // The probe is under way (offline it can take seconds to fail) until main's next word.
    expect(at(env.now + 4_000)).toBe('Offline — 3 changes waiting to be sent · trying again…');
    expect(at(env.now + 9_000)).toBe('Offline — 3 changes waiting to be sent · trying again…');
  });

  it('never reports synced while a change is queued, whatever the words', () => {
    const synced = { kind: 'synced', at: env.now } as const;
    const waiting = queueCounts(Array.from({ length: 309 }, () => ({ state: 'pending' }) as const));
    expect(syncStatusView(synced, waiting, env)).toMatchObject({
      kind: 'queued',
      text: '309 changes waiting to be sent',
      tone: 'warn',
    });
    const attention = queueCounts([{ state: 'needs-attention' }]);
    expect(syncStatusView(synced, attention, env).kind).toBe('queued');
    expect(syncStatusView(synced, none, env).kind).toBe('synced');
  });

  it('says the app is opening, not "Not signed in", before main has said who is signed in', () => {
    const signedOut = { kind: 'signed-out' } as const;
    const opening = syncStatusView(signedOut, none, { ...env, opening: true });
    expect(opening).toMatchObject({
      kind: 'opening',
      text: 'Opening…',
      tone: 'busy',
      tryNow: false,
    });
    // Main's word that no one is signed in.
    expect(syncStatusView(signedOut, none, env)).toMatchObject({
      kind: 'signed-out',
      text: 'Not signed in',
    });
  });

  it('before the outbox mirror is read, names no count and no "kept", and is only opening', () => {
    const signedOut = { kind: 'signed-out' } as const;
    const reading = { phase: 'reading', done: 0, total: 0 } as const;
    const unread = (online: boolean, local: typeof reading | null = null) =>
      syncStatusView(signedOut, null, { ...env, online, opening: true, local });
    expect(unread(true)).toMatchObject({ kind: 'opening', text: 'Opening…', tone: 'busy' });
    expect(unread(true, reading)).toMatchObject({
      kind: 'opening',
      text: 'Reading customers on this laptop…',
    });
    // Offline is the machine's own knowledge; whether changes wait is not known yet.
    expect(unread(false)).toMatchObject({
      kind: 'opening',
      text: 'Offline · opening…',
      tone: 'warn',
    });
    expect(unread(false, reading).text).toBe('Offline · reading customers on this laptop…');
    // Once main has spoken, an unread mirror counts as nothing queued.
    expect(syncStatusView({ kind: 'synced', at: env.now }, null, env).kind).toBe('synced');
  });

  it('counts progress in twentieths of the total, never above what is done, and ends at the total', () => {
    // 100k in pieces of 2,000: 21 distinct counts (0, 5,000 … 95,000 and the total) instead of 50,
    // each one a frame of the window.
    const counts = new Set<number>();
    for (let done = 2_000; done <= 100_000; done += 2_000) {
      const shown = progressStep(done, 100_000);
      expect(shown).toBeLessThanOrEqual(done);
      expect(done - shown).toBeLessThan(5_000);
      counts.add(shown);
    }
    expect(counts.size).toBe(21);
    expect(progressStep(100_000, 100_000)).toBe(100_000);
    expect(progressStep(99_999, 100_000)).toBe(95_000);
    // Small totals move at every customer; an unknown total shows the count as it is.
    expect([0, 1, 7, 19].map((d) => progressStep(d, 19))).toEqual([0, 1, 7, 19]);
    expect(progressStep(1_234, 0)).toBe(1_234);
  });

  it('never reads synced while main’s data is still on its way into the list', () => {
    const synced = { kind: 'synced', at: env.now } as const;
    const phases = [
      { phase: 'receiving', done: 8_000, total: 20_000 },
      { phase: 'saving', done: 10_000, total: 20_000 },
      { phase: 'showing', done: 0, total: 20_000 },
    ] as const;
    const views = phases.map((local) => syncStatusView(synced, none, { ...env, local }));
    expect(views.map((v) => v.text)).toEqual([
      'Receiving customers: 8,000 of 20,000',
      'Saving 10,000 of 20,000 on this laptop',
      'Showing 20,000 customers…',
    ]);
    for (const view of views) {
      expect(view.kind).toBe('saving');
      expect(view.tone).toBe('busy');
    }
    expect(views[1]!.progress).toEqual({ done: 10_000, total: 20_000 });
    // A save of nothing counted (a write of no customers) says so without "0 of 0".
    const uncounted = syncStatusView(synced, none, {
      ...env,
      local: { phase: 'saving', done: 0, total: 0 },
    });
    expect(uncounted.text).toBe('Saving on this laptop…');
    expect(uncounted.progress).toBeNull();
    const done = syncStatusView(synced, none, { ...env, local: null });
    expect(done.kind).toBe('synced');
    expect(done.text).toMatch(/^Synced at/);
  });

  it('keeps main’s offline message while the cache is still saving', () => {
    const view = syncStatusView({ kind: 'offline', nextProbeAt: null }, none, {
      ...env,
      online: false,
      local: { phase: 'saving', done: 0, total: 20_000 },
    });
    expect(view.kind).toBe('offline');
    expect(view.text).toMatch(/^Offline/);
  });
});

describe('status while the page opens or reads its cache after a restart', () => {
  const queued = queueCounts([{ state: 'pending' }, { state: 'pending' }, { state: 'pending' }]);
  const reading = { phase: 'reading', done: 0, total: 0 } as const;
  const offline = { ...env, online: false };
  const trying = { kind: 'syncing', done: 0, total: 7, etaMs: 10_000 } as const;
  const synced = { kind: 'synced', at: env.now } as const;
  const unreachable = { kind: 'offline', nextProbeAt: null } as const;

  it('offline, says so and names the changes waiting beside the reading, never "synced"', () => {
    const said = 'Offline — 3 changes waiting to be sent · reading customers on this laptop…';
    for (const sync of [trying, synced, unreachable]) {
      const view = syncStatusView(sync, queued, { ...offline, local: reading });
      expect(view.text).toBe(said);
      expect(view.tone).toBe('warn');
      expect(view.kind).toBe(sync === synced ? 'queued' : sync.kind);
    }
    // Before main's first word: the page knows its outbox mirror and that it has no network.
    const opening = { ...offline, opening: true };
    expect(syncStatusView({ kind: 'signed-out' }, queued, opening)).toMatchObject({
      kind: 'queued',
      text: 'Offline — 3 changes waiting to be sent · opening…',
    });
    expect(syncStatusView({ kind: 'signed-out' }, none, opening)).toMatchObject({
      kind: 'opening',
      text: 'Offline — changes are kept and sent later · opening…',
    });
  });

  it('online, names the changes being sent or waiting beside the reading', () => {
    const sending = syncStatusView(trying, queued, { ...env, local: reading });
    expect(sending).toMatchObject({
      kind: 'syncing',
      text: 'Sending 3 changes · reading customers on this laptop…',
      tone: 'busy',
    });
    expect(syncStatusView(synced, queued, { ...env, local: reading })).toMatchObject({
      kind: 'queued',
      text: '3 changes waiting to be sent · reading customers on this laptop…',
      tone: 'warn',
    });
    expect(syncStatusView({ kind: 'signed-out' }, queued, { ...env, opening: true })).toMatchObject(
      {
        kind: 'queued',
        text: '3 changes waiting to be sent · opening…',
      },
    );
    // Nothing queued: the reading alone, still not "synced".
    expect(syncStatusView(synced, none, { ...env, local: reading })).toMatchObject({
      kind: 'saving',
      text: 'Reading customers on this laptop…',
    });
  });

  it('names changes that need attention while main syncs (it does not send them)', () => {
    const attention = queueCounts([{ state: 'needs-attention' }]);
    expect(syncStatusView(trying, attention, { ...env, lastSync: env.now }).text).toBe(
      'Syncing, 1 change needs attention · about 10 s left',
    );
    const both = queueCounts([{ state: 'pending' }, { state: 'needs-attention' }]);
    expect(syncStatusView(trying, both, env).text).toBe(
      'Sending 1 change, 1 change needs attention · about 10 s left',
    );
    expect(syncStatusView(trying, both, { ...env, local: reading }).text).toBe(
      'Sending 1 change, 1 change needs attention · reading customers on this laptop…',
    );
  });

  it('never hides queued changes behind main’s data on its way into the list', () => {
    const saving = { phase: 'saving', done: 10_000, total: 20_000 } as const;
    const view = syncStatusView(synced, queued, { ...env, local: saving });
    expect(view).toMatchObject({
      kind: 'saving',
      text: '3 changes waiting to be sent · saving 10,000 of 20,000 on this laptop',
      progress: { done: 10_000, total: 20_000 },
    });
  });
});

describe('status when the network in the way can be named', () => {
  it('names the proxy, or the certificate and its issuer, instead of "Service not reachable"', () => {
    const proxy = syncStatusView(
      {
        kind: 'offline',
        nextProbeAt: null,
        connection: { kind: 'proxy', proxy: 'proxy.corp:3128', status: 403 },
      },
      none,
      env,
    );
    expect(proxy.text).toBe(
      'The proxy proxy.corp:3128 refused the connection to the service (403) — changes are kept and sent later',
    );
    const certificate = syncStatusView(
      {
        kind: 'offline',
        nextProbeAt: null,
        connection: { kind: 'certificate', issuer: 'Corp Inspection CA' },
      },
      none,
      env,
    );
    expect(certificate.text).toMatch(
      /^The certificate of the service, issued by "Corp Inspection CA", is not trusted on this computer/,
    );
    expect(certificate.tone).toBe('bad');
  });

  it('a 403 from the service names the allow-list', () => {
    const view = syncStatusView({ kind: 'off-network', nextProbeAt: null }, none, env);
    expect(view.text).toContain("this network is not on the account's allow-list");
  });
});

describe('status when the laptop could not save the account', () => {
  const synced = { kind: 'synced', at: env.now } as const;
  const full = { failure: 'quota', nextTryAt: env.now + 30_000 } as const;

  it('says so instead of "Synced": not saved, no change lost, what to do, and the next try', () => {
    const view = syncStatusView(synced, none, { ...env, cacheFailure: full });
    expect(view).toMatchObject({ kind: 'not-saved', tone: 'bad', tryNow: true, progress: null });
    expect(view.text).toBe(
      'Customers not saved on this laptop: the disk is full. No change is lost — free some disk space · next try in 30 s',
    );
    expect(view.nextTryAt).toBe(full.nextTryAt);
    // Queued changes are named as kept; another failure of the storage says so.
    const queued = queueCounts([{ state: 'pending' }]);
    const damaged = syncStatusView(synced, queued, {
      ...env,
      cacheFailure: { failure: 'storage', nextTryAt: null },
    });
    expect(damaged.text).toBe(
      'Customers not saved on this laptop: its storage failed. No change is lost (1 change waiting to be sent) — free some disk space or restart Fieldmap',
    );
  });

  it('shows a new try’s progress, and main’s own trouble, as they are', () => {
    const saving = syncStatusView(synced, none, {
      ...env,
      cacheFailure: full,
      local: { phase: 'saving', done: 0, total: 40 },
    });
    expect(saving.kind).toBe('saving');
    const offline = syncStatusView({ kind: 'offline', nextProbeAt: null }, none, {
      ...env,
      online: false,
      cacheFailure: full,
    });
    expect(offline.text).toMatch(/^Offline/);
  });
});
