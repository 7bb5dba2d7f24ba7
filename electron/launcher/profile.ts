/** Where the app keeps its own data when no --profile is given; shared by launch.ts and Electron main. */
import os from 'node:os';
import path from 'node:path';

/** The per-user data directory, as each platform's conventions have it. */
export function defaultProfileDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = os.homedir(),
): string {
  if (platform === 'darwin') return path.posix.join(home, 'Library', 'Application Support', 'Confab');
  if (platform === 'win32') {
    return path.win32.join(env.APPDATA || path.win32.join(home, 'AppData', 'Roaming'), 'Confab');
  }
  // XDG: a relative XDG_DATA_HOME is invalid and must be ignored.
  const xdg = env.XDG_DATA_HOME;
  return path.posix.join(
    xdg && path.posix.isAbsolute(xdg) ? xdg : path.posix.join(home, '.local', 'share'),
    'confab',
  );
}
