// The Electron main process (dist/electron/main.cjs) run under Node with a stand-in for the
// `electron` module: the binary cannot be had here, but the glue's wiring can be checked —
// what it registers, the windows it opens, how it answers IPC and serves app://confab.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildElectron } from '../../scripts/build-electron';
import { electronInvokeChannel, INVOKE_CHANNELS } from '../../shared/ipc';
import { mainWindowOptions } from './electron-policy';
import { type EmbeddedServer, startEmbeddedServer } from './embedded-server';
import { FIXTURE_INDEX_HTML, writeRendererFixture } from './test-support';

type Fn = (...args: never[]) => unknown;
type Handler = (event: unknown, payload: unknown) => Promise<unknown>;

interface FakeContents {
  mainFrame: { url: string; parent: null };
  sent: Array<[string, unknown]>;
  send(channel: string, payload: unknown): void;
  isDestroyed(): boolean;
}

/** Records what main.cjs asks of Electron; answers like Electron where the glue needs it. */
function fakeElectron(version: string) {
  const calls: Array<[string, ...unknown[]]> = [];
  const appListeners = new Map<string, Fn[]>();
  const ipcHandlers = new Map<string, Handler>();
  const protocolHandlers = new Map<string, (request: Request) => Promise<Response>>();
  const windows: FakeWindow[] = [];
  const opened: string[] = [];
  let resolveReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => {
    resolveReady = resolve;
  });
  const permission: { request?: Fn; check?: Fn } = {};

  class FakeWindow {
    readonly webContents: FakeContents = {
      mainFrame: { url: '', parent: null },
      sent: [],
      send(channel, payload) {
        this.sent.push([channel, payload]);
      },
      isDestroyed: () => false,
    };
    constructor(readonly options: unknown) {
      windows.push(this);
    }
    static getAllWindows = () => [...windows];
    once() {}
    show() {}
    isMinimized = () => false;
    restore() {}
    focus() {}
    async loadURL(url: string) {
      this.webContents.mainFrame.url = url;
    }
  }

  const electron = {
    app: {
      setPath: (...a: unknown[]) => calls.push(['app.setPath', ...a]),
      enableSandbox: () => calls.push(['app.enableSandbox']),
      requestSingleInstanceLock: () => {
        calls.push(['app.requestSingleInstanceLock']);
        return true;
      },
      on: (event: string, listener: Fn) =>
        appListeners.set(event, [...(appListeners.get(event) ?? []), listener]),
      whenReady: () => ready,
      isReady: () => true,
      getVersion: () => version,
      quit: () => calls.push(['app.quit']),
      exit: (code: number) => calls.push(['app.exit', code]),
    },
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown) =>
        calls.push(['protocol.registerSchemesAsPrivileged', schemes]),
      handle: (scheme: string, handler: (request: Request) => Promise<Response>) =>
        protocolHandlers.set(scheme, handler),
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (h: Fn) => {
          permission.request = h;
        },
        setPermissionCheckHandler: (h: Fn) => {
          permission.check = h;
        },
      },
    },
    ipcMain: { handle: (channel: string, handler: Handler) => ipcHandlers.set(channel, handler) },
    BrowserWindow: FakeWindow,
    net: { isOnline: () => true },
    powerMonitor: { on: () => undefined },
    shell: {
      openExternal: async (url: string) => {
        opened.push(url);
      },
    },
    // No OS keychain: the glue must fall back to the plain 0600 file and say so.
    safeStorage: {
      isEncryptionAvailable: () => false,
      getSelectedStorageBackend: () => 'basic_text',
    },
  };
  return {
    electron,
    calls,
    appListeners,
    ipcHandlers,
    protocolHandlers,
    windows,
    opened,
    permission,
    resolveReady,
  };
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
let tmp: string;
let outDir: string;
let profileDir: string;
let server: EmbeddedServer;
let fake: ReturnType<typeof fakeElectron>;
let callsBeforeReady: Array<[string, ...unknown[]]>;
const signalListeners = { SIGTERM: process.listeners('SIGTERM'), SIGINT: process.listeners('SIGINT') };

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'confab-main-'));
  outDir = path.join(tmp, 'dist', 'electron');
  profileDir = path.join(tmp, 'profile');
  await buildElectron(outDir);
  await writeRendererFixture(path.join(tmp, 'dist', 'renderer'));
  await writeFile(path.join(tmp, 'dist', 'outside.txt'), 'TOP SECRET\n');
  server = await startEmbeddedServer({ repoRoot, dataDir: path.join(tmp, 'server-data') });

  fake = fakeElectron('7.7.7');
  const mainFile = path.join(outDir, 'main.cjs');
  const nodeRequire = createRequire(mainFile);
  const require = (id: string) => (id === 'electron' ? fake.electron : nodeRequire(id));
  const module = { exports: {} };
  const saved = { ...process.env };
  process.env.CONFAB_PROFILE_DIR = profileDir;
  process.env.CONFAB_SERVER_URL = server.url;
  process.env.CONFAB_DEMO_CREDENTIALS_FILE = server.demoCredentialsFile;
  try {
    const code = await readFile(mainFile, 'utf8');
    new Function('require', 'module', 'exports', '__dirname', '__filename', code)(
      require,
      module,
      module.exports,
      outDir,
      mainFile,
    );
  } finally {
    process.env = saved;
  }
  callsBeforeReady = [...fake.calls];
  fake.resolveReady();
  await waitUntil(() => fake.windows.length === 1);
});

