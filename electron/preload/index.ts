/**
 * The whole surface the renderer gets in Electron: `window.confab`, a ConfabBridge over
 * ipcRenderer, limited at runtime to the channels of the contract. No ipcRenderer, no event
 * objects (they carry the sender) cross into the page. Bundled into one CJS file because a
 * sandboxed preload can require nothing but 'electron'; the channel names come from the
 * zod-free shared/ipc/channels.ts to keep that file small (the rest of shared/ipc is types).
 */
import { contextBridge, type IpcRendererEvent, ipcRenderer } from 'electron';
import type { ConfabBridge, IpcResult } from '../../shared/ipc';
import {
  electronInvokeChannel,
  electronPushChannel,
  isInvokeChannel,
  isPushChannel,
} from '../../shared/ipc/channels';

const bridge: ConfabBridge = {
  invoke(channel, request) {
    if (!isInvokeChannel(channel)) {
      const refused: IpcResult<never> = {
        ok: false,
        error: { message: `Unknown channel: ${String(channel)}`, code: null },
      };
      return Promise.resolve(refused);
    }
    return ipcRenderer.invoke(electronInvokeChannel(channel), request);
  },
  on(channel, listener) {
    if (!isPushChannel(channel)) throw new Error(`Unknown channel: ${String(channel)}`);
    const name = electronPushChannel(channel);
    const forward = (_event: IpcRendererEvent, payload: unknown) => listener(payload as never);
    ipcRenderer.on(name, forward);
    return () => {
      ipcRenderer.removeListener(name, forward);
    };
  },
};

contextBridge.exposeInMainWorld('confab', bridge);
