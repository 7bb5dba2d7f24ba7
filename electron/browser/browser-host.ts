/**
 * Browser mode's host: serves the built renderer on 127.0.0.1 and carries the IPC contract of
 * shared/ipc over a WebSocket, so a page in any browser is a window of the app, backed by the
 * same electron/core services as Electron's windows.
 *
 * This file only assembles the pieces: access.ts decides who may use the host (host name,
 * secret, Origin), http.ts serves the static files, bridge.ts dispatches the WebSocket's frames
 * to the core and fans its pushes out to every socket.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BROWSER_SECRET_PARAM } from '../../shared/ipc';
import { HostAccess } from './access';
import { type BridgeCore, SocketBridge } from './bridge';
import { staticRequestListener } from './http';

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

export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const secret = options.secret ?? randomBytes(32).toString('base64url');
  const log = options.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  let port = 0;
  const access = new HostAccess(secret, () => port);
  const bridge = new SocketBridge(options.core, log);
  const server = createServer(staticRequestListener({ rendererDir: options.rendererDir, access, log }));
  server.on(
    'upgrade',
    access.gateUpgrade((req, socket, head) => bridge.accept(req, socket, head)),
  );

  try {
    await listen(server, options.host ?? '127.0.0.1', options.port ?? 0);
  } catch (error) {
    bridge.close();
    throw error;
  }
  port = (server.address() as AddressInfo).port;

  let closing: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${port}/?${BROWSER_SECRET_PARAM}=${encodeURIComponent(secret)}`,
    port,
    isTrustedSender: (sender) => bridge.isTrusted(sender),
    close() {
      closing ??= new Promise<void>((resolve) => {
        bridge.close();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
