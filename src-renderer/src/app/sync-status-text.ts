// What the status bar says: main's sync state read together with the outbox mirror (the same
// count the Changes view and the import chip show) and whether this machine has a network.
// Never "Synced" while a change is queued, nor while main's data is still on its way into the
// cache and the list (a large first sync names its phases with counts), nor while the laptop's
// storage refused the last of it (a full disk); "Offline" only when the machine is. Main's time
// left counts down on the page's clock and is dropped once it ran out. What the page is busy with
// (opening, reading its cache, saving main's data) never hides that the machine is offline or
// that changes wait to be sent: both are said, the rep's changes first.
import {
  changesText,
  connectionCauseText,
  queueCounts,
  timeLeftMs,
  type QueueCounts,
  type SyncState,
} from '../../../src-shared';
import { format } from '../ui/format';
import type { CacheFailure } from './data-inbox.svelte';
import type { LocalWork } from './local-work.svelte';
import { text } from './text';

export type Tone = 'ok' | 'warn' | 'bad' | 'busy';

export interface SyncStatusView {
  /**
   * The state the page reports (data-sync, what tests and the bench wait on): main's, 'saving'
   * while main's data is not yet in the list, 'not-saved' while main says synced over a cache
   * whose storage refused main's data, 'queued' while main says synced with changes still queued.
   * Main's 'syncing' stays 'syncing' until main says it is over, even where the words say the
   * machine is offline: a wait for the end of main's sync must not end before its last message.
   * While the app opens or the list reads its cache with changes queued: 'queued'; before main's
   * first word otherwise: 'opening' (neither signed in nor out yet, the queue unknown or empty).
   */
  kind: SyncState['kind'] | 'saving' | 'not-saved' | 'queued' | 'opening';
  text: string;
  tone: Tone;
  /** When the engine tries again by itself (shown as "next try in …"), or null. */
  nextTryAt: number | null;
  /** The button reads "Try now" (the engine is waiting to retry) rather than "Sync now". */
  tryNow: boolean;
  /** The progress bar of the phase shown, or null. */
  progress: { done: number; total: number } | null;
  /** The time left shown (ms; it counts down as the page's clock moves), or null: none shown. */
  timeLeftMs: number | null;
}

const capitalised = (said: string) => said.charAt(0).toUpperCase() + said.slice(1);

function queuedText(q: QueueCounts): string {
  const parts: string[] = [];
  if (q.waiting > 0) parts.push(text.syncStatus.waiting(changesText(q.waiting)));
  if (q.attention > 0) parts.push(text.syncStatus.attention(q.attention));
  return parts.join(', ');
}

/**
 * Progress moves in steps of a twentieth of the total (and at its end). Each change of the status
 * bar is a frame, and a count per 2,000-customer piece is a frame per piece over a first sync:
 * under software GL, GPU-process time on the cores the save itself needs.
 */
const PROGRESS_STEPS = 20;

/** `done` rounded down to its step of `total` (`total` itself once reached). */
export function progressStep(done: number, total: number): number {
  if (total <= 0 || done >= total) return done;
  const step = Math.ceil(total / PROGRESS_STEPS);
  return done - (done % step);
}

/** "Saving 8,000 of 20,000 on this laptop": the renderer's part of a sync. */
export function localWorkText(work: LocalWork): string {
  switch (work.phase) {
    case 'receiving':
      return text.syncStatus.receiving(work.done, work.total);
    case 'saving':
      return work.total > 0
        ? text.syncStatus.saving(work.done, work.total)
        : text.syncStatus.savingUncounted;
    case 'showing':
      return text.syncStatus.showing(work.total);
    case 'reading':
      return text.syncStatus.reading;
  }
}

/** No change queued: main's words when the page has not read its outbox mirror yet. */
const NONE: QueueCounts = queueCounts([]);

/**
 * `known`: the queue as the page knows it, or null before it has read its outbox mirror (a
 * restart's first moments): then nothing is said of changes, neither a count nor "kept".
 */
