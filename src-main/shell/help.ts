// Help > Show logs and Help > About Fieldmap: what support asks a rep for first.
import type { AccountAbout } from '../app/support';
import type { ShellBrowserWindow, ShellDialog, ShellFiles } from './shell-deps';

export interface HelpContext {
  version: string;
  dataDir: string;
  logsDir: string;
  /** The newest log file, shown in its folder when the folder cannot be opened. */
  logFile: string;
  /** The signed-in account and its queued changes (main's services), when known. */
  about: (() => AccountAbout) | undefined;
  /** Resolves once the log's lines so far are on disk, so the folder and file exist. */
  flushLog(): Promise<void>;
}

/** Opens the logs folder in the desktop's file manager. */
export async function showLogs(
  files: ShellFiles | undefined,
  context: HelpContext,
  say: (message: string) => void,
): Promise<void> {
  if (!files) return;
  await context.flushLog();
  const failure = await files.openPath(context.logsDir);
  if (failure === '') return;
  say(`[shell] could not open the logs folder: ${failure.slice(0, 200)}`);
  files.showItemInFolder(context.logFile);
}

/** The About box's text: the version, who is signed in where, what waits, where data lives. */
export function aboutText(context: HelpContext): { message: string; detail: string } {
  const about = context.about?.() ?? null;
  const account = about?.account;
  const who = !account
    ? 'Not signed in'
    : account.demo
      ? 'The demo account'
      : `${account.username} on ${account.host}`;
  const queued = about?.queued ?? 0;
  return {
    message: `Fieldmap ${context.version}`,
    detail: [
      `Account: ${who}`,
      `Changes waiting to be sent: ${queued}`,
      `Data folder: ${context.dataDir}`,
      `Logs: ${context.logsDir}`,
    ].join('\n'),
  };
}

export const ABOUT_BUTTONS = ['OK', 'Show logs'];

export async function showAbout(
  dialog: ShellDialog | undefined,
  window: ShellBrowserWindow | null,
  context: HelpContext,
  openLogs: () => Promise<void>,
): Promise<void> {
  if (!dialog) return;
  const { message, detail } = aboutText(context);
  const { response } = await dialog.showMessageBox(window, {
    type: 'info',
    title: 'About Fieldmap',
    message,
    detail,
    buttons: ABOUT_BUTTONS,
    defaultId: 0,
    cancelId: 0,
    noLink: true,
  });
  if (response === 1) await openLogs();
}
