// Connects Electron's ipcMain to the IPC router: one ipcMain.handle per invoke channel, the
// sender described by its frame (top frame or not, and its URL).
import { invokeChannels } from '../../src-shared/ipc-contract';
import type { IpcRouter, SenderFrameInfo } from '../ipc/handle';
import type { ShellIpcMain, ShellSenderFrame } from './shell-deps';

export function senderFrameInfo(frame: ShellSenderFrame | null): SenderFrameInfo {
  // senderFrame is null once the frame has navigated away or been destroyed: never trusted.
  if (!frame) return { url: undefined, isTopFrame: false };
  return { url: frame.url, isTopFrame: frame.parent === null };
}

export function registerIpcHandlers(ipcMain: ShellIpcMain, router: IpcRouter): void {
  for (const channel of Object.keys(invokeChannels)) {
    ipcMain.handle(channel, (event, request) =>
      router.dispatch(channel, senderFrameInfo(event.senderFrame), request),
    );
  }
}
