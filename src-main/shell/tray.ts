// Fieldmap in the notification area (Windows, Linux): closing the window hides it there, so
// main's reminder schedule keeps running and a rep is reminded with the window closed, as a
// chat or calendar app does. The tray's menu opens the window or quits for real; the first
// close of a run says where the app went. macOS keeps an app running without windows by itself
// (its Dock icon), so it has no tray.
import type { ShellMenu, ShellTray } from './shell-deps';

export interface TrayOptions {
  Tray: new (iconPath: string) => ShellTray;
  Menu: ShellMenu;
  iconPath: string;
  /** Shows, restores and focuses the window (or opens it again). */
  open: () => void;
  quit: () => void;
}

export interface AppTray {
  /** The window's 'close' while the app is not quitting: hidden, not closed. True the first time. */
  hidden(): boolean;
  destroy(): void;
}

export function createTray(options: TrayOptions): AppTray {
  const tray = new options.Tray(options.iconPath);
  tray.setToolTip('Fieldmap');
  tray.setContextMenu(
    options.Menu.buildFromTemplate([
      { label: 'Open Fieldmap', click: options.open },
      { type: 'separator' },
      { label: 'Quit Fieldmap', click: options.quit },
    ]),
  );
  // Windows opens a tray app's window on a click of its icon; the menu is on the right button.
  tray.on('click', options.open);
  let told = false;
  return {
    hidden() {
      if (told) return false;
      told = true;
      return true;
    },
    destroy: () => tray.destroy(),
  };
}
