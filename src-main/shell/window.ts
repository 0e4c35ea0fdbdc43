// The app's one window, locked down: the renderer is a sandboxed web page with no Node.js and
// talks to main only through the preload's window.fieldmap.
import { APP_ENTRY_URL } from './app-protocol';
import type { ShellBrowserWindow, ShellDeps } from './shell-deps';
import { MIN_WINDOW, type WindowPlace } from './window-place';

export function createMainWindow(
  BrowserWindow: ShellDeps['BrowserWindow'],
  preloadPath: string,
  log: (message: string) => void,
  place: WindowPlace | null = null,
): ShellBrowserWindow {
  // Every option is a literal in this call so electronegativity's static checks can read them.
  const window = new BrowserWindow({
    width: place?.width ?? 1280,
    height: place?.height ?? 820,
    ...(place ? { x: place.x, y: place.y } : {}),
    minWidth: MIN_WINDOW.width,
    minHeight: MIN_WINDOW.height,
    // Shown on ready-to-show, so the user never sees an empty white frame.
    show: false,
    title: 'Fieldmap',
    backgroundColor: '#f5f5f4',
    webPreferences: {
      // The preload exposes only window.fieldmap, built from the IPC contract (src-main/ipc/
      // bridge.ts); it never hands the page ipcRenderer, and main validates every call.
      preload: preloadPath, // eng-disable PRELOAD_JS_CHECK
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      // Middle-click would otherwise try to open a link in a new window.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  if (place?.maximized) window.maximize();
  window.once('ready-to-show', () => window.show());
  window.loadURL(APP_ENTRY_URL).catch((error: unknown) => {
    log(
      `[shell] could not load the app: ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  return window;
}
