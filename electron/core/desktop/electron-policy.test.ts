/** The Electron security policy: window options, app URLs, trusted frames, external links, permissions. */
import { describe, expect, it } from 'vitest';
import {
  APP_ENTRY_URL,
  externalUrlToOpen,
  isAppUrl,
  isNavigationAllowed,
  isPermissionAllowed,
  isTrustedFrame,
  mainWindowOptions,
} from './electron-policy';

describe('mainWindowOptions', () => {
  it('isolates and sandboxes the renderer, with our preload only', () => {
    const options = mainWindowOptions('/app/dist/electron/preload.cjs');
    expect(options.webPreferences).toEqual({
      preload: '/app/dist/electron/preload.cjs',
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
      spellcheck: true,
    });
    expect(options.show).toBe(false);
    // No saved place: the default size, centred by the OS.
    expect(options).toMatchObject({ width: 1100, height: 760, minWidth: 480, minHeight: 400 });
    expect(options).not.toHaveProperty('x');
    expect(options).not.toHaveProperty('y');
  });

  it('opens where restoreBounds says', () => {
    expect(mainWindowOptions('/p', { x: -1200, y: 40, width: 800, height: 600 })).toMatchObject({
      x: -1200,
      y: 40,
      width: 800,
      height: 600,
      minWidth: 480,
      minHeight: 400,
    });
    const centred = mainWindowOptions('/p', { width: 800, height: 600 });
    expect(Object.keys(centred)).not.toContain('x');
  });
});

describe('app URLs', () => {
  it('accepts app://confab pages only', () => {
    expect(APP_ENTRY_URL).toBe('app://confab/');
    expect(isAppUrl('app://confab/')).toBe(true);
    expect(isAppUrl('app://confab/assets/index-abc.js')).toBe(true);
    expect(isAppUrl('app://confab/?x=1#y')).toBe(true);
  });

  it.each([
    'app://evil/',
    'app://confab.evil/',
    'app://confab:8080/',
    'app://user@confab/',
    'app://confab@evil/',
    'https://confab/',
    'file:///etc/passwd',
    'http://127.0.0.1:3000/',
    'javascript:alert(1)',
    'not a url',
    '',
  ])('refuses %s', (url) => {
    expect(isAppUrl(url)).toBe(false);
    expect(isNavigationAllowed(url)).toBe(false);
  });

  it('allows navigation within the app', () => {
    expect(isNavigationAllowed('app://confab/index.html')).toBe(true);
  });
});

describe('isTrustedFrame', () => {
  it('trusts the main frame of an app page', () => {
    expect(isTrustedFrame({ url: 'app://confab/', parent: null })).toBe(true);
  });

  it('refuses subframes, other origins and missing frames', () => {
    const top = { url: 'app://confab/', parent: null };
    expect(isTrustedFrame({ url: 'app://confab/', parent: top })).toBe(false);
    expect(isTrustedFrame({ url: 'https://example.com/', parent: null })).toBe(false);
    expect(isTrustedFrame({ url: 'app://evil/', parent: null })).toBe(false);
    expect(isTrustedFrame(null)).toBe(false);
    expect(isTrustedFrame(undefined)).toBe(false);
  });
});

describe('externalUrlToOpen', () => {
  it('opens http(s) and mailto links', () => {
    expect(externalUrlToOpen('https://example.com/a?b=c#d')).toBe('https://example.com/a?b=c#d');
    expect(externalUrlToOpen('http://example.com')).toBe('http://example.com/');
    expect(externalUrlToOpen('mailto:alice@example.com')).toBe('mailto:alice@example.com');
  });

  it.each([
    'file:///etc/passwd',
    'javascript:alert(1)',
    'app://confab/',
    'smb://host/share',
    'ms-msdt:/id',
    'data:text/html,<b>x</b>',
    'https://user:pass@example.com/',
    'https://user@example.com/',
    'mailto:',
    'nonsense',
  ])('refuses %s', (url) => {
    expect(externalUrlToOpen(url)).toBeNull();
  });
});

describe('isPermissionAllowed', () => {
  it('allows notifications and nothing else', () => {
    expect(isPermissionAllowed('notifications')).toBe(true);
    for (const p of [
      'media',
      'geolocation',
      'clipboard-read',
      'openExternal',
      'fullscreen',
      'midi',
      'unknown',
    ]) {
      expect(isPermissionAllowed(p)).toBe(false);
    }
  });
});
