/**
 * GET /health and the graceful drain on SIGTERM, as a load balancer sees them: health is 200
 * while the database answers and 503 from the first moment of a shutdown; waiting long-polls
 * are answered at once; a request in progress gets its whole answer (and its write is kept);
 * idle connections do not hold the shutdown, and one that outlasts --drain-seconds is cut off.
 *
 * Raw sockets give the control this needs. A request sent with `Expect: 100-continue` makes
 * Node answer `100 Continue` as it hands the request to the router: once the test reads it,
 * the request is in progress (a long-poll waits on its queue, a POST waits for its body).
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { basicAuthHeader } from '../../shared/client';
import { loginAs, makeTempDir, removeDir, startServerProcess } from '../../test/support/server';
import { openDatabase } from '../db';
import { createHttpApp } from '../http';
import { CHECK_TIMEOUT_MS, databaseCheck, registerHealth } from '../routes/health';
import { SERVICE_FEATURE_LEVEL, SERVICE_MERGE_BASE, SERVICE_VERSION } from '../version';
import { authOf, sleep } from './support/service';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await removeDir(dir);
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One HTTP/1.1 connection, written by hand, its responses (interim ones too) read in order. */
class RawConnection {
  private buffer = Buffer.alloc(0);
  private readonly answers: RawAnswer[] = [];
  private waiting: ((answer: RawAnswer | null) => void) | null = null;
  private ended = false;
  readonly closed: Promise<unknown>;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.parse();
    });
    socket.on('error', () => {});
    this.closed = once(socket, 'close').then(() => {
      this.ended = true;
      this.waiting?.(null);
      this.waiting = null;
    });
  }

  static async open(port: number): Promise<RawConnection> {
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    return new RawConnection(socket);
  }

  write(text: string): void {
    this.socket.write(text);
  }

  /** The next response, or null when the connection closes first. */
  next(): Promise<RawAnswer | null> {
    const answer = this.answers.shift();
    if (answer) return Promise.resolve(answer);
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  private parse(): void {
    for (;;) {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end === -1) return;
      const [statusLine = '', ...lines] = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      const status = Number(statusLine.split(' ')[1]);
      const length = status < 200 ? 0 : Number(headers['content-length'] ?? 0);
      if (this.buffer.length < end + 4 + length) return;
      const body = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8');
      this.buffer = this.buffer.subarray(end + 4 + length);
      const answer = { status, headers, body };
      if (this.waiting) {
        const resolve = this.waiting;
        this.waiting = null;
        resolve(answer);
      } else this.answers.push(answer);
    }
  }
}