afterAll(async () => {
  try {
    // Quit the way Electron would: will-quit lets the core stop, then the app quits again.
    const event = { preventDefault: () => undefined };
    for (const l of fake?.appListeners.get('will-quit') ?? []) (l as (e: unknown) => void)(event);
    await waitUntil(() => fake.calls.some(([name]) => name === 'app.quit'));
  } finally {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      for (const l of process.listeners(signal))
        if (!signalListeners[signal].includes(l)) process.off(signal, l);
    }
    await server?.stop();
    await rm(tmp, { recursive: true, force: true });
  }
});

/** expect.poll for hooks (where vitest does not allow it). */
async function waitUntil(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for a condition');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const appFrame = { url: 'app://confab/', parent: null };

describe('Electron main', () => {
  it('sets up the profile, the sandbox and the app:// scheme before ready', () => {
    expect(callsBeforeReady).toEqual([
      ['app.setPath', 'userData', path.join(profileDir, 'electron')],
      ['app.enableSandbox'],
      [
        'protocol.registerSchemesAsPrivileged',
        [
          {
            scheme: 'app',
            privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
          },
        ],
      ],
      ['app.requestSingleInstanceLock'],
    ]);
  });

  it('opens one window with the locked-down options, on app://confab/', () => {
    const [win] = fake.windows;
    expect(win?.options).toEqual(mainWindowOptions(path.join(outDir, 'preload.cjs')));
    expect(win?.webContents.mainFrame.url).toBe('app://confab/');
  });

  it('handles exactly the invoke channels of the contract', () => {
    expect([...fake.ipcHandlers.keys()].sort()).toEqual(INVOKE_CHANNELS.map(electronInvokeChannel).sort());
  });

  it('answers the app page through the core, with safeStorage unavailable reported', async () => {
    const handler = fake.ipcHandlers.get('confab:invoke:app.getInfo');
    const demo = JSON.parse(await readFile(server.demoCredentialsFile, 'utf8')) as {
      users: Record<string, string>;
    };
    const result = (await handler?.({ senderFrame: appFrame }, {})) as {
      ok: true;
      value: { demoLogins: { email: string }[] };
    };
    expect(result).toMatchObject({
      ok: true,
      value: {
        mode: 'electron',
        appVersion: '7.7.7',
        defaultServerUrl: server.url,
        secretStorageEncrypted: false,
      },
    });
    expect(result.value.demoLogins.map((l) => l.email)).toContain(demo.users.alice);
  });

  it.each([
    ['a subframe', { url: 'app://confab/', parent: appFrame }],
    ['another origin', { url: 'https://example.com/', parent: null }],
    ['no frame', null],
  ])('refuses IPC from %s', async (_what, senderFrame) => {
    const handler = fake.ipcHandlers.get('confab:invoke:app.getState');
    expect(await handler?.({ senderFrame }, {})).toEqual({
      ok: false,
      error: { message: 'Refused: untrusted sender', code: 'UNTRUSTED_SENDER' },
    });
  });

  it('pushes to windows showing the app, not to others', async () => {
    const other = new fake.electron.BrowserWindow({});
    await other.loadURL('https://example.com/');
    const demo = JSON.parse(await readFile(server.demoCredentialsFile, 'utf8')) as {
      password: string;
      users: Record<string, string>;
    };
    const signIn = fake.ipcHandlers.get('confab:invoke:accounts.signIn');
    const result = await signIn?.(
      { senderFrame: appFrame },
      { serverUrl: server.url, email: demo.users.bob, password: demo.password },
    );
    expect(result).toMatchObject({ ok: true, value: { email: demo.users.bob } });
    const [win] = fake.windows;
    await expect
      .poll(() => win?.webContents.sent.map(([channel]) => channel), { timeout: 20_000 })
      .toEqual(expect.arrayContaining(['confab:push:app.state', 'confab:push:account.snapshot']));
    expect(other.webContents.sent).toEqual([]);
  });

  it('serves the renderer on app://confab with the CSP, and nothing outside it', async () => {
    const handle = fake.protocolHandlers.get('app');
    const page = await handle?.(new Request('app://confab/'));
    expect(page?.status).toBe(200);
    expect(await page?.text()).toBe(FIXTURE_INDEX_HTML);
    expect(page?.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page?.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page?.headers.get('x-content-type-options')).toBe('nosniff');
    const js = await handle?.(new Request('app://confab/assets/app.js'));
    expect(js?.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    for (const url of [
      'app://confab/assets/..%2f..%2foutside.txt',
      'app://confab/.env',
      'app://other/index.html',
    ]) {
      const res = await handle?.(new Request(url));
      expect(res?.status).toBe(404);
      expect(await res?.text()).toBe('Not found.');
    }
  });

  it('allows the notifications permission only', () => {
    const answers: boolean[] = [];
    const request = fake.permission.request as unknown as (
      c: unknown,
      p: string,
      cb: (ok: boolean) => void,
    ) => void;
    request(null, 'notifications', (ok) => answers.push(ok));
    request(null, 'media', (ok) => answers.push(ok));
    request(null, 'geolocation', (ok) => answers.push(ok));
    expect(answers).toEqual([true, false, false]);
    const check = fake.permission.check as unknown as (c: unknown, p: string) => boolean;
    expect([check(null, 'notifications'), check(null, 'clipboard-read')]).toEqual([true, false]);
  });

  it('guards every web contents: no new windows, no navigation away, safe links outside', () => {
    const handlers = new Map<string, Fn>();
    let openHandler: ((d: { url: string }) => unknown) | null = null;
    const contents = {
      setWindowOpenHandler: (h: (d: { url: string }) => unknown) => {
        openHandler = h;
      },
      on: (event: string, h: Fn) => handlers.set(event, h),
    };
    for (const l of fake.appListeners.get('web-contents-created') ?? [])
      (l as (e: unknown, c: unknown) => void)({}, contents);
    const open = openHandler as unknown as (d: { url: string }) => unknown;
    expect(open({ url: 'https://example.com/x' })).toEqual({ action: 'deny' });
    expect(open({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(fake.opened).toEqual(['https://example.com/x']);

    const navigate = (url: string) => {
      let prevented = false;
      (handlers.get('will-navigate') as unknown as (e: unknown) => void)({
        url,
        preventDefault: () => (prevented = true),
      });
      return prevented;
    };
    expect(navigate('app://confab/index.html')).toBe(false);
    expect(navigate('https://evil.example/')).toBe(true);
    expect(navigate('file:///etc/passwd')).toBe(true);
    expect(fake.opened).toEqual(['https://example.com/x', 'https://evil.example/']);

    let webviewPrevented = false;
    (handlers.get('will-attach-webview') as unknown as (e: unknown) => void)({
      preventDefault: () => (webviewPrevented = true),
    });
    expect(webviewPrevented).toBe(true);
  });
});
