/**
 * Electron glue: lifecycle, windows, security wiring, the app:// protocol, and the ipcMain
 * adapter to electron/core. The decisions themselves (window options, which URLs, which
 * senders, which permissions) are pure functions in electron/host/electron-policy.ts, where
 * plain-Node tests check them; this file only connects them to Electron's events.
 *
 * Settings come from the launcher (launch.ts) through the environment; a packaged app
 * without a launcher uses the per-user profile and no default server.
 */
import path from 'node:path';
import { app, BrowserWindow, net, powerMonitor, protocol, session, shell } from 'electron';
import { createCore } from '../core';
import {
  APP_ENTRY_URL,
  APP_SCHEME,
  ELECTRON_ENV,
  isPermissionAllowed,
  mainWindowOptions,
} from '../host/electron-policy';
import { defaultProfileDir } from '../host/profile';
import { handleAppRequest } from './app-protocol';
import { isTrustedSender, registerIpc } from './ipc';
import { createSecretStore } from './secret-store';
import { guardWebContents } from './security';

const profileDir = process.env[ELECTRON_ENV.profileDir] || defaultProfileDir();
const defaultServerUrl = process.env[ELECTRON_ENV.serverUrl] || null;
const demoCredentialsFile = process.env[ELECTRON_ENV.demoCredentialsFile] || null;
// main.cjs and preload.cjs sit in dist/electron, the renderer build in dist/renderer.
const preloadPath = path.join(__dirname, 'preload.cjs');
const rendererDir = path.join(__dirname, '..', 'renderer');

// Chromium's own data (and the single-instance lock) per profile, so two profiles can run
// side by side while a second start of the same profile focuses the first.
app.setPath('userData', path.join(profileDir, 'electron'));
app.enableSandbox();
protocol.registerSchemesAsPrivileged([
  {
    scheme: APP_SCHEME,
    privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
  },
]);

function createWindow(): BrowserWindow {
  const win = new BrowserWindow(mainWindowOptions(preloadPath));
  win.once('ready-to-show', () => win.show());
  void win.loadURL(APP_ENTRY_URL);
  return win;
}

async function onReady(): Promise<void> {
  protocol.handle(APP_SCHEME, (request) => handleAppRequest(rendererDir, request));
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback) =>
    callback(isPermissionAllowed(permission)),
  );
  session.defaultSession.setPermissionCheckHandler((_contents, permission) =>
    isPermissionAllowed(permission),
  );

  const core = createCore({
    profileDir,
    secretStore: createSecretStore(profileDir),
    mode: 'electron',
    appVersion: app.getVersion(),
    defaultServerUrl,
    demoCredentialsFile,
    isTrustedSender,
  });
  registerIpc(core);
  await core.start();

  // A laptop waking up or a network coming back should not wait out a long back-off.
  powerMonitor.on('resume', () => core.wakeAll());
  let online = net.isOnline();
  setInterval(() => {
    const now = net.isOnline();
    if (now && !online) core.wakeAll();
    online = now;
  }, 5_000).unref();

  let stopped = false;
  app.on('will-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    void core.stop().finally(() => {
      stopped = true;
      app.quit();
    });
  });

  createWindow();
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    const [win] = BrowserWindow.getAllWindows();
    if (!win) return void createWindow();
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, shell));
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (app.isReady() && BrowserWindow.getAllWindows().length === 0) createWindow();
  });
  // The launcher stops us with SIGTERM; quit the normal way so the core can stop cleanly.
  process.on('SIGTERM', () => app.quit());
  process.on('SIGINT', () => app.quit());
  app.whenReady().then(onReady, (error: unknown) => {
    console.error('confab: failed to start', error);
    app.exit(1);
  });
}
