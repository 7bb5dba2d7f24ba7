import { describe, expect, it } from 'vitest';
import { electronInvokeChannel, electronPushChannel, INVOKE_CHANNELS, PUSH_CHANNELS } from '../../shared/ipc';
import {
  BRIDGE_INVOKE_CHANNELS,
  BRIDGE_PUSH_CHANNELS,
  ipcInvokeName,
  ipcPushName,
  isBridgeInvokeChannel,
  isBridgePushChannel,
} from './bridge-channels';
import {
  APP_ENTRY_URL,
  embeddedServerArgs,
  externalUrlToOpen,
  isAppUrl,
  isNavigationAllowed,
  isPermissionAllowed,
  isTrustedFrame,
  mainWindowOptions,
  parseListeningLine,
} from './electron-policy';
import { defaultProfileDir } from './profile';

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

describe('the embedded server', () => {
  it('listens on loopback, on a port the OS picks, with the demo organization', () => {
    expect(embeddedServerArgs('/profile/server')).toEqual([
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--data-dir',
      '/profile/server',
      '--demo',
    ]);
  });

  it('reads the listening line, and only a loopback one', () => {
    expect(parseListeningLine('listening on http://127.0.0.1:43567')).toBe('http://127.0.0.1:43567');
    expect(parseListeningLine('listening on http://127.0.0.1:43567/\r')).toBe('http://127.0.0.1:43567');
    for (const line of [
      'listening on http://0.0.0.0:80',
      'listening on http://127.0.0.1.evil.com:80',
      'not listening on http://127.0.0.1:1',
      'listening on https://127.0.0.1:1 extra',
      '',
    ]) {
      expect(parseListeningLine(line)).toBeNull();
    }
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

describe('the preload allow-list', () => {
  it('has exactly the channels of the contract', () => {
    expect([...BRIDGE_INVOKE_CHANNELS].sort()).toEqual([...INVOKE_CHANNELS].sort());
    expect([...BRIDGE_PUSH_CHANNELS].sort()).toEqual([...PUSH_CHANNELS].sort());
  });

  it('names channels as shared/ipc does', () => {
    for (const c of INVOKE_CHANNELS) expect(ipcInvokeName(c)).toBe(electronInvokeChannel(c));
    for (const c of PUSH_CHANNELS) expect(ipcPushName(c)).toBe(electronPushChannel(c));
  });

  it('refuses other names, including inherited properties', () => {
    expect(isBridgeInvokeChannel('app.getInfo')).toBe(true);
    expect(isBridgePushChannel('account.events')).toBe(true);
    for (const bad of ['toString', '__proto__', 'constructor', 'app.getinfo', '', 42, null]) {
      expect(isBridgeInvokeChannel(bad)).toBe(false);
      expect(isBridgePushChannel(bad)).toBe(false);
    }
  });
});

describe('defaultProfileDir', () => {
  it('follows XDG on Linux', () => {
    expect(defaultProfileDir('linux', { XDG_DATA_HOME: '/x/data' }, '/home/a')).toBe('/x/data/confab');
    expect(defaultProfileDir('linux', {}, '/home/a')).toBe('/home/a/.local/share/confab');
    // A relative XDG_DATA_HOME is invalid per the spec and ignored.
    expect(defaultProfileDir('linux', { XDG_DATA_HOME: 'rel' }, '/home/a')).toBe(
      '/home/a/.local/share/confab',
    );
  });

  it('uses Application Support on macOS and APPDATA on Windows', () => {
    expect(defaultProfileDir('darwin', {}, '/Users/a')).toBe('/Users/a/Library/Application Support/Confab');
    expect(defaultProfileDir('win32', { APPDATA: 'C:\\Users\\a\\AppData\\Roaming' }, 'C:\\Users\\a')).toBe(
      'C:\\Users\\a\\AppData\\Roaming\\Confab',
    );
    expect(defaultProfileDir('win32', {}, 'C:\\Users\\a')).toBe('C:\\Users\\a\\AppData\\Roaming\\Confab');
  });
});
