/**
 * End-to-end fixtures: a real server (test/support/server.ts) and real Confab instances in
 * browser mode, each one `electron/launch.ts --browser` in its own process with its own
 * profile directory, exactly as a person starts a second app side by side.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, test as base, expect, type Page } from '@playwright/test';
import { makeTempDir, removeDir, type StartedServer, startServerProcess } from '../../test/support/server';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The line the launcher prints once the app can be opened. */
export const APP_URL_PATTERN = /(http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+)/;

export type TestServer = StartedServer;

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
  const args = ['--import', 'tsx', 'electron/launch.ts', '--browser', '--profile', profileDir, '--port', '0'];
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

/**
 * `server`: a fresh demo server per test, stopped after it.
 * `launchApp`: starts app instances (each with its own profile), stopped after the test.
 * `openApp`: opens an instance's URL in a fresh browser context (a window of that app).
 */
export const test = base.extend<{
  server: TestServer;
  launchApp: (options?: LaunchOptions) => Promise<AppInstance>;
  openApp: (app: AppInstance) => Promise<Page>;
}>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  server: async ({}, use) => {
    const server = await startServerProcess({ demo: true });
    try {
      await use(server);
    } finally {
      await server.dispose();
    }
  },
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  launchApp: async ({}, use, testInfo) => {
    const started: AppInstance[] = [];
    await use(async (options = {}) => {
      const app = await startAppInstance(options);
      started.push(app);
      return app;
    });
    for (const [index, app] of started.entries()) {
      if (testInfo.status !== testInfo.expectedStatus) {
        await testInfo.attach(`app-${index + 1}.log`, { body: app.output(), contentType: 'text/plain' });
      }
    }
    await Promise.all(started.map((app) => app.stop()));
  },
  openApp: async ({ browser }, use) => {
    const contexts: Awaited<ReturnType<Browser['newContext']>>[] = [];
    await use(async (app) => {
      const context = await browser.newContext();
      contexts.push(context);
      const page = await context.newPage();
      await page.goto(app.url);
      return page;
    });
    await Promise.all(contexts.map((context) => context.close()));
  },
});

export { expect };

/** Signs in through the sign-in screen, as a person would. */
export async function signIn(
  page: Page,
  credentials: { serverUrl?: string; email: string; password: string },
) {
  const form = page.getByRole('form', { name: 'Sign in' });
  await expect(form).toBeVisible();
  if (credentials.serverUrl !== undefined) await form.getByLabel('Server URL').fill(credentials.serverUrl);
  await form.getByLabel('Email').fill(credentials.email);
  await form.getByLabel('Password').fill(credentials.password);
  await form.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** The settings screen is up and the account's event queue is live. */
export async function expectSignedIn(page: Page, email: string) {
  await expect(page.getByRole('heading', { name: 'Display settings' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('banner')).toContainText(email);
  await expect(page.getByRole('status')).toHaveText('Connected', { timeout: 30_000 });
}
