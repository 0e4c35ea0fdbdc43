// The Electron main entry: wires the real electron module and the real services into the shell.
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
      showErrorBox: (title, content) => dialog.showErrorBox(title, content),
    },
  },
  {
    // Bundled to out/main/index.js: the renderer and preload builds sit beside it.
    rendererDir: fileURLToPath(new URL('../renderer', import.meta.url)),
    preloadPath: fileURLToPath(new URL('../preload/index.cjs', import.meta.url)),
    async createServices({ dataDir, emit, pickFile, openExternal }) {
      const services = await createMainServices({
        dataDir,
        emit,
        openExternal,
        ...(pickFile ? { pickFile } : {}),
        credentialStore: new KeytarCredentialStore(),
        xlsxWorker: fileURLToPath(new URL('./xlsx-worker.js', import.meta.url)),
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
