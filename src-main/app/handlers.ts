// The handler of every invoke channel. The router (src-main/ipc/handle.ts) has already checked
// the sender and validated the request against the contract before a handler runs.
import type { Op } from '../../src-shared/outbox-types';
import type { RendererErrorReport } from '../../src-shared/support';
import type { IpcHandlers } from '../ipc/handle';
import { createOpenExternalHandler } from './open-external';
import { AppError } from './app-error';
import { createBasemapHandlers, type BasemapHandlerDeps } from './basemap-handlers';
import type { ImportJobs } from './import-jobs';
import type { OpenRequests } from './open-requests';
import { readSpreadsheet, type SpreadsheetReader } from './spreadsheet-import';
import type { CurrentSession, SessionManager } from './session-manager';

export type AppHandlers = IpcHandlers;

export interface HandlerDeps {
  sessions: SessionManager;
  /** Opens an https URL in the user's browser (the shell's shell.openExternal). */
  openExternal?: (url: string) => Promise<void>;
  /** CSV imports queued in main (import-jobs.ts). */
  imports?: ImportJobs;
  /** Offline regions and basemap settings (basemap-handlers.ts). */
  basemap: BasemapHandlerDeps;
  /** The page's error reports into main's log (support.ts rendererErrorLog). */
  reportError?: (report: RendererErrorReport) => boolean;
  /** Which worker reads a spreadsheet, and its limits (spreadsheet-import.ts). */
  spreadsheets?: SpreadsheetReader;
  /** Customers asked to open from outside the page (open-requests.ts). */
  opens?: OpenRequests;
  /** Opens a new road to the cache worker, started with main's state (main-services.ts). */
  openRoad?: (holding: { accountKey: string | null; newerThan: number | null }) => boolean;
}

export function createHandlers({
  sessions,
  openExternal,
  imports,
  basemap,
  reportError,
  spreadsheets,
  opens,
  openRoad,
}: HandlerDeps): AppHandlers {
  const needImports = (): ImportJobs => {
    if (!imports) throw new AppError('Internal', { detail: 'imports are not available' });
    return imports;
  };

  const need = (): CurrentSession => {
    const session = sessions.session;
    if (!session) throw new AppError('NotSignedIn');
    return session;
  };

  return {
    'accounts:list': async () => sessions.listAccounts(),
    'session:current': async () => sessions.currentAccount(),
    'session:login': async ({ baseUrl, username, password }) =>
      sessions.login(baseUrl, username, password),
    'session:demo': async () => sessions.startDemo(),
    'session:switch': async ({ accountKey }) => sessions.switchAccount(accountKey),
    'session:logout': async ({ accountKey, dropUnsynced }) =>
      sessions.logout(accountKey, dropUnsynced),

    'customer:take-open': async () => opens?.take() ?? null,

    'sync:now': async () => sessions.session?.runtime.engine.syncNow() ?? { kind: 'signed-out' },
    'sync:state': async () => sessions.session?.runtime.engine.state ?? { kind: 'signed-out' },
    'data:open': async (request) => openRoad?.(request) ?? false,

    'outbox:enqueue': async (op) => {
      const session = need();
      const queued = await session.runtime.outbox.enqueue(op);
      // The outbox is per account; an op stamped for another account would be pushed with the wrong credentials.
      if (queued.accountKey !== session.account.accountKey) {
        throw new AppError('Internal', { detail: 'outbox answered for another account' });
      }
      session.runtime.engine.nudge('change');
      return queued;
    },
    'outbox:enqueueMany': async (ops) => {
      const session = need();
      const queued = await session.runtime.outbox.enqueueMany(ops);
      if (queued.some((op) => op.accountKey !== session.account.accountKey)) {
        throw new AppError('Internal', { detail: 'outbox answered for another account' });
      }
      session.runtime.engine.nudge('change');
      return queued;
    },
    'outbox:list': async () => sessions.session?.runtime.outbox.list() ?? [],
    'outbox:retry': async ({ opId }) => {
      const { runtime } = need();
      const op = await runtime.outbox.retry(findOp(need(), opId).opId);
      runtime.engine.nudge('change');
      return op;
    },
    // The outbox checks the new payload against the op's kind.
    'outbox:edit': async ({ opId, payload }) => {
      const { runtime } = need();
      const op = await runtime.outbox.edit(findOp(need(), opId).opId, payload);
      runtime.engine.nudge('change');
      return op;
    },
    'outbox:discard': async ({ opId }) => need().runtime.outbox.discard(findOp(need(), opId).opId),
    'outbox:create-candidates': async ({ opId }) =>
      need().runtime.engine.createCandidates(findOp(need(), opId).opId),
    'outbox:choose-created': async ({ opId, customerId }) => {
      await need().runtime.engine.decideCreate(findOp(need(), opId).opId, customerId);
      return true;
    },

    'conflicts:list': async () => (await sessions.session?.runtime.engine.conflicts()) ?? [],
    'conflicts:resolve': async ({ conflictId, choice }) =>
      need().runtime.engine.resolveConflict(conflictId, choice),

    'customers:search': async ({ term }) =>
      need().runtime.client.searchCustomers(term, { priority: 'user' }),

    'import:start': async (request) => needImports().start(request),
    'import:list': async () => needImports().list(),
    'import:dismiss': async ({ importId }) => needImports().dismiss(importId),
    'import:read-spreadsheet': async (request) => {
      need();
      return readSpreadsheet(request, spreadsheets);
    },

    ...createBasemapHandlers(basemap),

    // One implementation of the link checks (https only, only from a click): the shell's.
    'shell:open-external': openExternal
      ? createOpenExternalHandler(openExternal)
      : async () => {
          throw new AppError('InvalidRequest', { message: 'Refused: links cannot be opened here' });
        },

    'log:renderer-error': async (report) => reportError?.(report) ?? false,
    // Only the Electron shell reloads a page (its renderer watch answers this channel instead).
    'shell:take-notice': async () => null,
  };
}

function findOp(session: CurrentSession, opId: string): Op {
  const op = session.runtime.outbox.get(opId);
  if (!op)
    throw new AppError('InvalidRequest', { detail: 'no such change in the outbox', field: 'opId' });
  return op;
}
