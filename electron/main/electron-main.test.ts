// The Electron main process (dist/electron/main.cjs) run under Node with a stand-in for the
// `electron` module: the binary cannot be had here, but the glue's wiring can be checked —
// what it registers, the windows it opens, how it answers IPC and serves app://confab.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildElectron } from '../../scripts/build-electron';
import { ApiClient } from '../../shared/client';
import { electronInvokeChannel, INVOKE_CHANNELS } from '../../shared/ipc';
import { FIXTURE_INDEX_HTML, writeRendererFixture } from '../../test/support/browser-mode';
import { mainWindowOptions } from '../core/desktop/electron-policy';
import { ELECTRON_ENV } from '../launcher/electron-env';
import { type EmbeddedServer, startEmbeddedServer } from '../launcher/embedded-server';

type Fn = (...args: never[]) => unknown;
type Handler = (event: unknown, payload: unknown) => Promise<unknown>;

interface FakeContents {
  mainFrame: { url: string; parent: null };
  sent: Array<[string, unknown]>;
  send(channel: string, payload: unknown): void;
  isDestroyed(): boolean;
}

interface FakeOptions {
  version: string;
  isPackaged: boolean;
}

/** Records what main.cjs asks of Electron; answers like Electron where the glue needs it. */
function fakeElectron({ version, isPackaged }: FakeOptions) {
  const calls: Array<[string, ...unknown[]]> = [];
  const appListeners = new Map<string, Fn[]>();
  const ipcHandlers = new Map<string, Handler>();
  const protocolHandlers = new Map<string, (request: Request) => Promise<Response>>();
  const windows: FakeWindow[] = [];
  const trays: FakeTray[] = [];
  const notifications: FakeNotification[] = [];
  const utilityProcesses: ChildProcess[] = [];
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
    readonly listeners = new Map<string, Fn[]>();
    maximized = false;
    focused = 0;
    overlay: unknown[] = [];
    constructor(readonly options: { x?: number; y?: number; width?: number; height?: number }) {
      windows.push(this);
    }
    static getAllWindows = () => [...windows];
    on(event: string, listener: Fn) {
      this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    }
    emit(event: string) {
      for (const l of this.listeners.get(event) ?? []) (l as () => void)();
    }
    once() {}
    show() {}
    isDestroyed = () => false;
    isVisible = () => true;
    isFocused = () => false;
    isMinimized = () => false;
    isMaximized = () => this.maximized;
    maximize() {
      this.maximized = true;
    }
    getNormalBounds() {
      const { x = 0, y = 0, width = 0, height = 0 } = this.options;
      return { x, y, width, height };
    }
    setOverlayIcon(...args: unknown[]) {
      this.overlay.push(args);
    }
    restore() {}
    focus() {
      this.focused += 1;
    }
    async loadURL(url: string) {
      this.webContents.mainFrame.url = url;
    }
  }

  class FakeTray {
    tooltips: string[] = [];
    menu: unknown = null;
    destroyed = false;
    constructor(readonly image: unknown) {
      trays.push(this);
    }
    setToolTip(text: string) {
      this.tooltips.push(text);
    }
    setContextMenu(menu: unknown) {
      this.menu = menu;
    }
    on() {}
    destroy() {
      this.destroyed = true;
    }
  }

  class FakeNotification {
    static isSupported = () => true;
    readonly listeners = new Map<string, Fn>();
    shown = false;
    constructor(readonly options: { title: string; body: string }) {
      notifications.push(this);
    }
    on(event: string, listener: Fn) {
      this.listeners.set(event, listener);
    }
    show() {
      this.shown = true;
    }
  }

  const electron = {
    app: {
      isPackaged,
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
      setBadgeCount: (count: number) => calls.push(['app.setBadgeCount', count]),
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
        availableSpellCheckerLanguages: ['de', 'en-GB', 'en-US', 'fr'],
        setSpellCheckerLanguages: (languages: string[]) =>
          calls.push(['setSpellCheckerLanguages', languages]),
      },
    },
    screen: {
      getPrimaryDisplay: () => DISPLAY,
      getAllDisplays: () => [DISPLAY],
    },
    nativeImage: {
      createFromPath: (file: string) => {
        calls.push(['nativeImage.createFromPath', file]);
        return { file };
      },
    },
    Menu: { buildFromTemplate: (template: unknown) => template },
    Tray: FakeTray,
    Notification: FakeNotification,
    // Runs the bundle the way Electron's utility process would: a separate Node process.
    utilityProcess: {
      fork: (modulePath: string, args: string[], options: { stdio: string }) => {
        calls.push(['utilityProcess.fork', modulePath, args, options.stdio]);
        const child = spawn(process.execPath, [modulePath, ...args], {
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, NODE_PATH: path.join(repoRoot, 'node_modules') },
        });
        utilityProcesses.push(child);
        return child;
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
    trays,
    notifications,
    utilityProcesses,
    opened,
    permission,
    resolveReady,
  };
}

