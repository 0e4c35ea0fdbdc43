// Builds the parts of one open account from the core services: its ServiceClient (with the
// account's own rate limiter), its durable Outbox and its SyncEngine, and forwards outbox
// changes to the renderer. The only module that knows how the core services are constructed.
import { join } from 'node:path';
import { validateBaseUrl } from '../core/service/base-url';
import type { DurableFs } from '../core/durable-fs';
import { Outbox } from '../core/outbox/outbox';
import type { Clock, EmitEvent } from '../core/ports';
import { RateLimiter } from '../core/service/rate-limiter';
import { ServiceClient } from '../core/service/client';
import { SyncEngine } from '../core/sync/engine';
import { ReminderSchedule, type ShowNotification } from '../core/reminders/reminder-schedule';
import { AppError } from './app-error';
import type { OpenRequest } from './open-requests';
import type { AccountRuntime, RuntimeFactory } from './session-manager';

export interface RuntimeFactoryOptions {
  emit: EmitEvent;
  clock: Clock;
  fetch?: typeof globalThis.fetch;
  limiterRate?: number;
  syncPeriodMs?: number;
  fs?: DurableFs;
  /** The OS's notifications (the shell's, or the runner's): reminders are shown through it. */
  notify?: ShowNotification;
  /** A reminder's click: the page opens the customer (app/open-requests.ts). */
  openCustomer?: (request: OpenRequest) => void;
}

export function createRuntimeFactory(options: RuntimeFactoryOptions): RuntimeFactory {
  const { emit, clock } = options;
  const fs = options.fs ? { fs: options.fs } : {};
  return {
    validateBaseUrl: (input) => {
      const checked = validateBaseUrl(input);
      if (checked.ok) return checked.baseUrl;
      const { kind, ...rest } = checked.error;
      throw new AppError(kind, { ...rest, field: 'baseUrl' });
    },
    createClient: ({ baseUrl, username, password }) =>
      new ServiceClient({
        baseUrl,
        username,
        getPassword: async () => password,
        limiter: new RateLimiter({ limit: options.limiterRate ?? 3, clock }),
        clock,
        ...(options.fetch ? { fetch: options.fetch } : {}),
      }),
    openOutbox: ({ dir, accountKey }) =>
      Outbox.open({ dir: outboxDir(dir), accountKey, clock, ...fs }),
    open: async ({ dir, accountKey, client }): Promise<AccountRuntime> => {
      const outbox = await Outbox.open({ dir: outboxDir(dir), accountKey, clock, ...fs });
      const notify = options.notify;
      const reminders = notify
        ? await ReminderSchedule.open(
            {
              accountKey,
              dir,
              clock,
              notify,
              open: (customerId) => options.openCustomer?.({ accountKey, customerId }),
              ...fs,
            },
            outbox.list(),
          )
        : null;
      // A done op's acknowledged records travel with its removal: the cache swaps the overlay
      // for the service's version in one write, so no view shows the old value meanwhile.
      const unsubscribe = outbox.onChange((ops, acknowledged, reached) => {
        emit('outbox:changed', {
          accountKey,
          ops,
          ...(acknowledged ? { acknowledged } : {}),
          ...(reached.length > 0 ? { reached: [...reached] } : {}),
        });
        reminders?.setOps(ops);
      });
      const engine = new SyncEngine({
        accountKey,
        api: client,
        outbox,
        emit,
        clock,
        stateDir: join(dir, 'sync'),
        ...fs,
        ratePerSecond: options.limiterRate ?? 3,
        ...(options.syncPeriodMs !== undefined ? { periodMs: options.syncPeriodMs } : {}),
        ...(reminders ? { watcher: reminders } : {}),
      });
      return {
        client,
        outbox,
        engine,
        close: async () => {
          await engine.stop();
          unsubscribe();
          await reminders?.close();
          await outbox.close();
        },
      };
    },
  };
}

/** The outbox owns its directory (journal, snapshot, lock); the engine's files live beside it. */
function outboxDir(accountDir: string): string {
  return join(accountDir, 'outbox');
}