export function syncStatusView(
  sync: SyncState,
  known: QueueCounts | null,
  env: {
    online: boolean;
    now: number;
    lastSync: number | null;
    /** When the page applied `sync`, on the clock of `now` (default: now). */
    syncAt?: number;
    local?: LocalWork | null;
    /** The cache's storage refused main's last data (data-inbox.svelte.ts), or null. */
    cacheFailure?: CacheFailure | null;
    /** Main has not said yet whether an account is signed in (the app is starting). */
    opening?: boolean;
  },
): SyncStatusView {
  const local = env.local ?? null;
  const q = known ?? NONE;
  // Before main's first word a restart is not a sign-out: the saved sign-in is being opened.
  const opening = sync.kind === 'signed-out' && env.opening === true;
  const doing = local ? localWorkText(local) : opening ? text.syncStatus.opening : null;
  // The page's own work instead of main's "Synced" or "Syncing" (main's data not yet in the
  // list, the cache not read yet), and beside it what the rep must not miss.
  if (doing !== null && (sync.kind === 'synced' || sync.kind === 'syncing' || opening)) {
    // The queue not read yet: only what the machine itself knows (no network), no count.
    const standing =
      known === null
        ? env.online
          ? null
          : text.syncStatus.offline('')
        : standingText(sync, q, env.online);
    // 'saving' while main's data is on its way into the list (what a wait for it waits on);
    // while the page only opens or reads what it holds, changes queued are the truth to report,
    // and with none (or none known yet) it is opening: not signed out, not synced.
    const reading = local === null || local.phase === 'reading';
    const kind =
      sync.kind === 'syncing'
        ? 'syncing'
        : reading && q.queued > 0
          ? 'queued'
          : opening
            ? 'opening'
            : 'saving';
    return {
      kind,
      text: standing === null ? doing : `${standing}${text.syncStatus.alongside(doing)}`,
      // Changes that only wait (or a machine with no network) read as they do on their own.
      tone: !env.online || (standing !== null && sync.kind !== 'syncing') ? 'warn' : 'busy',
      nextTryAt: null,
      tryNow: false,
      progress: local && local.total > 0 ? { done: local.done, total: local.total } : null,
      timeLeftMs: null,
    };
  }
  // Main's "synced" is about the service; the cache does not hold what it sent.
  const failed = env.cacheFailure ?? null;
  if (failed && sync.kind === 'synced') {
    const next = nextTryText(failed.nextTryAt, env.now);
    return {
      kind: 'not-saved',
      text: `${text.syncStatus.notSaved(failed.failure, q.queued > 0 ? queuedText(q) : '')}${next}`,
      tone: 'bad',
      nextTryAt: failed.nextTryAt,
      tryNow: true,
      progress: null,
      timeLeftMs: null,
    };
  }
  // Without a network main's requests fail, whatever it is trying: a restart offline with changes
  // queued tries them before it learns the service cannot be reached. The machine knows it has no
  // network, so the words say offline at once (no progress, no time); the kind stays main's.
  const said: SyncState =
    !env.online && sync.kind === 'syncing' ? { kind: 'offline', nextProbeAt: null } : sync;
  const progress = said.kind === 'syncing' && said.total > 0 ? said : null;
  const left = env.online ? timeLeftMs(sync, env.syncAt ?? env.now, env.now) : null;
  const main = mainStateView(said, q, { ...env, timeLeftMs: left });
  // Main's trouble first (offline, refused), then what the list is still waiting for.
  const words =
    doing !== null && sync.kind !== 'signed-out'
      ? { ...main, text: `${main.text}${text.syncStatus.alongside(doing)}` }
      : main;
  return {
    kind: sync.kind === 'synced' && q.queued > 0 ? 'queued' : sync.kind,
    progress: progress && { done: progress.done, total: progress.total },
    timeLeftMs: left,
    // Main tries on by itself (the button stays "Sync now", disabled while it runs).
    ...(said === sync ? words : { ...words, nextTryAt: null, tryNow: false }),
  };
}

/**
 * " · next try in 4 s" while the next try is ahead; once its time came, the try is under way (an
 * offline probe can take seconds to fail): a countdown stuck at "1 s" would say otherwise.
 */
function nextTryText(nextTryAt: number | null, now: number): string {
  if (nextTryAt === null) return '';
  const left = nextTryAt - now;
  return left > 0 ? text.syncStatus.nextTry(format.wait(left / 1000)) : text.syncStatus.trying;
}