const DISPLAY = { id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1040 } };
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const signalListeners = { SIGTERM: process.listeners('SIGTERM'), SIGINT: process.listeners('SIGINT') };
let tmp: string;
let outDir: string;

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'confab-main-'));
  outDir = path.join(tmp, 'dist', 'electron');
  await buildElectron(outDir);
  await writeRendererFixture(path.join(tmp, 'dist', 'renderer'));
  await writeFile(path.join(tmp, 'dist', 'outside.txt'), 'TOP SECRET\n');
});

afterAll(async () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    for (const l of process.listeners(signal))
      if (!signalListeners[signal].includes(l)) process.off(signal, l);
  }
  await rm(tmp, { recursive: true, force: true });
});

type Fake = ReturnType<typeof fakeElectron>;

/** Evaluates main.cjs with `require('electron')` answered by the fake, in the given environment. */
async function loadMain(fake: Fake, env: Record<string, string>): Promise<Array<[string, ...unknown[]]>> {
  const mainFile = path.join(outDir, 'main.cjs');
  const nodeRequire = createRequire(mainFile);
  // The bundle's external packages (better-sqlite3, a native module) sit beside it in a
  // packaged app; here they are the repository's, since the bundle was built into a temp dir.
  const repoRequire = createRequire(import.meta.url);
  const require = (id: string) =>
    id === 'electron' ? fake.electron : id.startsWith('.') ? nodeRequire(id) : repoRequire(id);
  const module = { exports: {} };
  const saved = { ...process.env };
  for (const name of Object.values(ELECTRON_ENV)) delete process.env[name];
  Object.assign(process.env, env);
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
  const callsBeforeReady = [...fake.calls];
  fake.resolveReady();
  await waitUntil(() => fake.windows.length === 1);
  return callsBeforeReady;
}

/** Quits the way Electron would: will-quit lets the core (and server) stop, then the app quits again. */
async function quit(fake: Fake | undefined): Promise<void> {
  if (!fake) return;
  const event = { preventDefault: () => undefined };
  for (const l of fake.appListeners.get('will-quit') ?? []) (l as (e: unknown) => void)(event);
  await waitUntil(() => fake.calls.some(([name]) => name === 'app.quit'));
}

