/**
 * `npm start`: runs Confab on this machine.
 *
 *   npm start -- [--browser] [--server URL] [--port P] [--profile DIR]
 *
 * Starts the embedded chat server (data under the profile, demo organization on first run)
 * unless --server names another one, then opens the Electron app; where Electron's binary is
 * missing and cannot be downloaded, or with --browser, it serves the same app to a browser
 * on 127.0.0.1 instead and prints the address (with its secret).
 *
 * Environment: CONFAB_SKIP_ELECTRON_INSTALL=1 skips the one attempt to download a missing
 * Electron binary (tests, offline machines); CONFAB_RENDERER_DIR serves another renderer
 * build than dist/renderer.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { InvalidServerUrlError, normalizeServerUrl } from '../../shared/url';
import { startBrowserApp } from '../browser/start';
import { ELECTRON_ENV } from './electron-env';
import { type EmbeddedServer, startEmbeddedServer } from './embedded-server';
import { defaultProfileDir } from './profile';
import { stopChild } from './server-process';

export const USAGE = 'usage: npm start -- [--browser] [--server URL] [--port P] [--profile DIR]';
export const ELECTRON_FALLBACK_MESSAGE =
  'Electron is not available here (its binary could not be downloaded); starting browser mode.';

export interface LaunchOptions {
  browser: boolean;
  /** Another server to use instead of the embedded one, normalized (shared/url.ts). */
  server: string | null;
  /** The browser-mode page's port; 0 picks a free one. */
  port: number;
  /** Absolute; null for the per-user default. */
  profile: string | null;
}

export class UsageError extends Error {}

/** Pure: argv (without node and the script) to options, or a UsageError with a short reason. */
export function parseLaunchArgs(argv: readonly string[]): LaunchOptions {
  let values: { browser?: boolean; server?: string; port?: string; profile?: string };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        browser: { type: 'boolean' },
        server: { type: 'string' },
        port: { type: 'string' },
        profile: { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    // node:util's messages are long and suggest `--` tricks; keep only what was wrong.
    const message = (error as Error).message;
    const unknown = /^Unknown option '([^']+)'/.exec(message);
    const firstSentence = (message.split('\n')[0] ?? '').split('. ')[0]?.replace(/\.$/, '');
    throw new UsageError(unknown ? `unknown option '${unknown[1]}'` : firstSentence || 'invalid arguments');
  }

  const server = values.server === undefined ? null : serverOption(values.server);

  let port = 0;
  if (values.port !== undefined) {
    port = /^\d{1,5}$/.test(values.port) ? Number(values.port) : Number.NaN;
    if (!(port >= 0 && port <= 65535)) throw new UsageError(`--port must be 0..65535, not '${values.port}'`);
  }

  if (values.profile === '') throw new UsageError('--profile needs a directory');
  return {
    browser: values.browser ?? false,
    server,
    port,
    profile: values.profile === undefined ? null : path.resolve(values.profile),
  };
}

/** --server in the one spelling the core compares and stores (shared/url.ts). */
function serverOption(value: string): string {
  try {
    return normalizeServerUrl(value);
  } catch (error) {
    if (!(error instanceof InvalidServerUrlError)) throw error;
    if (error.reason === 'credentials') {
      // Not echoed: the value holds a password.
      throw new UsageError('--server must not contain a user name or password');
    }
    throw new UsageError(`--server must be an http(s) URL, not '${value}'`);
  }
}

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The `electron` package exports its binary's path, or throws when the binary was never
 * downloaded; the path is checked too (ELECTRON_OVERRIDE_DIST_PATH can point anywhere).
 */
