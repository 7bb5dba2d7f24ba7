/**
 * Test support: a TCP proxy on 127.0.0.1 in front of a real server, to play the network's
 * failures between a client and the server:
 *
 * - `cut()`: the line is down: open connections are reset and new ones refused (the port
 *   stops listening; `restore()` listens on it again).
 * - `stall()`: a black hole: open connections stop carrying data and new ones are accepted
 *   but never forwarded; those connections stay hung (as behind a dead NAT) until `drop()`.
 * - `drop()`: resets every open connection once; new ones go through.
 * - `restore()`: new connections go through again.
 * - `respondWith(status, {count, headers})`: the next `count` HTTP requests are answered by
 *   the proxy with that status (a 503 of a load balancer, a 429 with Retry-After), each on
 *   a connection it then closes; other requests pass through untouched.
 *
 * Client-to-server bytes are read as HTTP/1.1 requests (headers + Content-Length body) so that
 * `respondWith` can answer per request on kept-alive connections; server-to-client bytes are
 * piped as they are.
 */
import net from 'node:net';

export type ProxyMode = 'open' | 'cut' | 'stall';

export interface TestProxy {
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  mode(): ProxyMode;
  cut(): Promise<void>;
  stall(): void;
  restore(): Promise<void>;
  drop(): void;
  respondWith(status: number, options?: { count?: number; headers?: Record<string, string> }): void;
  /** Requests the proxy answered itself so far. */
  answered(): number;
  /** Connections currently open through (or held by) the proxy. */
  openConnections(): number;
  close(): Promise<void>;
}

interface Pair {
  client: net.Socket;
  upstream: net.Socket | null;
  stalled: boolean;
}

const REASONS: Record<number, string> = {
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

const HEADER_END = Buffer.from('\r\n\r\n');

export async function startProxy(target: { host?: string; port: number }): Promise<TestProxy> {
  const targetHost = target.host ?? '127.0.0.1';
  let mode: ProxyMode = 'open';
  const pairs = new Set<Pair>();
  let canned: { status: number; remaining: number; headers: Record<string, string> } | null = null;
  let answered = 0;

  const reset = (pair: Pair) => {
    pair.client.resetAndDestroy();
    pair.upstream?.resetAndDestroy();
    pairs.delete(pair);
  };

  /** Takes one canned answer if one is due. */
  const takeCanned = () => {
    if (!canned || canned.remaining <= 0) return null;
    canned.remaining -= 1;
    const answer = canned;
    if (canned.remaining === 0) canned = null;
    return answer;
  };

  const server = net.createServer((client) => {
    const pair: Pair = { client, upstream: null, stalled: mode === 'stall' };
    pairs.add(pair);
    client.on('error', () => undefined);
    client.on('close', () => {
      pair.upstream?.destroy();
      pairs.delete(pair);
    });
    if (pair.stalled) return; // Accepted, never answered.

    const upstream = net.connect({ host: targetHost, port: target.port });
    pair.upstream = upstream;
    upstream.on('error', () => client.destroy());
    // A stalled line stays hung even when the server gives up on its end.
    upstream.on('close', () => {
      if (!pair.stalled) client.destroy();
    });
    upstream.on('data', (chunk) => {
      if (!pair.stalled) client.write(chunk);
    });

    // Client -> server, one HTTP request at a time.
    let buffer = Buffer.alloc(0);
    let bodyLeft = 0;
    client.on('data', (chunk: Buffer) => {
      if (pair.stalled) return;
      buffer = Buffer.concat([buffer, chunk]);
      while (buffer.length > 0) {
        if (bodyLeft > 0) {
          const part = buffer.subarray(0, bodyLeft);
          bodyLeft -= part.length;
          buffer = buffer.subarray(part.length);
          upstream.write(part);
          continue;
        }
        const end = buffer.indexOf(HEADER_END);
        if (end === -1) return; // The rest of the headers is still to come.
        const head = buffer.subarray(0, end + HEADER_END.length);
        const length = /\r\ncontent-length:\s*(\d+)/i.exec(head.toString('latin1'));
        const answer = takeCanned();
        if (answer) {
          answered += 1;
          // What a load balancer sends: not the service's JSON envelope.
          const body = `${answer.status} from the proxy\n`;
          const headers = {
            'Content-Type': 'text/plain',
            'Content-Length': String(Buffer.byteLength(body)),
            Connection: 'close',
            ...answer.headers,
          };
          const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
          client.end(
            `HTTP/1.1 ${answer.status} ${REASONS[answer.status] ?? 'Error'}\r\n${lines.join('')}\r\n${body}`,
          );
          upstream.destroy();
          return;
        }
        buffer = buffer.subarray(head.length);
        bodyLeft = length ? Number(length[1]) : 0;
        upstream.write(head);
      }
    });
  });

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  /** Settles when the port is in the state the mode asks for. */
  let listening: Promise<void> = Promise.resolve();

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    mode: () => mode,
    async cut() {
      mode = 'cut';
      await listening;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const pair of [...pairs]) reset(pair);
      listening = closed;
      await closed;
    },
    stall() {
      mode = 'stall';
      for (const pair of pairs) pair.stalled = true;
    },
    async restore() {
      const wasCut = mode === 'cut';
      mode = 'open';
      await listening;
      if (wasCut) {
        listening = listen(port);
        await listening;
      }
    },
    drop() {
      for (const pair of [...pairs]) reset(pair);
    },
    respondWith(status, options = {}) {
      canned = { status, remaining: options.count ?? 1, headers: options.headers ?? {} };
    },
    answered: () => answered,
    openConnections: () => pairs.size,
    async close() {
      await listening;
      for (const pair of [...pairs]) reset(pair);
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
