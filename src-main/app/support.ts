// What main tells support: its events observed into the log (session changes, sync states,
// failed requests), the page's errors through a rate limit, and the About box's facts. Only
// typed fields reach the log (core/log/events.ts); the account is named by its folder's hash.
import { basename } from 'node:path';
import { isTaxonomyError } from '../../src-shared/errors';
import type { InvokeChannel } from '../../src-shared/ipc-contract';
import { queueCounts } from '../../src-shared/sync-state';
import type { RendererErrorReport } from '../../src-shared/support';
import type { AppLogPort } from '../core/log/app-log';
import type { Clock, EmitEvent } from '../core/ports';
import type { IpcHandlers } from '../ipc/handle';
import { accountDirOf } from './accounts-index';
import type { SessionManager } from './session-manager';

/** `emit`, also telling the log of session changes and of each new sync state. */
export function loggedEmit(emit: EmitEvent, log: AppLogPort, dataDir: string): EmitEvent {
  let lastSync: string | null = null;
  const logged = ((event, payload) => {
    if (event === 'session:changed') {
      const account = payload as { accountKey: string; demo: boolean } | null;
      log.record('session.changed', {
        account: account ? basename(accountDirOf(dataDir, account.accountKey)) : null,
        demo: account?.demo ?? false,
      });
      lastSync = null;
    } else if (event === 'sync:state') {
      // A sync's progress ticks are one state to the log.
      const kind = (payload as { kind: string }).kind;
      if (kind !== lastSync) log.record('sync.state', { state: kind as never });
      lastSync = kind;
    }
    emit(event, payload);
  }) as EmitEvent;
  if (emit.openSnapshotStream) logged.openSnapshotStream = emit.openSnapshotStream;
  if (emit.openRoad) logged.openRoad = emit.openRoad;
  return logged;
}

/** The handler table, also telling the log which request failed and how (its kind only). */
export function loggedHandlers(handlers: IpcHandlers, log: AppLogPort): IpcHandlers {
  const wrapped: Record<string, (request: never) => Promise<unknown>> = {};
  for (const [channel, handler] of Object.entries(handlers)) {
    wrapped[channel] = async (request: never) => {
      try {
        return await (handler as (r: never) => Promise<unknown>)(request);
      } catch (error) {
        log.record('ipc.failed', {
          channel: channel as InvokeChannel,
          kind: isTaxonomyError(error) ? error.kind : 'Internal',
        });
        throw error;
      }
    };
  }
  return wrapped as unknown as IpcHandlers;
}

export const RENDERER_ERRORS_PER_MINUTE = 20;

/**
 * The page's error reports into the log, at most `perMinute` a minute: a page that throws in a
 * loop costs a line a minute saying how many were refused, not the log's whole budget.
 */
export function rendererErrorLog(
  log: AppLogPort,
  clock: Pick<Clock, 'now'>,
  perMinute = RENDERER_ERRORS_PER_MINUTE,
): (report: RendererErrorReport) => boolean {
  let windowStart = Number.NEGATIVE_INFINITY;
  let written = 0;
  let refused = 0;
  return (report) => {
    const now = clock.now();
    if (now - windowStart >= 60_000) {
      if (refused > 0) log.record('renderer.errorsDropped', { count: refused });
      windowStart = now;
      written = 0;
      refused = 0;
    }
    if (written >= perMinute) {
      refused += 1;
      return false;
    }
    written += 1;
    log.record('renderer.error', report);
    return true;
  };
}

/** The About box's facts about the account: who, where, and how many changes wait. */
export interface AccountAbout {
  account: { username: string; host: string; demo: boolean } | null;
  queued: number;
}

export function accountAbout(sessions: SessionManager): AccountAbout {
  const session = sessions.session;
  if (!session) return { account: null, queued: 0 };
  const { username, baseUrl, demo } = session.account;
  let host = baseUrl;
  try {
    host = new URL(baseUrl).host;
  } catch {
    // A stored base URL always parses; the raw value is the fallback all the same.
  }
  return {
    account: { username, host, demo },
    queued: queueCounts(session.runtime.outbox.list()).queued,
  };
}
