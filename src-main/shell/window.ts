// The app's one window, locked down: the renderer is a sandboxed web page with no Node.js and
// talks to main only through the preload's window.fieldmap.
import { APP_ENTRY_URL } from './app-protocol';
import type {
  ShellDeps,
  ShellBrowserWindow,
  WindowOptions,
  WindowWebPreferences,
} from './shell-deps';

export function secureWebPreferences(preloadPath: string): WindowWebPreferences {
  return {
    preload: preloadPath,
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
  };
}

export function mainWindowOptions(preloadPath: string): WindowOptions {
  return {
    width: 1280,
    height: 820,
    minWidth: 720,
    minHeight: 480,
    // Shown on ready-to-show, so the user never sees an empty white frame.
    show: false,
    title: 'Fieldmap',
    backgroundColor: '#f5f5f4',
    webPreferences: secureWebPreferences(preloadPath),
  };
}

export function createMainWindow(
  BrowserWindow: ShellDeps['BrowserWindow'],
  preloadPath: string,
  log: (message: string) => void,
): ShellBrowserWindow {
  const window = new BrowserWindow(mainWindowOptions(preloadPath));
  window.once('ready-to-show', () => window.show());
  window.loadURL(APP_ENTRY_URL).catch((error: unknown) => {
    log(
      `[shell] could not load the app: ${error instanceof Error ? error.message : String(error)}`,
    );
  });
  return window;
}
