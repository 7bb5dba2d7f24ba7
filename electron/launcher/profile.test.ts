/** Where the app keeps its data without --profile, per platform. */
import { describe, expect, it } from 'vitest';
import { defaultProfileDir } from './profile';

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
