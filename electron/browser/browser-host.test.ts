/**
 * Browser mode end to end: the page and assets over HTTP with the secret, the WebSocket bridge
 * with its access checks and frames, and, with the real server, pushes to every open window.
 */
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostFrame } from '../../shared/ipc';
import {
  connectWs,
  FIXTURE_INDEX_HTML,
  FrameLog,
  rawRequest,
  writeRendererFixture,
} from '../../test/support/browser-mode';
import { CONTENT_SECURITY_POLICY } from '../core/static-files';
import { type EmbeddedServer, startEmbeddedServer } from '../launcher/embedded-server';
import { type BrowserApp, startBrowserApp } from './start';

const EXPECTED_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; " +
  "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

let tmp: string;
let app: BrowserApp;
let token: string;
let origin: string;
let wsBase: string;
const openSockets: { close(): void }[] = [];

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'confab-host-'));
  await writeRendererFixture(path.join(tmp, 'renderer'));
  // Next to the renderer directory: what a traversal would try to reach.
  await writeFile(path.join(tmp, 'outside.txt'), 'TOP SECRET\n');
  app = await startBrowserApp({
    profileDir: path.join(tmp, 'profile'),
    rendererDir: path.join(tmp, 'renderer'),
    appVersion: '1.2.3-test',
    defaultServerUrl: 'http://127.0.0.1:9',
  });
  token = new URL(app.url).searchParams.get('token') ?? '';
  origin = `http://127.0.0.1:${app.port}`;
  wsBase = `ws://127.0.0.1:${app.port}/bridge`;
});

