/**
 * Real Confab instances in browser mode for the end-to-end tests: each one
 * `electron/launcher/launch.ts --browser` in its own process with its own profile directory,
 * exactly as a person starts a second app side by side. The Playwright fixtures around them
 * are in ./app.ts.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir, removeDir } from '../../test/support/server';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The line the launcher prints once the app can be opened. */
export const APP_URL_PATTERN = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+)/;

export interface AppInstance {
  /** The printed address, with the instance's secret. */
  url: string;
  profileDir: string;
  /** Everything the launcher printed so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

export interface LaunchOptions {
  /** The server to use; without it the launcher starts its embedded demo server. */
  serverUrl?: string;
  profileDir?: string;
  timeoutMs?: number;
}

/** Starts one browser-mode instance and resolves with its URL once it prints it. */
export async function startAppInstance(options: LaunchOptions = {}): Promise<AppInstance> {
  const ownProfile = options.profileDir === undefined;
  const profileDir = options.profileDir ?? (await makeTempDir('confab-e2e-profile-'));
  const args = [
    '--import',
    'tsx',
    'electron/launcher/launch.ts',
    '--browser',
    '--profile',
    profileDir,
    '--port',
    '0',
  ];
  if (options.serverUrl) args.push('--server', options.serverUrl);
  const child = spawn(process.execPath, args, {
    cwd: repoRoot,
    env: { ...process.env, CONFAB_SKIP_ELECTRON_INSTALL: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });

  const stop = async () => {
    await stopProcess(child);
    if (ownProfile) await removeDir(profileDir);
  };

  const timeoutMs = options.timeoutMs ?? 90_000;
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`The app did not print its URL within ${timeoutMs} ms:\n${output}`)),
        timeoutMs,
      );
      const onData = () => {
        const match = APP_URL_PATTERN.exec(output);
        if (match?.[1]) {
          clearTimeout(timer);
          child.stdout.off('data', onData);
          resolve(match[1]);
        }
      };
      child.stdout.on('data', onData);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`The app exited (${signal ?? `code ${code}`}) before printing its URL:\n${output}`));
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    return { url, profileDir, output: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}