/**
 * What the rep must be told beside what the page is busy with, or null: the machine is offline
 * (changes kept), changes being sent, or changes waiting.
 */
function standingText(sync: SyncState, q: QueueCounts, online: boolean): string | null {
  if (!online)
    return text.syncStatus.offline(
      q.queued > 0 ? text.syncStatus.kept(queuedText(q)) : text.syncStatus.keptLater,
    );
  if (sync.kind === 'syncing' && q.waiting > 0)
    return `${text.syncStatus.sending(changesText(q.waiting))}${attentionText(q)}`;
  return q.queued > 0 ? queuedText(q) : null;
}

/**
 * ", 1 change needs attention" beside a sync's words: a sync (seconds at 100k) does not send
 * them, and the bar never hides a queued change.
 */
function attentionText(q: QueueCounts): string {
  return q.attention > 0 ? `, ${text.syncStatus.attention(q.attention)}` : '';
}

function mainStateView(
  sync: SyncState,
  q: QueueCounts,
  env: {
    online: boolean;
    now: number;
    lastSync: number | null;
    timeLeftMs: number | null;
  },
): Omit<SyncStatusView, 'kind' | 'progress' | 'timeLeftMs'> {
  const kept = q.queued > 0 ? text.syncStatus.kept(queuedText(q)) : text.syncStatus.keptLater;
  const waitingFor = (
    said: string,
    tone: Tone,
    nextTryAt: number | null,
  ): Omit<SyncStatusView, 'kind' | 'progress' | 'timeLeftMs'> => {
    return { text: `${said}${nextTryText(nextTryAt, env.now)}`, tone, nextTryAt, tryNow: true };
  };
  switch (sync.kind) {
    case 'signed-out':
      return {
        text:
          env.lastSync === null
            ? text.syncStatus.signedOut
            : text.syncStatus.lastSynced(env.lastSync),
        tone: 'warn',
        nextTryAt: null,
        tryNow: false,
      };
    case 'offline':
      // A proxy or a certificate in the way is named: the rep's browser may well work.
      if (sync.connection) {
        const cause = connectionCauseText(sync.connection, text.syncStatus.theService);
        return waitingFor(`${capitalised(cause)}${kept}`, 'bad', sync.nextProbeAt);
      }
      // Main only knows the service did not answer; the machine knows whether it has a network.
      return env.online
        ? waitingFor(text.syncStatus.unreachable(kept), 'bad', sync.nextProbeAt)
        : waitingFor(text.syncStatus.offline(kept), 'warn', sync.nextProbeAt);
    case 'off-network':
      return waitingFor(
        text.syncStatus.offNetwork(q.queued > 0 ? kept : text.syncStatus.stayQueued),
        'warn',
        sync.nextProbeAt,
      );
    case 'auth-required':
      return {
        text: text.syncStatus.authRequired(q.queued > 0 ? kept : ''),
        tone: 'bad',
        nextTryAt: null,
        tryNow: false,
      };
    case 'syncing': {
      const left = env.timeLeftMs;
      const eta = left !== null ? text.syncStatus.eta(format.wait(left / 1000)) : '';
      // A first sync (nothing cached yet) downloads the whole account.
      const what =
        q.waiting > 0
          ? text.syncStatus.sending(changesText(q.waiting))
          : env.lastSync === null
            ? text.syncStatus.downloading
            : text.syncStatus.syncing;
      return {
        text: `${what}${attentionText(q)}${eta}`,
        tone: 'busy',
        nextTryAt: null,
        tryNow: false,
      };
    }
    case 'synced':
      if (q.queued > 0)
        return { text: queuedText(q), tone: 'warn', nextTryAt: null, tryNow: false };
      return {
        text: text.syncStatus.syncedAt(sync.at),
        tone: 'ok',
        nextTryAt: null,
        tryNow: false,
      };
    case 'error':
      return waitingFor(
        text.syncStatus.error(sync.message, q.queued > 0 ? kept : ''),
        'bad',
        sync.nextTryAt ?? null,
      );
  }
}
