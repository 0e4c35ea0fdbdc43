// The Electron main entry: wires the real electron module and the real services into the shell.
/// <reference types="electron-vite/node" />
import { fileURLToPath } from 'node:url';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  MessageChannelMain,
  net,
  Notification,
  powerMonitor,
  protocol,
  screen,
  session,
  shell,
  Tray,
  type MessagePortMain,
  type WebContents,
} from 'electron';
// electron-updater is CommonJS: its named exports are not visible to an ES module import.
import electronUpdater from 'electron-updater';
import { createShellServices } from '../app/shell-services';
// electron-vite bundles the plan worker on its own and gives its path (a separate build: shared
// chunks between two entries break its CommonJS shims).
import planWorkerPath from '../core/basemap/plan-worker?modulePath';
import { KeytarCredentialStore } from '../core/service/credential-store';
import { startShell } from './start-shell';
import { favourMemoryInMain } from '../app/main-heap';

favourMemoryInMain();
startShell(
  {
    app,
    BrowserWindow,
    protocol,
    ipcMain,
    session,
    shell,
    powerMonitor,
    // Electron's screen module may not be touched before the app is ready: read when asked.
    screen: { getAllDisplays: () => screen.getAllDisplays() },
    net,
    Menu,
    dataPorts: {
      MessageChannelMain,
      // The shell only hands back web contents and ports Electron made.
      postPort: (contents, channel, port) =>
        (contents as WebContents).postMessage(channel, null, [port as MessagePortMain]),
    },
    dialog: {
      // The shell only hands back windows it made with this BrowserWindow class.
      showOpenDialog: (window, options) => dialog.showOpenDialog(window as BrowserWindow, options),
      showErrorBox: (title, content) => dialog.showErrorBox(title, content),
      showMessageBox: (window, options) =>
        window
          ? dialog.showMessageBox(window as BrowserWindow, options)
          : dialog.showMessageBox(options),
    },
    shellFiles: shell,
    autoUpdater: electronUpdater.autoUpdater,
    Notification,
    Tray,
  },
  {
    // Bundled to out/main/index.js: the renderer and preload builds sit beside it.
    rendererDir: fileURLToPath(new URL('../renderer', import.meta.url)),
    preloadPath: fileURLToPath(new URL('../preload/index.cjs', import.meta.url)),
    createServices: (context) =>
      createShellServices(context, {
        credentialStore: new KeytarCredentialStore(),
        demo: process.argv.includes('--demo'),
        xlsxWorker: fileURLToPath(new URL('./xlsx-worker.js', import.meta.url)),
        styleWorker: fileURLToPath(new URL('./style-worker.js', import.meta.url)),
        planWorkerPath,
      }),
  },
);
