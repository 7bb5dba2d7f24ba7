/**
 * The WebSocket bridge of browser mode: the IPC contract of shared/ipc as frames. An invoke
 * frame goes to the core (with the socket as its sender) and its result comes back with the
 * frame's id; every push of the core goes to every open socket. Only sockets that passed
 * access.ts's check get here.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { clientFrameSchema, type HostFrame, type IpcResult, type PushChannel } from '../../shared/ipc';

/** The part of electron/core's Core that the bridge drives. */
export interface BridgeCore {
  handleInvoke(sender: unknown, channel: unknown, payload: unknown): Promise<IpcResult<unknown>>;
  onPush(listener: (channel: PushChannel, payload: unknown) => void): () => void;
}

/** Frames larger than this are refused by ws (close 1009); real requests are tiny. */
export const MAX_FRAME_BYTES = 1024 * 1024;
/** A socket that stops reading while this much is queued for it is dropped (it reconnects). */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024;

const INVALID_FRAME: IpcResult<never> = {
  ok: false,
  error: { message: 'Invalid request frame.', code: null },
};
const INTERNAL_ERROR: IpcResult<never> = {
  ok: false,
  error: { message: 'Internal error in the Confab app.', code: null },
};

export class SocketBridge {
  private readonly sockets = new Set<WebSocket>();
  private readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_FRAME_BYTES,
    clientTracking: false,
  });
  private readonly unsubscribe: () => void;

  constructor(
    private readonly core: BridgeCore,
    private readonly log: (message: string) => void,
  ) {
    this.unsubscribe = core.onPush((channel, payload) => this.fanOut(channel, payload));
  }

  /** Completes an authorised upgrade and starts reading the socket's frames. */
  accept(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      this.sockets.add(ws);
      ws.on('close', () => this.sockets.delete(ws));
      // Oversized frames and protocol errors end up here; ws then closes the socket.
      ws.on('error', () => this.sockets.delete(ws));
      ws.on('message', (data: RawData, isBinary: boolean) => {
        void this.dispatch(ws, isBinary ? null : data.toString());
      });
    });
  }

  /** For the core's isTrustedSender: true for our open sockets only. */
  isTrusted(sender: unknown): boolean {
    return this.sockets.has(sender as WebSocket);
  }

  close(): void {
    this.unsubscribe();
    for (const ws of this.sockets) ws.terminate();
    this.sockets.clear();
    this.wss.close();
  }

  /** One text frame from a socket: an invoke answered with its result, or nothing. */
  private async dispatch(ws: WebSocket, text: string | null): Promise<void> {
    let raw: unknown;
    try {
      raw = text === null ? null : JSON.parse(text);
    } catch {
      return; // Not JSON: there is no id to answer to.
    }
    const frame = clientFrameSchema.safeParse(raw);
    if (!frame.success) {
      const id = (raw as { id?: unknown } | null)?.id;
      if (typeof id === 'number' && Number.isSafeInteger(id) && id >= 0) {
        this.send(ws, JSON.stringify({ kind: 'result', id, result: INVALID_FRAME } satisfies HostFrame));
      }
      return;
    }
    const { id, channel, payload } = frame.data;
    let result: IpcResult<unknown>;
    try {
      result = await this.core.handleInvoke(ws, channel, payload);
    } catch (error) {
      const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
      this.log(`confab host: ${channel} failed: ${detail}`);
      result = INTERNAL_ERROR;
    }
    this.send(ws, JSON.stringify({ kind: 'result', id, result } satisfies HostFrame));
  }

  /** A push of the core, serialised once, to every open socket. */
  private fanOut(channel: PushChannel, payload: unknown): void {
    const text = JSON.stringify({ kind: 'push', channel, payload } satisfies HostFrame);
    for (const ws of this.sockets) this.send(ws, text);
  }

  private send(ws: WebSocket, text: string): void {
    if (ws.readyState !== WebSocket.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      ws.terminate();
      return;
    }
    ws.send(text);
  }
}
