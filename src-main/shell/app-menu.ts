// The application menu: File > Add offline region… opens main's file dialog (the one way a
// region's path reaches main in the desktop app), the standard Edit/View/Window roles, and Help
// with what support asks for first: the logs folder and the About box.
import type { ShellMenuItem } from './shell-deps';

export const ADD_REGION_LABEL = 'Add offline region…';
export const SHOW_LOGS_LABEL = 'Show logs';
export const ABOUT_LABEL = 'About Fieldmap';

export function applicationMenuTemplate(
  platform: string,
  actions: { addRegion: () => void; showLogs: () => void; about: () => void },
): ShellMenuItem[] {
  const mac = platform === 'darwin';
  return [
    ...(mac ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        { label: ADD_REGION_LABEL, accelerator: 'CmdOrCtrl+Shift+O', click: actions.addRegion },
        { type: 'separator' },
        { role: mac ? 'close' : 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    {
      label: 'Help',
      submenu: [
        { label: SHOW_LOGS_LABEL, click: actions.showLogs },
        { type: 'separator' },
        { label: ABOUT_LABEL, click: actions.about },
      ],
    },
  ];
}
