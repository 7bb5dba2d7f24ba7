/**
 * The security decisions of the Electron glue, as pure functions so that plain-Node tests can
 * assert them (electron/main only wires them to Electron's events): where the renderer is
 * served from, the window's locked-down options, which frames may call IPC, which URLs may be
 * navigated to or opened outside, which web permissions the page gets. No electron import here.
 */

/** The renderer is served from a privileged custom scheme, never from file:// or http://. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'confab';
export const APP_ENTRY_URL = `${APP_SCHEME}://${APP_HOST}/`;

/**
 * The subset of BrowserWindowConstructorOptions we set (electron/main passes it straight to
 * `new BrowserWindow`, which type-checks it against Electron's own type).
 */
export interface MainWindowOptions {
  /** Absent: the OS centres the window. */
  x?: number;
  y?: number;
  width: number;
  height: number;
  minWidth: number;
  minHeight: number;
  show: boolean;
  title: string;
  webPreferences: {
    preload: string;
    contextIsolation: true;
    sandbox: true;
    nodeIntegration: false;
    nodeIntegrationInWorker: false;
    nodeIntegrationInSubFrames: false;
    webviewTag: false;
    webSecurity: true;
    allowRunningInsecureContent: false;
    experimentalFeatures: false;
    navigateOnDragDrop: false;
    safeDialogs: true;
    spellcheck: true;
  };
}

/** The window's size when nothing was saved (restoreBounds in desktop-prefs.ts takes these too). */
export const WINDOW_DEFAULTS = { width: 1100, height: 760, minWidth: 480, minHeight: 400 } as const;

/** `placement`: where restoreBounds puts the window (maximizing is the glue's job, after creation). */
export function mainWindowOptions(
  preloadPath: string,
  placement: { x?: number; y?: number; width: number; height: number } = WINDOW_DEFAULTS,
): MainWindowOptions {
  return {
    ...(placement.x !== undefined && placement.y !== undefined && { x: placement.x, y: placement.y }),
    width: placement.width,
    height: placement.height,
    minWidth: WINDOW_DEFAULTS.minWidth,
    minHeight: WINDOW_DEFAULTS.minHeight,
    // Shown on 'ready-to-show' so the user never sees a blank frame.
    show: false,
    title: 'Confab',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      safeDialogs: true,
      // Languages: set from the user's default_language (spellcheckerLanguages).
      spellcheck: true,
    },
  };
}

function parseUrl(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** True for app://confab/... exactly (no credentials, no other host, no port). */
export function isAppUrl(url: string): boolean {
  const u = parseUrl(url);
  // Compared by parts: Node gives non-special schemes an opaque origin ("null").
  return (
    u !== null &&
    u.protocol === `${APP_SCHEME}:` &&
    u.hostname === APP_HOST &&
    u.port === '' &&
    u.username === '' &&
    u.password === ''
  );
}

/** The part of WebFrameMain the sender check reads. */
export interface FrameLike {
  readonly url: string;
  readonly parent: unknown;
}

/**
 * IPC is answered only for the top frame of one of our pages: a subframe or a page that
 * navigated elsewhere (it cannot, but defence in depth) gets nothing.
 */
export function isTrustedFrame(frame: FrameLike | null | undefined): boolean {
  return frame != null && frame.parent === null && isAppUrl(frame.url);
}

/** Links that may leave the app for the system browser or mail client; null for anything else. */
export function externalUrlToOpen(url: string): string | null {
  const u = parseUrl(url);
  if (u === null) return null;
  if (u.protocol === 'mailto:') return u.pathname !== '' ? u.href : null;
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  // user:pass@host links are a phishing device; no real chat link needs them.
  if (u.hostname === '' || u.username !== '' || u.password !== '') return null;
  return u.href;
}

/** In-app navigation stays on app://confab; everything else is cancelled. */
export function isNavigationAllowed(url: string): boolean {
  return isAppUrl(url);
}

/** The only web permission the page may use: notifications (main shows its own as well). */
export function isPermissionAllowed(permission: string): boolean {
  return permission === 'notifications';
}
