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
  powerMonitor,
  protocol,
  session,
  shell,
  type MessagePortMain,
  type WebContents,
} from 'electron';
import { createMainServices } from '../app/main-services';
// electron-vite bundles the plan worker on its own and gives its path (a separate build: shared
// chunks between two entries break its CommonJS shims).
import planWorkerPath from '../core/basemap/plan-worker?modulePath';
import { KeytarCredentialStore } from '../core/service/credential-store';
import { startShell } from './start-shell';

startShell(
  {
    app,
    BrowserWindow,
    protocol,
    ipcMain,
    session,
    shell,
    powerMonitor,
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
      showMessageBox: (window, options) => dialog.showMessageBox(window as BrowserWindow, options),
      showErrorBox: (title, content) => dialog.showErrorBox(title, content),
    },
  },
  {
    // Bundled to out/main/index.js: the renderer and preload builds sit beside it.
    rendererDir: fileURLToPath(new URL('../renderer', import.meta.url)),
    preloadPath: fileURLToPath(new URL('../preload/index.cjs', import.meta.url)),
    async createServices({ dataDir, emit, pickFile, confirmLocalAddress, openExternal }) {
      const services = await createMainServices({
        dataDir,
        emit,
        openExternal,
        planWorkerPath,
        ...(pickFile ? { pickFile } : {}),
        ...(confirmLocalAddress ? { confirmLocalAddress } : {}),
        credentialStore: new KeytarCredentialStore(),
      });
      // `npm start -- --demo`: open the demo account when no account is open.
      if (process.argv.includes('--demo') && !services.sessions.currentAccount()) {
        void services.sessions.startDemo().catch((error: unknown) => {
          console.warn(
            `[fieldmap] demo failed to start: ${error instanceof Error ? error.message : 'error'}`,
          );
        });
      }
      return {
        handlers: services.handlers,
        onOnline: () => services.nudge('online'),
        onResume: () => services.nudge('resume'),
        dispose: () => services.dispose(),
        handleAppRequest: (url, range) => services.basemap.handleRequest(url, range),
      };
    },
  },
);