export function findElectronBinary(): string | null {
  try {
    const binary: unknown = createRequire(import.meta.url)('electron');
    return typeof binary === 'string' && existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

/** One attempt at the download `npm install` skipped or failed; quiet, at most 20 s. */
function tryInstallElectron(): void {
  const script = path.join(repoRoot, 'node_modules', 'electron', 'install.js');
  if (!existsSync(script)) return;
  spawnSync(process.execPath, [script], { cwd: repoRoot, stdio: 'pipe', timeout: 20_000 });
}

function fail(message: string, code = 1): never {
  process.stderr.write(`confab: ${message}\n`);
  process.exit(code);
}

async function main(argv: readonly string[]): Promise<void> {
  let options: LaunchOptions;
  try {
    options = parseLaunchArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) fail(`${error.message}; ${USAGE}`, 2);
    throw error;
  }
  const profileDir = options.profile ?? defaultProfileDir();
  await mkdir(profileDir, { recursive: true, mode: 0o700 });

  let electronBinary: string | null = null;
  if (!options.browser) {
    electronBinary = findElectronBinary();
    if (electronBinary === null && process.env.CONFAB_SKIP_ELECTRON_INSTALL !== '1') {
      tryInstallElectron();
      electronBinary = findElectronBinary();
    }
    if (electronBinary === null) console.log(ELECTRON_FALLBACK_MESSAGE);
  }
  const electronMain = path.join(repoRoot, 'dist', 'electron', 'main.cjs');
  const rendererDir = process.env.CONFAB_RENDERER_DIR || path.join(repoRoot, 'dist', 'renderer');
  if (electronBinary !== null && !existsSync(electronMain))
    fail('dist/electron is not built: run `npm run build`');
  if (electronBinary === null && !existsSync(path.join(rendererDir, 'index.html'))) {
    fail(`the renderer is not built (no ${path.join(rendererDir, 'index.html')}): run \`npm run build\``);
  }

  // Everything started below is stopped by shutdown(), whichever way we leave.
  let server: EmbeddedServer | null = null;
  let stopApp: (() => Promise<void>) | null = null;
  let shuttingDown: Promise<never> | null = null;
  // The first reason to stop wins; later ones (Electron exiting because we stopped it) wait.
  const shutdown = (code: number): Promise<never> => {
    shuttingDown ??= (async () => {
      try {
        await stopApp?.();
      } catch (error) {
        process.stderr.write(
          `confab: while stopping: ${error instanceof Error ? error.message : String(error)}\n`,
        );
      }
      await server?.stop();
      process.exit(code);
    })();
    return shuttingDown;
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  process.on('SIGHUP', () => void shutdown(0));

  try {
    let serverUrl = options.server;
    let demoCredentialsFile: string | null = null;
    if (serverUrl === null) {
      server = await startEmbeddedServer({
        repoRoot,
        dataDir: path.join(profileDir, 'server'),
        logFile: path.join(profileDir, 'server.log'),
      });
      serverUrl = server.url;
      demoCredentialsFile = server.demoCredentialsFile;
      console.log(`Embedded server at ${server.url} (data in ${server.dataDir})`);
      void server.exited.then(({ code, signal }) => {
        if (shuttingDown !== null) return;
        process.stderr.write(
          `confab: the embedded server stopped (${signal ?? `code ${code}`}); see ${path.join(profileDir, 'server.log')}\n`,
        );
        void shutdown(1);
      });
    }

    if (electronBinary !== null) {
      const child = runElectron(electronBinary, electronMain, { serverUrl, profileDir, demoCredentialsFile });
      stopApp = () => stopChild(child, 10_000);
      child.once('error', (error) => {
        process.stderr.write(`confab: could not start Electron: ${error.message}\n`);
        void shutdown(1);
      });
      child.once('exit', (code, signal) => void shutdown(code ?? (signal ? 1 : 0)));
      return;
    }

    const app = await startBrowserApp({
      profileDir,
      rendererDir,
      appVersion: readAppVersion(),
      defaultServerUrl: serverUrl,
      demoCredentialsFile,
      port: options.port,
    });
    stopApp = () => app.close();
    console.log(`Confab is running at ${app.url}`);
  } catch (error) {
    process.stderr.write(`confab: ${error instanceof Error ? error.message : String(error)}\n`);
    await shutdown(1);
  }
}

function runElectron(
  binary: string,
  mainScript: string,
  settings: { serverUrl: string; profileDir: string; demoCredentialsFile: string | null },
): ChildProcess {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    [ELECTRON_ENV.serverUrl]: settings.serverUrl,
    [ELECTRON_ENV.profileDir]: settings.profileDir,
    [ELECTRON_ENV.demoCredentialsFile]: settings.demoCredentialsFile ?? '',
  };
  // Would turn the app into a plain Node process.
  delete env.ELECTRON_RUN_AS_NODE;
  return spawn(binary, [mainScript], { cwd: repoRoot, stdio: 'inherit', env });
}

function readAppVersion(): string {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
}

const isEntryPoint =
  process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isEntryPoint) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    fail(error instanceof Error ? (error.stack ?? error.message) : String(error));
  });
}
