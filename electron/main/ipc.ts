/**
 * ipcMain adapter: one handler per invoke channel of shared/ipc, answered by electron/core;
 * core pushes go to our windows. Payload validation and the sender check happen in the core
 * (one place for both transports); the check it calls is `isTrustedSender`.
 */
import { BrowserWindow, ipcMain } from 'electron';
import {
  electronInvokeChannel,
  electronPushChannel,
  INVOKE_CHANNELS,
  type IpcResult,
} from '../../shared/ipc';
import type { Core } from '../core';
import { type FrameLike, isTrustedFrame } from '../core/desktop/electron-policy';

const INTERNAL_ERROR: IpcResult<never> = {
  ok: false,
  error: { message: 'Internal error in the Confab app.', code: null },
};

/** The sender is the main frame of a page of ours (app://confab), never a subframe. */
export function isTrustedSender(sender: unknown): boolean {
  return isTrustedFrame(sender as FrameLike | null);
}

export function registerIpc(core: Core): void {
  for (const channel of INVOKE_CHANNELS) {
    ipcMain.handle(electronInvokeChannel(channel), async (event, payload: unknown) => {
      try {
        return await core.handleInvoke(event.senderFrame, channel, payload);
      } catch (error) {
        console.error(`confab: ${channel} failed`, error);
        return INTERNAL_ERROR;
      }
    });
  }
  core.onPush((channel, payload) => {
    for (const win of BrowserWindow.getAllWindows()) {
      const contents = win.webContents;
      if (!contents.isDestroyed() && isTrustedFrame(contents.mainFrame)) {
        contents.send(electronPushChannel(channel), payload);
      }
    }
  });
}