function requestText(method: string, path: string, headers: Record<string, string>, body = ''): string {
  const all = {
    Host: '127.0.0.1',
    ...headers,
    ...(body ? { 'Content-Length': String(Buffer.byteLength(body)) } : {}),
  };
  const lines = Object.entries(all).map(([name, value]) => `${name}: ${value}`);
  return `${method} ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** Reads the interim `100 Continue`: the server has handed the request to its route. */
async function inProgress(connection: RawConnection): Promise<void> {
  expect((await connection.next())?.status).toBe(100);
}

const drainingBody = {
  result: 'error',
  msg: 'The server is shutting down',
  code: 'SERVICE_UNAVAILABLE',
  status: 'draining',
};

describe('GET /health', () => {
  it('answers 200 while the database answers: no credentials, no rate limit, never cached', async () => {
    const server = await startServerProcess({ demo: true, args: ['--rate-limit-ip', '2'] });
    try {
      for (let i = 0; i < 4; i++) {
        const response = await fetch(`${server.url}/health`);
        expect(response.status).toBe(200);
        expect(response.headers.get('cache-control')).toBe('no-store');
        expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
        expect(await response.json()).toEqual({
          result: 'success',
          msg: '',
          status: 'ok',
          checks: { database: 'ok' },
        });
      }
      const head = await fetch(`${server.url}/health`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('cache-control')).toBe('no-store');
      expect(await head.text()).toBe('');
      const post = await fetch(`${server.url}/health`, { method: 'POST' });
      expect(post.status).toBe(405);
      expect(post.headers.get('allow')).toBe('GET, HEAD');
      expect(await post.json()).toEqual({
        result: 'error',
        msg: 'Method Not Allowed',
        code: 'BAD_REQUEST',
        allowed_methods: ['GET', 'HEAD'],
      });
      // It is not part of the REST API.
      const api = await fetch(`${server.url}/api/v1/health`);
      expect(api.status).toBe(404);
      expect(await api.json()).toEqual({ result: 'error', msg: 'Endpoint not found', code: 'NOT_FOUND' });
    } finally {
      await server.dispose();
    }
  }, 60_000);

  it('answers 503 naming the check that fails, with the reason in the log only', async () => {
    const dir = await makeTempDir('confab-health-');
    dirs.push(dir);
    const db = openDatabase(dir);
    db.close();
    const stalled = { name: 'bus', run: () => new Promise<void>(() => {}) };
    const app = createHttpApp({ logger: false });
    registerHealth(app, { checks: [databaseCheck(db, 1), stalled], draining: () => false });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/health`;
      const started = Date.now();
      for (let i = 0; i < 2; i++) {
        const response = await fetch(url);
        expect(response.status).toBe(503);
        expect(response.headers.get('cache-control')).toBe('no-store');
        expect(await response.json()).toEqual({
          result: 'error',
          msg: 'Not ready: database, bus',
          code: 'SERVICE_UNAVAILABLE',
          status: 'unavailable',
          checks: { database: 'failed', bus: 'timed out' },
        });
      }
      // A check that never answers is given up after CHECK_TIMEOUT_MS, not waited for.
      expect(Date.now() - started).toBeLessThan(2 * CHECK_TIMEOUT_MS + 3000);
      // Once per change, not once per probe.
      expect(errors.mock.calls).toEqual([
        ['health: database check failed: The database connection is not open'],
        ['health: bus check timed out: timed out'],
      ]);
    } finally {
      errors.mockRestore();
      await app.close();
    }
  }, 30_000);
});

