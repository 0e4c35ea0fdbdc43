// What the status bar says: main's sync state read together with the outbox mirror (the same
// count the Changes view and the import chip show) and whether this machine has a network.
// Never "Synced" while a change is queued; "Offline" only when the machine is.
import { changesText, type QueueCounts, type SyncState } from '../../../src-shared';
import { formatTimestampMs } from '../ui/format';

export type Tone = 'ok' | 'warn' | 'bad' | 'busy';

export interface SyncStatusView {
  text: string;
  tone: Tone;
  /** When the engine tries again by itself (shown as "next try in …"), or null. */
  nextTryAt: number | null;
  /** The button reads "Try now" (the engine is waiting to retry) rather than "Sync now". */
  tryNow: boolean;
}

export function secondsText(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  return s < 90 ? `${s} s` : `${Math.round(s / 60)} min`;
}

function queuedText(q: QueueCounts): string {
  const parts: string[] = [];
  if (q.waiting > 0) parts.push(`${changesText(q.waiting)} waiting to be sent`);
  if (q.attention > 0) parts.push(`${changesText(q.attention)} need attention`);
  return parts.join(', ');
}

export function syncStatusView(
  sync: SyncState,
  q: QueueCounts,
  env: { online: boolean; now: number; lastSync: number | null },
): SyncStatusView {
  const kept = q.queued > 0 ? ` — ${queuedText(q)}` : ' — changes are kept and sent later';
  const waitingFor = (text: string, tone: Tone, nextTryAt: number | null): SyncStatusView => {
    const next =
      nextTryAt !== null ? ` · next try in ${secondsText(Math.max(0, nextTryAt - env.now))}` : '';
    return { text: `${text}${next}`, tone, nextTryAt, tryNow: true };
  };
  switch (sync.kind) {
    case 'signed-out':
      return {
        text:
          env.lastSync === null
            ? 'Not signed in'
            : `Last synced ${formatTimestampMs(env.lastSync)}`,
        tone: 'warn',
        nextTryAt: null,
        tryNow: false,
      };
    case 'offline':
      // Main only knows the service did not answer; the machine knows whether it has a network.
      return env.online
        ? waitingFor(`Service not reachable${kept}`, 'bad', sync.nextProbeAt)
        : waitingFor(`Offline${kept}`, 'warn', sync.nextProbeAt);
    case 'off-network':
      return waitingFor(
        `Not on the office network${q.queued > 0 ? kept : ' — changes stay queued'}`,
        'warn',
        sync.nextProbeAt,
      );
    case 'auth-required':
      return {
        text: `Sign-in needed — the service refused the password${q.queued > 0 ? kept : ''}`,
        tone: 'bad',
        nextTryAt: null,
        tryNow: false,
      };
    case 'syncing': {
      const eta = sync.etaMs > 0 ? ` · about ${secondsText(sync.etaMs)} left` : '';
      const what = q.waiting > 0 ? `Sending ${changesText(q.waiting)}` : 'Syncing';
      return { text: `${what}${eta}`, tone: 'busy', nextTryAt: null, tryNow: false };
    }
    case 'synced':
      if (q.queued > 0)
        return { text: queuedText(q), tone: 'warn', nextTryAt: null, tryNow: false };
      return {
        text: `Synced at ${formatTimestampMs(sync.at)}`,
        tone: 'ok',
        nextTryAt: null,
        tryNow: false,
      };
    case 'error':
      return waitingFor(
        `Sync error: ${sync.message}${q.queued > 0 ? kept : ''}`,
        'bad',
        sync.nextTryAt ?? null,
      );
  }
}
