// Reminders in the browser runner, where there is no Electron Notification: the page's own
// Notification API shows them (Chromium's, on the desktop the runner's window is on), and a
// click on one runs main's click as Electron's 'click' event would. `observe` sees each one, so
// the e2e harness can read what the rep was shown and click it (headless Chromium shows none).
import type { BrowserContext, Page } from 'playwright-core';
import type {
  ReminderNotice,
  ShowNotification,
} from '../../src-main/core/reminders/reminder-schedule';

const CLICK_BINDING = '__fieldmapNotificationClick';

export interface RunnerNotifier {
  notify: ShowNotification;
  /** Lets the page show notifications and tell a click; once the context exists. */
  attach(context: BrowserContext, origin: string, page: () => Page | null): Promise<void>;
}

export function runnerNotifier(
  observe?: (notice: ReminderNotice, click: () => void) => void,
): RunnerNotifier {
  const clicks = new Map<string, () => void>();
  let seq = 0;
  let pageOf: () => Page | null = () => null;
  return {
    notify(notice, onClick) {
      const tag = `reminder-${++seq}`;
      clicks.set(tag, onClick);
      observe?.(notice, onClick);
      const page = pageOf();
      if (!page || page.isClosed()) return;
      void page
        .evaluate(
          ({ title, body, tag, binding }) => {
            // The page's Notification (no DOM types in this Node project).
            const Shown = (
              globalThis as unknown as {
                Notification?: {
                  permission: string;
                  new (title: string, init: { body: string; tag: string }): { onclick: unknown };
                };
              }
            ).Notification;
            if (!Shown || Shown.permission !== 'granted') return;
            const shown = new Shown(title, { body, tag });
            shown.onclick = () => {
              const click = (globalThis as unknown as Record<string, (tag: string) => void>)[
                binding
              ];
              click?.(tag);
            };
          },
          { title: notice.title, body: notice.body, tag, binding: CLICK_BINDING },
        )
        .catch(() => undefined); // a page reloading meanwhile: the notice is in the app's list
    },
    async attach(context, origin, page) {
      pageOf = page;
      await context.grantPermissions(['notifications'], { origin });
      await context.exposeBinding(CLICK_BINDING, (_source, tag: unknown) => {
        const click = clicks.get(String(tag));
        clicks.delete(String(tag));
        click?.();
      });
    },
  };
}
