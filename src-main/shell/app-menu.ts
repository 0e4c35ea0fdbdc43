// The application menu: File > Add offline region… opens main's file dialog (the one way a
// region's path reaches main in the desktop app), plus the standard Edit/View/Window roles.
import type { ShellMenuItem } from './shell-deps';

export const ADD_REGION_LABEL = 'Add offline region…';

export function applicationMenuTemplate(
  platform: string,
  actions: { addRegion: () => void },
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
  ];
}
