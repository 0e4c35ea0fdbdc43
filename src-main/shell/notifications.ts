// Reminders as the OS shows them: Electron's Notification, which is the Windows toast (Action
// Center), the macOS Notification Center and the Linux desktop's notification service. A click
// brings the window forward and opens the customer. Electron drops a notification's click
// handler when the object is garbage collected, so each is held until it is clicked or closed.
import type { ReminderNotice, ShowNotification } from '../core/reminders/reminder-schedule';
import type { ShellNotification, ShellNotificationClass } from './shell-deps';

export function shellNotifier(
  Notification: ShellNotificationClass,
  /** Shows, restores and focuses the window (or opens it again on macOS). */
  bringForward: () => void,
  log: (line: string) => void,
): ShowNotification {
  const live = new Set<ShellNotification>();
  return (notice: ReminderNotice, onClick: () => void) => {
    if (!Notification.isSupported()) {
      log(`[shell] no notification service; reminder not shown: ${notice.title}`);
      return;
    }
    const shown = new Notification({ title: notice.title, body: notice.body });
    live.add(shown);
    shown.on('click', () => {
      live.delete(shown);
      bringForward();
      onClick();
    });
    shown.on('close', () => live.delete(shown));
    shown.on('failed', () => {
      live.delete(shown);
      log(`[shell] the reminder could not be shown: ${notice.title}`);
    });
    shown.show();
  };
}