afterAll(async () => {
  for (const s of openSockets) s.close();
  try {
    await app?.close();
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
});

async function open(url: string, from: string = origin): Promise<FrameLog> {
  const outcome = await connectWs(url, from);
  if (!outcome.ws) throw new Error(`refused with ${outcome.status}`);
  openSockets.push(outcome.ws);
  return new FrameLog(outcome.ws);
}

describe('the page', () => {
  it('prints a URL of the expected form, with a long random token', () => {
    expect(app.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+$/);
    expect(token.length).toBeGreaterThanOrEqual(43);
  });

  it('is served with the token, with the security headers', async () => {
    const res = await rawRequest(app.port, `/?token=${token}`);
    expect(res.status).toBe(200);
    expect(res.body).toBe(FIXTURE_INDEX_HTML);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(EXPECTED_CSP);
    expect(CONTENT_SECURITY_POLICY).toBe(EXPECTED_CSP);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('answers HEAD without a body', async () => {
    const res = await rawRequest(app.port, `/index.html?token=${token}`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.body).toBe('');
  });

  it.each([
    ['no token', '/'],
    ['an empty token', '/?token='],
    ['a wrong token', '/?token=wrong'],
    ['index.html without token', '/index.html'],
  ])('is refused with %s (403)', async (_what, requestPath) => {
    const res = await rawRequest(app.port, requestPath);
    expect(res.status).toBe(403);
    expect(res.body).toMatch(/^Forbidden: open the address that `npm start` printed/);
    expect(res.body).not.toContain('Confab fixture');
    expect(res.headers['content-security-policy']).toBe(EXPECTED_CSP);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('sets a page cookie with the token, which serves a reload without it, and opens no WebSocket', async () => {
    const first = await rawRequest(app.port, `/?token=${token}`);
    const setCookie = String(first.headers['set-cookie'] ?? '');
    expect(setCookie).toMatch(/^confab_page=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
    const cookie = setCookie.split(';')[0] as string;
    // The cookie is derived from the secret, not the secret.
    expect(cookie).not.toContain(token);
    const reload = await rawRequest(app.port, '/', { headers: { Cookie: `other=1; ${cookie}` } });
    expect(reload.status).toBe(200);
    expect(reload.body).toBe(FIXTURE_INDEX_HTML);
    expect(reload.headers['set-cookie']).toBeUndefined();
    const wrong = await rawRequest(app.port, '/', { headers: { Cookie: `${cookie.slice(0, -1)}x` } });
    expect(wrong.status).toBe(403);
    const ws = await connectWs(`${wsBase}?token=${cookie.split('=')[1]}`, origin);
    expect(ws.ws).toBeUndefined();
    expect(ws.status).toBe(403);
  });

  it('is refused with a token one character off', async () => {
    const wrong = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    expect((await rawRequest(app.port, `/?token=${wrong}`)).status).toBe(403);
  });

  it('is refused under a foreign Host name (DNS rebinding)', async () => {
    const res = await rawRequest(app.port, `/?token=${token}`, {
      headers: { Host: `evil.example:${app.port}` },
    });
    expect(res.status).toBe(403);
    expect(res.body).toBe('Forbidden: unknown host.\n');
  });

  it('accepts localhost as the host name', async () => {
    const res = await rawRequest(app.port, `/?token=${token}`, {
      headers: { Host: `localhost:${app.port}` },
    });
    expect(res.status).toBe(200);
  });

  it('refuses other methods (405)', async () => {
    const res = await rawRequest(app.port, `/?token=${token}`, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });
});

describe('static assets', () => {
  it.each([
    ['/assets/app.js', 'text/javascript; charset=utf-8', 'console.log("confab");\n'],
    ['/assets/app.css', 'text/css; charset=utf-8', 'body { margin: 0; }\n'],
    ['/assets/logo.svg', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"/>\n'],
    ['/assets/font.woff2', 'font/woff2', 'wOF2'],
  ])('serves %s as %s without the token', async (requestPath, type, body) => {
    const res = await rawRequest(app.port, requestPath);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.body).toBe(body);
    expect(res.headers['content-security-policy']).toBe(EXPECTED_CSP);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it.each([
    '/../outside.txt',
    '/assets/../../outside.txt',
    '/%2e%2e/outside.txt',
    '/assets/..%2f..%2foutside.txt',
    '/assets/%2e%2e%2f%2e%2e%2foutside.txt',
    '/..%5coutside.txt',
    '/%2E%2E/%2E%2E/etc/passwd',
    '//etc/passwd',
    '/.env',
    '/assets/%00app.js',
    '/%E0%A4%A',
    '/assets',
    '/assets/',
    '/missing.js',
  ])('answers 404 for %s', async (requestPath) => {
    const res = await rawRequest(app.port, requestPath);
    expect(res.status).toBe(404);
    expect(res.body).toBe('Not found.\n');
    expect(res.headers['content-security-policy']).toBe(EXPECTED_CSP);
  });
});

describe('the WebSocket bridge', () => {
  it.each([
    ['no token', () => [wsBase, origin]],
    ['an empty token', () => [`${wsBase}?token=`, origin]],
    ['a wrong token', () => [`${wsBase}?token=${token}x`, origin]],
    ['a foreign Origin', () => [`${wsBase}?token=${token}`, 'http://evil.example']],
    ['our host on another port', () => [`${wsBase}?token=${token}`, `http://127.0.0.1:${app.port + 1}`]],
    ['an https Origin', () => [`${wsBase}?token=${token}`, `https://127.0.0.1:${app.port}`]],
    ['the opaque Origin "null"', () => [`${wsBase}?token=${token}`, 'null']],
  ])('refuses a connection with %s (403)', async (_what, args) => {
    const [url, from] = args();
    const outcome = await connectWs(url as string, from);
    expect(outcome.status).toBe(403);
  });

  it('refuses a connection without an Origin (403)', async () => {
    const outcome = await connectWs(`${wsBase}?token=${token}`);
    expect(outcome.status).toBe(403);
  });

  it('refuses upgrades on other paths (404)', async () => {
    const outcome = await connectWs(`ws://127.0.0.1:${app.port}/other?token=${token}`, origin);
    expect(outcome.status).toBe(404);
  });

  it('round-trips app.getInfo through the real core', async () => {
    const log = await open(`${wsBase}?token=${token}`);
    expect(await log.invoke(1, 'app.getInfo', {})).toEqual({
      kind: 'result',
      id: 1,
      result: {
        ok: true,
        value: {
          mode: 'browser',
          appVersion: '1.2.3-test',
          defaultServerUrl: 'http://127.0.0.1:9',
          demoLogins: [],
          secretStorageEncrypted: false,
        },
      },
    });
    expect(await log.invoke(2, 'app.getState', {})).toEqual({
      kind: 'result',
      id: 2,
      result: { ok: true, value: { accounts: [], activeAccountId: null } },
    });
  });

  it('accepts the localhost Origin too', async () => {
    const log = await open(
      `ws://localhost:${app.port}/bridge?token=${token}`,
      `http://localhost:${app.port}`,
    );
    const frame = await log.invoke(7, 'app.getState', {});
    expect(frame).toMatchObject({ kind: 'result', id: 7, result: { ok: true } });
  });

  it('survives malformed frames and answers the ones it can', async () => {
    const log = await open(`${wsBase}?token=${token}`);
    log.ws.send('not json');
    log.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    log.ws.send('[1,2]');
    log.ws.send('null');
    log.ws.send(JSON.stringify({ kind: 'invoke', id: -1, channel: 'app.getInfo', payload: {} }));
    log.ws.send(JSON.stringify({ kind: 'invoke', id: 1.5, channel: 'app.getInfo', payload: {} }));
    log.ws.send(JSON.stringify({ kind: 'invoke', id: 10, channel: 42, payload: {} }));
    log.ws.send(JSON.stringify({ kind: 'push', id: 11, channel: 'app.state', payload: {} }));
    log.ws.send(JSON.stringify({ kind: 'invoke', id: 12, channel: 'x'.repeat(101), payload: {} }));
    expect(await log.waitFor((f) => f.kind === 'result' && f.id === 10)).toEqual({
      kind: 'result',
      id: 10,
      result: { ok: false, error: { message: 'Invalid request frame.', code: null } },
    });
    expect(await log.waitFor((f) => f.kind === 'result' && f.id === 11)).toMatchObject({
      result: { ok: false, error: { message: 'Invalid request frame.' } },
    });
    expect(await log.waitFor((f) => f.kind === 'result' && f.id === 12)).toMatchObject({
      result: { ok: false, error: { message: 'Invalid request frame.' } },
    });

    // Unknown channels and bad payloads are refused by the core, as data.
    const unknown = await log.invoke(13, 'app.nope', {});
    expect(unknown).toMatchObject({ kind: 'result', id: 13, result: { ok: false } });
    const badPayload = await log.invoke(14, 'accounts.signIn', {
      serverUrl: 'ftp://x',
      email: '',
      password: '',
    });
    expect(badPayload).toMatchObject({ kind: 'result', id: 14, result: { ok: false } });

    // The socket and the host are still fine.
    expect(await log.invoke(15, 'app.getState', {})).toMatchObject({ id: 15, result: { ok: true } });
    // Nothing was answered for frames without a usable id.
    const ids = log.frames.map((f) => (f.kind === 'result' ? f.id : null));
    expect(ids).toEqual([10, 11, 12, 13, 14, 15]);
  });

  it('closes a socket that sends a frame over 1 MiB (1009) and keeps serving others', async () => {
    const log = await open(`${wsBase}?token=${token}`);
    const closed = new Promise<number>((resolve) => log.ws.once('close', (code) => resolve(code)));
    log.ws.on('error', () => undefined);
    log.ws.send(
      JSON.stringify({ kind: 'invoke', id: 1, channel: 'app.getInfo', payload: 'x'.repeat(1024 * 1024) }),
    );
    expect(await closed).toBe(1009);
    const other = await open(`${wsBase}?token=${token}`);
    expect(await other.invoke(1, 'app.getState', {})).toMatchObject({ result: { ok: true } });
  });

  it('passes the socket as the sender, trusted while it is open and not after', async () => {
    // A recording core: the point is what the host hands to handleInvoke, not the core.
    const senders: unknown[] = [];
    const { startBrowserHost } = await import('./browser-host');
    const host = await startBrowserHost({
      core: {
        handleInvoke: async (sender) => {
          senders.push(sender);
          return { ok: true, value: host.isTrustedSender(sender) };
        },
        onPush: () => () => undefined,
      },
      rendererDir: path.join(tmp, 'renderer'),
      secret: 'fixed-secret',
    });
    try {
      const outcome = await connectWs(
        `ws://127.0.0.1:${host.port}/bridge?token=fixed-secret`,
        `http://127.0.0.1:${host.port}`,
      );
      if (!outcome.ws) throw new Error('refused');
      const log = new FrameLog(outcome.ws);
      expect(await log.invoke(1, 'app.getInfo', {})).toEqual({
        kind: 'result',
        id: 1,
        result: { ok: true, value: true },
      });
      const closed = new Promise<void>((resolve) => outcome.ws.once('close', () => resolve()));
      outcome.ws.close();
      await closed;
      await expect.poll(() => host.isTrustedSender(senders[0]), { timeout: 10_000 }).toBe(false);
      expect(host.isTrustedSender({})).toBe(false);
      expect(host.isTrustedSender(null)).toBe(false);
    } finally {
      await host.close();
    }
  });
});

describe('close()', () => {
  it('closes open sockets and stops listening', async () => {
    const dir = path.join(tmp, 'profile-close');
    await mkdir(dir);
    const other = await startBrowserApp({
      profileDir: dir,
      rendererDir: path.join(tmp, 'renderer'),
      appVersion: '1',
      defaultServerUrl: null,
    });
    const otherToken = new URL(other.url).searchParams.get('token');
    const outcome = await connectWs(
      `ws://127.0.0.1:${other.port}/bridge?token=${otherToken}`,
      `http://127.0.0.1:${other.port}`,
    );
    const ws = outcome.ws;
    if (!ws) throw new Error('refused');
    const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
    await other.close();
    await closed;
    await expect(rawRequest(other.port, '/assets/app.js')).rejects.toThrow(/ECONNREFUSED/);
    // Its secrets file would be 0600; nothing was stored here, so there is none.
    await expect(readFile(path.join(dir, 'secrets.json'))).rejects.toThrow(/ENOENT/);
  });
});

describe('with the real server', () => {
  const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  let server: EmbeddedServer;
  let served: BrowserApp;
  let demo: { url: string; password: string; users: Record<string, string> };
  let profileDir: string;

  beforeAll(async () => {
    server = await startEmbeddedServer({ repoRoot, dataDir: path.join(tmp, 'server-data') });
    demo = JSON.parse(await readFile(server.demoCredentialsFile, 'utf8'));
    profileDir = path.join(tmp, 'profile-real');
    served = await startBrowserApp({
      profileDir,
      rendererDir: path.join(tmp, 'renderer'),
      appVersion: '1',
      defaultServerUrl: server.url,
      demoCredentialsFile: server.demoCredentialsFile,
    });
  });

  afterAll(async () => {
    try {
      await served?.close();
    } finally {
      await server?.stop();
    }
  });

  /** Matches a push on `channel` whose payload passes `test` (payload typed by the caller). */
  const isPush =
    (channel: string, test: (payload: never) => boolean) =>
    (f: HostFrame): boolean =>
      f.kind === 'push' && f.channel === channel && test(f.payload as never);

  it('sends every push to every open window, and never the API key', async () => {
    const t = new URL(served.url).searchParams.get('token');
    const from = `http://127.0.0.1:${served.port}`;
    const a = await open(`ws://127.0.0.1:${served.port}/bridge?token=${t}`, from);
    const b = await open(`ws://127.0.0.1:${served.port}/bridge?token=${t}`, from);

    const signIn = await a.invoke(1, 'accounts.signIn', {
      serverUrl: server.url,
      email: demo.users.alice,
      password: demo.password,
    });
    expect(signIn).toMatchObject({
      kind: 'result',
      id: 1,
      result: { ok: true, value: { email: demo.users.alice } },
    });
    const accountId = (signIn as { result: { value: { id: string } } }).result.value.id;

    // Both windows learn of the account and get its snapshot, though only one asked.
    const snapshots = [];
    for (const log of [a, b]) {
      await log.waitFor(
        isPush('app.state', (p: { accounts: { id: string }[] }) =>
          p.accounts.some((x) => x.id === accountId),
        ),
      );
      snapshots.push(
        await log.waitFor(
          isPush('account.snapshot', (p: { accountId: string }) => p.accountId === accountId),
        ),
      );
    }
    const snapshot = (
      snapshots[0] as { payload: { state: { user_settings: { twenty_four_hour_time: boolean } } } }
    ).payload;
    const wanted = !snapshot.state.user_settings.twenty_four_hour_time;

    // A change made through one window comes back to both through the server's event queue.
    const update = await b.invoke(2, 'settings.update', {
      accountId,
      changes: { twenty_four_hour_time: wanted },
    });
    expect(update).toMatchObject({ kind: 'result', id: 2, result: { ok: true } });
    for (const log of [a, b]) {
      await log.waitFor(
        isPush(
          'account.events',
          (p: { accountId: string; events: Record<string, unknown>[] }) =>
            p.accountId === accountId &&
            p.events.some(
              (e) =>
                e.type === 'user_settings' &&
                e.op === 'update' &&
                e.property === 'twenty_four_hour_time' &&
                e.value === wanted,
            ),
        ),
      );
    }

    // The key is in the 0600 secrets file and in no frame.
    const secretsFile = path.join(profileDir, 'secrets.json');
    expect((await stat(secretsFile)).mode & 0o777).toBe(0o600);
    const keys = Object.values(JSON.parse(await readFile(secretsFile, 'utf8')) as Record<string, string>);
    expect(keys).toHaveLength(1);
    const key = keys[0] ?? '';
    expect(key.length).toBeGreaterThanOrEqual(32);
    for (const log of [a, b]) for (const raw of log.raw) expect(raw).not.toContain(key);
  });
});
