/**
 * Electron glue: lifecycle, windows, security wiring, the app:// protocol, the ipcMain adapter
 * to electron/core, the tray, badge and notifications, and the packaged app's embedded server.
 * The decisions themselves (window options, which URLs, which senders, which permissions,
 * where the window goes, what to count and notify) are pure functions in electron/core/desktop
 * (electron-policy.ts, desktop-prefs.ts, attention.ts), where plain-Node tests check them;
 * this file only connects them to Electron's events.
 *
 * Settings come from the launcher (electron/launcher) through the environment; a packaged app
 * without a launcher uses the per-user profile and starts its own embedded server.
 */
import path from 'node:path';
import { app, type BrowserWindow, net, powerMonitor, protocol, session, shell } from 'electron';
import { type Core, createCore } from '../core';
import { APP_SCHEME, isPermissionAllowed } from '../core/desktop/electron-policy';
import { ELECTRON_ENV } from '../launcher/electron-env';
import { defaultProfileDir } from '../launcher/profile';
import { handleAppRequest } from './app-protocol';
import { wireAttention } from './attention';
import { startUtilityServer, type UtilityServer } from './embedded-server';
import { isTrustedSender, registerIpc } from './ipc';
import { createSecretStore } from './secret-store';
import { guardWebContents } from './security';
import { createTray } from './tray';
import { createMainWindow } from './window';

const profileDir = process.env[ELECTRON_ENV.profileDir] || defaultProfileDir();
const launcherServerUrl = process.env[ELECTRON_ENV.serverUrl] || null;
const launcherDemoCredentials = process.env[ELECTRON_ENV.demoCredentialsFile] || null;
// main.cjs and preload.cjs sit in dist/electron, the renderer build in dist/renderer, the
// server bundle in dist/server.
const preloadPath = path.join(__dirname, 'preload.cjs');
const rendererDir = path.join(__dirname, '..', 'renderer');
const serverScript = path.join(__dirname, '..', 'server', 'main.cjs');

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

let mainWindow: BrowserWindow | null = null;

function showWindow(): BrowserWindow {
  if (mainWindow === null || mainWindow.isDestroyed()) {
    mainWindow = createMainWindow(preloadPath, profileDir);
    const win = mainWindow;
    win.on('closed', () => {
      if (mainWindow === win) mainWindow = null;
    });
    return win;
  }
  if (mainWindow.isMinimized()) mainWindow.restore();
  mainWindow.show();
  mainWindow.focus();
  return mainWindow;
}

/** The packaged app runs its own server; the launcher (development) already started one. */
async function embeddedServer(): Promise<UtilityServer | null> {
  if (launcherServerUrl !== null || !app.isPackaged) return null;
  try {
    return await startUtilityServer(serverScript, profileDir);
  } catch (error) {
    // Remote servers still work: the sign-in screen just has no prefilled local server.
    console.error('confab: the embedded server did not start', error);
    return null;
  }
}

async function onReady(): Promise<void> {
  protocol.handle(APP_SCHEME, (request) => handleAppRequest(rendererDir, request));
  session.defaultSession.setPermissionRequestHandler((_contents, permission, callback) =>
    callback(isPermissionAllowed(permission)),
  );
  session.defaultSession.setPermissionCheckHandler((_contents, permission) =>
    isPermissionAllowed(permission),
  );

  const server = await embeddedServer();
  const core: Core = createCore({
    profileDir,
    secretStore: createSecretStore(profileDir),
    mode: 'electron',
    appVersion: app.getVersion(),
    defaultServerUrl: server?.url ?? launcherServerUrl,
    demoCredentialsFile: server?.demoCredentialsFile ?? launcherDemoCredentials,
    isTrustedSender,
  });
  registerIpc(core);

  const tray = createTray({ show: () => void showWindow(), quit: () => app.quit() });
  wireAttention(core, {
    window: () => mainWindow,
    tray,
    showAccount(accountId) {
      showWindow();
      // Main's own decision, not a renderer's request: straight to the core, no sender check
      // (a window made just now has not loaded app://confab yet). The page learns the switch
      // from the app.state push, or, still loading, from its first app.getState.
      core
        .setActiveAccount(accountId)
        .catch((error: unknown) => console.error(`confab: could not switch to account ${accountId}`, error));
    },
  });
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
    void core
      .stop()
      .then(() => server?.stop())
      .finally(() => {
        stopped = true;
        tray?.destroy();
        app.quit();
      });
  });

  showWindow();
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  // A second start of the same profile: bring up the window this instance already has.
  app.on('second-instance', () => {
    if (app.isReady()) showWindow();
  });
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, shell));
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (app.isReady()) showWindow();
  });
  // The launcher stops us with SIGTERM; quit the normal way so the core can stop cleanly.
  process.on('SIGTERM', () => app.quit());
  process.on('SIGINT', () => app.quit());
  app.whenReady().then(onReady, (error: unknown) => {
    console.error('confab: failed to start', error);
    app.exit(1);
  });
}
