/**
 * Browser mode: serves the built renderer on 127.0.0.1 and carries the IPC contract of
 * shared/ipc over a WebSocket, so a page in any browser is a window of the app, backed by the
 * same electron/core services as Electron's windows.
 *
 * Nothing but the page's own origin with the secret may act as the user: the page and the
 * WebSocket both require the random secret from the printed URL (compared in constant time),
 * the WebSocket also requires our Origin (a foreign web page cannot forge it), and every
 * request must name our host (DNS rebinding). Static assets are served without the secret:
 * they are the public renderer bundle, and a page cannot pass the secret to its <script>s.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import {
  BROWSER_SECRET_PARAM,
  BROWSER_WS_PATH,
  clientFrameSchema,
  type HostFrame,
  type IpcResult,
  type PushChannel,
} from '../../shared/ipc';
import { contentTypeFor, findStaticFile, SECURITY_HEADERS } from './static';

/** The part of electron/core's Core that the host drives. */
export interface BridgeCore {
  handleInvoke(sender: unknown, channel: unknown, payload: unknown): Promise<IpcResult<unknown>>;
  onPush(listener: (channel: PushChannel, payload: unknown) => void): () => void;
}

export interface BrowserHostOptions {
  core: BridgeCore;
  /** The built renderer (index.html + assets), e.g. dist/renderer. */
  rendererDir: string;
  host?: '127.0.0.1';
  /** 0 (the default) lets the OS pick a free port. */
  port?: number;
  /** Defaults to 32 random bytes, base64url. */
  secret?: string;
  /** Reports internal errors (a core that throws); defaults to stderr. */
  log?: (message: string) => void;
}

export interface BrowserHost {
  /** The page URL with the secret: the one thing to give the user. */
  readonly url: string;
  readonly port: number;
  /** For the core's isTrustedSender: true for our authenticated sockets only. */
  isTrustedSender(sender: unknown): boolean;
  close(): Promise<void>;
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

function secretsEqual(given: string | null, secret: string): boolean {
  if (given === null) return false;
  // Hashing first gives equal lengths, so neither the length nor the content leaks by timing.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(secret).digest();
  return timingSafeEqual(a, b);
}

export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const { core, rendererDir } = options;
  const bindHost = options.host ?? '127.0.0.1';
  const secret = options.secret ?? randomBytes(32).toString('base64url');
  const log = options.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const sockets = new Set<WebSocket>();
  let port = 0;

  const allowedHosts = () => [`127.0.0.1:${port}`, `localhost:${port}`];
  const allowedOrigins = () => allowedHosts().map((h) => `http://${h}`);

  const server = createServer((req, res) => {
    serveHttp(req, res).catch((error: unknown) => {
      log(`confab host: ${String(error)}`);
      if (!res.headersSent) sendText(res, 500, 'Internal error.');
      else res.destroy();
    });
  });

  async function serveHttp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!allowedHosts().includes(req.headers.host ?? ''))
      return sendText(res, 403, 'Forbidden: unknown host.');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return sendText(res, 405, 'Method not allowed.');
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const isPage = url.pathname === '/' || url.pathname === '/index.html';
    if (isPage && !secretsEqual(url.searchParams.get(BROWSER_SECRET_PARAM), secret)) {
      return sendText(
        res,
        403,
        'Forbidden: open the address that `npm start` printed (it carries the secret).',
      );
    }
    const file = await findStaticFile(rendererDir, url.pathname);
    if (file === null) return sendText(res, 404, 'Not found.');
    const body = await readFile(file);
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': contentTypeFor(file),
      'Content-Length': body.length,
      // The page carries the secret in its URL: keep it out of caches. Assets are cheap locally.
      'Cache-Control': isPage ? 'no-store' : 'no-cache',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, clientTracking: false });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== BROWSER_WS_PATH) return refuseUpgrade(socket, 404, 'Not Found');
    const authorised =
      allowedHosts().includes(req.headers.host ?? '') &&
      allowedOrigins().includes(req.headers.origin ?? '') &&
      secretsEqual(url.searchParams.get(BROWSER_SECRET_PARAM), secret);
    if (!authorised) return refuseUpgrade(socket, 403, 'Forbidden');
    wss.handleUpgrade(req, socket, head, (ws) => accept(ws));
  });

  function accept(ws: WebSocket): void {
    sockets.add(ws);
    ws.on('close', () => sockets.delete(ws));
    // Oversized frames and protocol errors end up here; ws then closes the socket.
    ws.on('error', () => sockets.delete(ws));
    ws.on('message', (data: RawData, isBinary: boolean) => {
      void onMessage(ws, isBinary ? null : data.toString());
    });
  }

  async function onMessage(ws: WebSocket, text: string | null): Promise<void> {
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
        send(ws, { kind: 'result', id, result: INVALID_FRAME });
      }
      return;
    }
    const { id, channel, payload } = frame.data;
    let result: IpcResult<unknown>;
    try {
      result = await core.handleInvoke(ws, channel, payload);
    } catch (error) {
      log(
        `confab host: ${channel} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      result = INTERNAL_ERROR;
    }
    send(ws, { kind: 'result', id, result });
  }

  function send(ws: WebSocket, frame: HostFrame): void {
    sendRaw(ws, JSON.stringify(frame));
  }

  function sendRaw(ws: WebSocket, text: string): void {
    if (ws.readyState !== WebSocket.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      ws.terminate();
      return;
    }
    ws.send(text);
  }

  const unsubscribe = core.onPush((channel, payload) => {
    const text = JSON.stringify({ kind: 'push', channel, payload } satisfies HostFrame);
    for (const ws of sockets) sendRaw(ws, text);
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: bindHost, port: options.port ?? 0 }, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    unsubscribe();
    throw error;
  }
  port = (server.address() as AddressInfo).port;

  let closing: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${port}/?${BROWSER_SECRET_PARAM}=${encodeURIComponent(secret)}`,
    port,
    isTrustedSender: (sender) => sockets.has(sender as WebSocket),
    close() {
      closing ??= new Promise<void>((resolve) => {
        unsubscribe();
        for (const ws of sockets) ws.terminate();
        sockets.clear();
        wss.close();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

function sendText(res: ServerResponse, status: number, text: string): void {
  const body = Buffer.from(`${text}\n`);
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': body.length,
    'Cache-Control': 'no-store',
  });
  res.end(body);
}

function refuseUpgrade(socket: Duplex, status: number, reason: string): void {
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain\r\n` +
      `Content-Length: ${reason.length}\r\n\r\n${reason}`,
  );
}