describe('SIGTERM drains', () => {
  it('answers a waiting long-poll at once, turns health 503 on an open connection, and exits 0', async () => {
    // A drain this long would show if anything below were waited out rather than closed.
    const server = await startServerProcess({ demo: true, args: ['--drain-seconds', '30'] });
    const alice = await loginAs(server, 'alice');
    const queue = await alice.registerQueue({ event_types: ['message'] });
    const queueId = queue.queue_id as string;
    const auth = basicAuthHeader(...authOf(alice));

    // A keep-alive connection between requests, and one that never sent a byte.
    const idle = await RawConnection.open(server.port);
    idle.write(requestText('GET', '/health', {}));
    expect((await idle.next())?.headers.connection).toBe('keep-alive');
    const unused = await RawConnection.open(server.port);
    // A health probe whose headers are under way when the shutdown begins.
    const probe = await RawConnection.open(server.port);
    probe.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const poll = await RawConnection.open(server.port);
    poll.write(
      requestText('GET', `/api/v1/events?queue_id=${queueId}&last_event_id=${queue.last_event_id}`, {
        Authorization: auth,
        Expect: '100-continue',
      }),
    );
    await inProgress(poll);

    const started = Date.now();
    server.signal('SIGTERM');
    const answer = await poll.next();
    expect(answer?.status).toBe(200);
    expect(answer?.headers.connection).toBe('close');
    expect(JSON.parse(answer?.body ?? '')).toEqual({
      result: 'success',
      msg: '',
      events: [],
      queue_id: queueId,
    });
    await poll.closed;
    await idle.closed;
    await unused.closed;
    // No new connection is taken.
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();

    probe.write('\r\n');
    const health = await probe.next();
    expect(health?.status).toBe(503);
    expect(health?.headers['cache-control']).toBe('no-store');
    expect(health?.headers.connection).toBe('close');
    expect(JSON.parse(health?.body ?? '')).toEqual(drainingBody);
    await probe.closed;

    await server.exited();
    expect(server.exitCode).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    await server.dispose();
  }, 90_000);

  it('acknowledges a write in progress, keeps it over the restart, and the queue resumes', async () => {
    const server = await startServerProcess({ demo: true });
    try {
      const alice = await loginAs(server, 'alice');
      const queue = await alice.registerQueue({ event_types: ['message'] });
      const queueId = queue.queue_id as string;
      const auth = basicAuthHeader(...authOf(alice));

      const poll = await RawConnection.open(server.port);
      poll.write(
        requestText('GET', `/api/v1/events?queue_id=${queueId}&last_event_id=${queue.last_event_id}`, {
          Authorization: auth,
          Expect: '100-continue',
        }),
      );
      await inProgress(poll);
      // The message's headers are in, its body not yet.
      const body = new URLSearchParams({
        type: 'stream',
        to: 'general',
        topic: 'shutdown',
        content: 'sent while draining',
      }).toString();
      const write = await RawConnection.open(server.port);
      write.write(
        `POST /api/v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${auth}\r\n` +
          'Content-Type: application/x-www-form-urlencoded\r\nExpect: 100-continue\r\n' +
          `Content-Length: ${body.length}\r\n\r\n`,
      );
      await inProgress(write);

      server.signal('SIGTERM');
      // The answered poll says the drain has begun; only then does the body arrive.
      expect(JSON.parse((await poll.next())?.body ?? '')).toEqual({
        result: 'success',
        msg: '',
        events: [],
        queue_id: queueId,
      });
      write.write(body);
      const sent = await write.next();
      expect(sent?.status).toBe(200);
      expect(sent?.headers.connection).toBe('close');
      const ack = JSON.parse(sent?.body ?? '') as Record<string, unknown>;
      const messageId = ack.id as number;
      expect(ack).toEqual({ result: 'success', msg: '', id: messageId });
      await write.closed;
      await server.exited();
      expect(server.exitCode).toBe(0);

      await server.restart();
      const stored = await alice.request('GET', `/messages/${messageId}`);
      expect((stored.message as { content: string }).content).toBe('<p>sent while draining</p>');
      // The client polls again with the last id it saw: the message, then the restart.
      const resumed = await alice.getEvents({
        queue_id: queueId,
        last_event_id: queue.last_event_id,
        dont_block: true,
      });
      expect(resumed.events.map((e) => [e.id, e.type])).toEqual([
        [0, 'message'],
        [1, 'restart'],
      ]);
      const message = resumed.events[0]?.message as { id: number; content: string };
      // Registered without apply_markdown: the event carries the source text.
      expect([message.id, message.content]).toEqual([messageId, 'sent while draining']);
      expect(resumed.events[1]).toEqual({
        type: 'restart',
        id: 1,
        service_version: SERVICE_VERSION,
        service_feature_level: SERVICE_FEATURE_LEVEL,
        service_merge_base: SERVICE_MERGE_BASE,
        server_generation: expect.any(Number),
      });
      const after = await alice.getEvents({ queue_id: queueId, last_event_id: 1, dont_block: true });
      expect(after.events).toEqual([]);
    } finally {
      await server.dispose();
    }
  }, 120_000);

  it('cuts off a request that outlasts --drain-seconds, and still exits 0', async () => {
    const server = await startServerProcess({ demo: true, args: ['--drain-seconds', '1'] });
    const alice = await loginAs(server, 'alice');
    const write = await RawConnection.open(server.port);
    write.write(
      `POST /api/v1/messages HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${basicAuthHeader(...authOf(alice))}\r\n` +
        'Content-Type: application/x-www-form-urlencoded\r\nExpect: 100-continue\r\nContent-Length: 100\r\n\r\n',
    );
    await inProgress(write);
    const started = Date.now();
    server.signal('SIGTERM');
    await sleep(100);
    // Never finished: no answer at all, rather than part of one.
    write.write('type=stream&to=general');
    expect(await write.next()).toBe(null);
    await server.exited();
    expect(server.exitCode).toBe(0);
    expect(Date.now() - started).toBeLessThan(8000);
    expect(server.stderr()).toContain('confab-server: 1 connection(s) still busy after 1 s, closed');
    await server.dispose();
  }, 60_000);
});