/** expect.poll for hooks (where vitest does not allow it). */
async function waitUntil(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for a condition');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const appFrame = { url: 'app://confab/', parent: null };
let profileDir: string;
let server: EmbeddedServer;
let fake: Fake;
let callsBeforeReady: Array<[string, ...unknown[]]>;
const SAVED_WINDOW = { x: 100, y: 80, width: 900, height: 650, maximized: true };

describe('Electron main, started by the launcher', () => {
  beforeAll(async () => {
    profileDir = path.join(tmp, 'profile');
    await mkdir(profileDir, { recursive: true });
    await writeFile(path.join(profileDir, 'window-state.json'), JSON.stringify(SAVED_WINDOW));
    server = await startEmbeddedServer({ repoRoot, dataDir: path.join(tmp, 'server-data') });
    fake = fakeElectron({ version: '7.7.7', isPackaged: false });
    callsBeforeReady = await loadMain(fake, {
      CONFAB_PROFILE_DIR: profileDir,
      CONFAB_SERVER_URL: server.url,
      CONFAB_DEMO_CREDENTIALS_FILE: server.demoCredentialsFile,
    });
  });

  afterAll(async () => {
    try {
      await quit(fake);
    } finally {
      await server?.stop();
    }
  });

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

  it('opens one window with the locked-down options, on app://confab/, where it was last', () => {
    const [win] = fake.windows;
    const { maximized: _, ...bounds } = SAVED_WINDOW;
    expect(win?.options).toEqual(mainWindowOptions(path.join(outDir, 'preload.cjs'), bounds));
    expect(win?.options).toMatchObject({
      x: 100,
      y: 80,
      width: 900,
      height: 650,
      webPreferences: {
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        webviewTag: false,
        preload: path.join(outDir, 'preload.cjs'),
      },
    });
    expect(win?.maximized).toBe(true);
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

  it('loads the tray icon and the taskbar overlay from the images beside main.cjs', async () => {
    const loaded = fake.calls.filter(([name]) => name === 'nativeImage.createFromPath').map(([, f]) => f);
    const icons = path.join(outDir, 'icons');
    expect([...loaded].sort()).toEqual([path.join(icons, 'badge-overlay.png'), path.join(icons, 'tray.png')]);
    for (const file of loaded) expect((await readFile(file as string)).length).toBeGreaterThan(0);
    expect(fake.trays[0]?.image).toEqual({ file: path.join(icons, 'tray.png') });
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

  it('keeps the badge, tray and notifications in step with the account (a real message)', async () => {
    const demo = JSON.parse(await readFile(server.demoCredentialsFile, 'utf8')) as {
      password: string;
      users: Record<string, string>;
    };
    const [win] = fake.windows;
    const bobSnapshot = win?.webContents.sent.find(([c]) => c === 'confab:push:account.snapshot')?.[1] as {
      accountId: string;
      state: { user_id: number };
    };
    const badges = () =>
      fake.calls.filter(([name]) => name === 'app.setBadgeCount').map(([, n]) => n as number);
    await expect.poll(() => badges().length, { timeout: 20_000 }).toBeGreaterThan(0);
    const before = badges().at(-1) as number;

    const anonymous = new ApiClient({ serverUrl: server.url });
    const { api_key: apiKey, email } = await anonymous.fetchApiKey(demo.users.alice as string, demo.password);
    const alice = anonymous.withCredentials({ email, apiKey });
    await alice.request('POST', '/messages', {
      type: 'private',
      to: JSON.stringify([bobSnapshot.state.user_id]),
      content: 'Lunch at **noon**?',
    });

    await expect.poll(() => fake.notifications.length, { timeout: 20_000 }).toBe(1);
    const [notification] = fake.notifications;
    expect(notification?.options).toEqual({ title: 'Alice Doe', body: 'Lunch at noon?', silent: false });
    expect(notification?.shown).toBe(true);
    expect(badges().at(-1)).toBe(before + 1);
    expect(fake.trays[0]?.tooltips.at(-1)).toBe(
      `Confab: ${before + 1} unread message${before === 0 ? '' : 's'}`,
    );

    // A click brings the window up on that account.
    const focusedBefore = win?.focused ?? 0;
    const sentBefore = win?.webContents.sent.length ?? 0;
    notification?.listeners.get('click')?.();
    expect(win?.focused).toBe(focusedBefore + 1);
    expect(fake.windows).toHaveLength(2); // the window and the foreign one of an earlier test
    await expect
      .poll(() => win?.webContents.sent.slice(sentBefore).find(([c]) => c === 'confab:push:app.state')?.[1])
      .toMatchObject({ activeAccountId: bobSnapshot.accountId });
    // ...and opens the conversation the message is in.
    await expect
      .poll(
        () => win?.webContents.sent.slice(sentBefore).find(([c]) => c === 'confab:push:app.openNarrow')?.[1],
      )
      .toMatchObject({ accountId: bobSnapshot.accountId, narrow: { kind: 'dm' } });

    // All read elsewhere: the count goes to zero, and there is no second notification.
    const bobKey = await anonymous.fetchApiKey(demo.users.bob as string, demo.password);
    const bob = anonymous.withCredentials({ email: bobKey.email, apiKey: bobKey.api_key });
    await bob.request('POST', '/mark_all_as_read');
    await expect.poll(() => badges().at(-1), { timeout: 20_000 }).toBe(0);
    expect(fake.trays[0]?.tooltips.at(-1)).toBe('Confab');
    expect(fake.notifications).toHaveLength(1);
  });

  it('holds back notifications while do not disturb is on, the badge still counting', async () => {
    const demo = JSON.parse(await readFile(server.demoCredentialsFile, 'utf8')) as {
      password: string;
      users: Record<string, string>;
    };
    const [win] = fake.windows;
    const bobSnapshot = win?.webContents.sent.find(([c]) => c === 'confab:push:account.snapshot')?.[1] as {
      state: { user_id: number };
    };
    const badges = () =>
      fake.calls.filter(([name]) => name === 'app.setBadgeCount').map(([, n]) => n as number);
    const before = badges().at(-1) as number;
    const notified = fake.notifications.length;
    const setDnd = fake.ipcHandlers.get('confab:invoke:dnd.set');
    const until = Date.now() + 3_600_000;
    expect(await setDnd?.({ senderFrame: appFrame }, { until })).toEqual({ ok: true, value: { until } });
    // Every window of the app is told.
    expect(win?.webContents.sent.at(-1)).toEqual(['confab:push:dnd.changed', { until }]);
    expect(JSON.parse(await readFile(path.join(profileDir, 'dnd.json'), 'utf8'))).toEqual({
      version: 1,
      until,
    });

    const anonymous = new ApiClient({ serverUrl: server.url });
    const { api_key: apiKey, email } = await anonymous.fetchApiKey(demo.users.alice as string, demo.password);
    const alice = anonymous.withCredentials({ email, apiKey });
    const send = (content: string) =>
      alice.request('POST', '/messages', {
        type: 'private',
        to: JSON.stringify([bobSnapshot.state.user_id]),
        content,
      });
    await send('During do not disturb');
    await expect.poll(() => badges().at(-1), { timeout: 20_000 }).toBe(before + 1);
    expect(fake.notifications).toHaveLength(notified);

    // Off again: the next message notifies.
    expect(await setDnd?.({ senderFrame: appFrame }, { until: null })).toEqual({
      ok: true,
      value: { until: null },
    });
    await send('After do not disturb');
    await expect.poll(() => fake.notifications.length, { timeout: 20_000 }).toBe(notified + 1);
    expect(fake.notifications.at(-1)?.options).toEqual({
      title: 'Alice Doe',
      body: 'After do not disturb',
      silent: false,
    });
    expect(badges().at(-1)).toBe(before + 2);
  });

  it("sets the spellchecker from the user's default_language, and follows changes", async () => {
    const languages = () =>
      fake.calls.filter(([name]) => name === 'setSpellCheckerLanguages').map(([, l]) => l);
    // bob's default_language is English: the US dictionary of those Chromium offers.
    expect(languages().at(-1)).toEqual(['en-US']);
    const [win] = fake.windows;
    const snapshot = win?.webContents.sent.find(([c]) => c === 'confab:push:account.snapshot')?.[1];
    const accountId = (snapshot as { accountId: string } | undefined)?.accountId;
    const update = fake.ipcHandlers.get('confab:invoke:settings.update');
    expect(
      await update?.({ senderFrame: appFrame }, { accountId, changes: { default_language: 'de' } }),
    ).toMatchObject({
      ok: true,
    });
    await expect.poll(() => languages().at(-1), { timeout: 20_000 }).toEqual(['de']);
  });

  it('focuses the existing window when the app is started again', () => {
    const [win] = fake.windows;
    const focused = win?.focused ?? 0;
    const count = fake.windows.length;
    for (const l of fake.appListeners.get('second-instance') ?? []) (l as () => void)();
    expect(fake.windows).toHaveLength(count);
    expect(win?.focused).toBe(focused + 1);
  });

  it("saves the window's place when it closes", async () => {
    const [win] = fake.windows;
    win?.emit('close');
    expect(JSON.parse(await readFile(path.join(profileDir, 'window-state.json'), 'utf8'))).toEqual(
      SAVED_WINDOW,
    );
  });
});
describe('Electron main, packaged (no launcher)', () => {
  let packaged: Fake;
  let packagedProfile: string;

  beforeAll(async () => {
    packagedProfile = path.join(tmp, 'packaged-profile');
    packaged = fakeElectron({ version: '8.8.8', isPackaged: true });
    await loadMain(packaged, { CONFAB_PROFILE_DIR: packagedProfile });
  });

  afterAll(async () => {
    await quit(packaged);
    for (const child of packaged?.utilityProcesses ?? []) if (child.exitCode === null) child.kill('SIGKILL');
  });

  it('runs the bundled server in a utility process, on 127.0.0.1 and a free port', async () => {
    expect(packaged.calls.filter(([name]) => name === 'utilityProcess.fork')).toEqual([
      [
        'utilityProcess.fork',
        path.join(tmp, 'dist', 'server', 'main.cjs'),
        [
          '--host',
          '127.0.0.1',
          '--port',
          '0',
          '--data-dir',
          path.join(packagedProfile, 'server'),
          '--demo',
          '--drain-seconds',
          '5',
        ],
        'pipe',
      ],
    ]);
    const info = (await packaged.ipcHandlers.get('confab:invoke:app.getInfo')?.(
      { senderFrame: appFrame },
      {},
    )) as {
      ok: true;
      value: {
        defaultServerUrl: string;
        demoLogins: { email: string; password: string }[];
        appVersion: string;
      };
    };
    expect(info.value.appVersion).toBe('8.8.8');
    expect(info.value.defaultServerUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(info.value.demoLogins).toHaveLength(6);
    const [login] = info.value.demoLogins;
    const signIn = packaged.ipcHandlers.get('confab:invoke:accounts.signIn');
    expect(
      await signIn?.(
        { senderFrame: appFrame },
        { serverUrl: info.value.defaultServerUrl, email: login?.email, password: login?.password },
      ),
    ).toMatchObject({ ok: true, value: { email: login?.email } });
    expect(await readFile(path.join(packagedProfile, 'server.log'), 'utf8')).toContain(
      `listening on ${info.value.defaultServerUrl}`,
    );
  });

  it('stops the server when the app quits', async () => {
    const [child] = packaged.utilityProcesses;
    await quit(packaged);
    await waitUntil(() => child?.exitCode !== null || child?.signalCode !== null);
    // SIGTERM: a clean stop that saved the event queues.
    expect(child?.exitCode).toBe(0);
    expect(packaged.trays[0]?.destroyed).toBe(true);
  });
});
