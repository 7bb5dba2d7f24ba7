/**
 * Helpers for the tests of browser mode, the launcher, Electron main and packaging: a stand-in
 * for the built renderer, raw HTTP, WebSocket clients that speak the bridge's frames.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import { WebSocket } from 'ws';
import type { HostFrame } from '../../shared/ipc';

export const FIXTURE_INDEX_HTML =
  '<!doctype html><html><head><title>Confab fixture</title>' +
  '<link rel="stylesheet" href="/assets/app.css"></head>' +
  '<body><div id="root"></div><script type="module" src="/assets/app.js"></script></body></html>\n';

/** A stand-in for dist/renderer, so these tests do not depend on the Vite build. */
export async function writeRendererFixture(dir: string): Promise<void> {
  await mkdir(path.join(dir, 'assets'), { recursive: true });
  await writeFile(path.join(dir, 'index.html'), FIXTURE_INDEX_HTML);
  await writeFile(path.join(dir, 'assets', 'app.js'), 'console.log("confab");\n');
  await writeFile(path.join(dir, 'assets', 'app.css'), 'body { margin: 0; }\n');
  await writeFile(path.join(dir, 'assets', 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>\n');
  await writeFile(path.join(dir, 'assets', 'font.woff2'), Buffer.from([0x77, 0x4f, 0x46, 0x32]));
  await writeFile(path.join(dir, '.env'), 'HIDDEN=1\n');
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** HTTP without fetch's URL normalisation: the path and headers go out exactly as given. */
export function rawRequest(
  port: number,
  requestPath: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: requestPath,
        method: options.method ?? 'GET',
        headers: options.headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

export type WsOutcome = { ws: WebSocket; status?: undefined } | { ws?: undefined; status: number };

/** Opens a WebSocket; resolves with the HTTP status when the server refuses the upgrade. */
export function connectWs(url: string, origin?: string): Promise<WsOutcome> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, origin === undefined ? {} : { origin });
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (req, res) => {
      res.resume();
      req.destroy();
      ws.on('error', () => undefined);
      resolve({ status: res.statusCode ?? 0 });
    });
    ws.once('error', reject);
  });
}

/** Collects a socket's frames and waits for the ones a test expects. */
export class FrameLog {
  readonly frames: HostFrame[] = [];
  readonly raw: string[] = [];
  private waiters: Array<() => void> = [];

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const text = data.toString();
      this.raw.push(text);
      this.frames.push(JSON.parse(text) as HostFrame);
      for (const w of this.waiters) w();
    });
  }

  waitFor<T extends HostFrame>(predicate: (f: HostFrame) => f is T, timeoutMs?: number): Promise<T>;
  waitFor(predicate: (f: HostFrame) => boolean, timeoutMs?: number): Promise<HostFrame>;
  waitFor(predicate: (f: HostFrame) => boolean, timeoutMs = 20_000): Promise<HostFrame> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.frames.find(predicate);
        if (!found) return false;
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(found);
        return true;
      };
      const waiter = () => void check();
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`no matching frame in ${timeoutMs} ms; got ${JSON.stringify(this.frames)}`));
      }, timeoutMs);
      if (!check()) this.waiters.push(waiter);
    });
  }

  /** Sends an invoke frame and waits for its result. */
  async invoke(id: number, channel: string, payload: unknown): Promise<HostFrame> {
    this.ws.send(JSON.stringify({ kind: 'invoke', id, channel, payload }));
    return this.waitFor((f) => f.kind === 'result' && f.id === id);
  }
}
