/**
 * The embedded chat server as a child process of the launcher (both modes): the server runs
 * from TypeScript through tsx, exactly as `npm run server` does, with its data under the
 * profile. `--demo` only seeds an empty data directory, so it is always passed.
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { type ExitStatus, embeddedServerArgs, stopChild, waitForListening } from './server-process';

export interface EmbeddedServer {
  readonly url: string;
  readonly pid: number;
  readonly dataDir: string;
  /** Written by the server's --demo on first run; the sign-in screen offers its accounts. */
  readonly demoCredentialsFile: string;
  /** Resolves when the child exits on its own (a crash, or after stop()). */
  readonly exited: Promise<ExitStatus>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the child is gone. */
  stop(graceMs?: number): Promise<void>;
}

export interface EmbeddedServerOptions {
  /** The repository root (where server/main.ts and node_modules/tsx are). */
  repoRoot: string;
  dataDir: string;
  /** Appends the server's output here (kept out of the data directory, which --demo wants empty). */
  logFile?: string | null;
  /** How long to wait for `listening on`; generous for a loaded machine. */
  startTimeoutMs?: number;
}

export async function startEmbeddedServer(options: EmbeddedServerOptions): Promise<EmbeddedServer> {
  const { repoRoot, dataDir } = options;
  // The server must not outlive us even when we cannot stop it: exit-with-parent watches the
  // stdin pipe we hold (it closes when this process dies, however it dies).
  const watchdog = new URL('./exit-with-parent.ts', import.meta.url).href;
  const args = ['--import', 'tsx', '--import', watchdog, path.join(repoRoot, 'server', 'main.ts')];
  args.push(...embeddedServerArgs(dataDir));
  const child = spawn(process.execPath, args, { cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.on('error', () => undefined);

  const exited = new Promise<ExitStatus>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const failed = new Promise<Error>((resolve) => child.on('error', resolve));
  // An exit path that skipped stop() still asks the server to stop (it shuts down cleanly
  // on its own); the stdin watchdog covers deaths that run no code at all.
  const killOnExit = () => child.kill('SIGTERM');
  process.once('exit', killOnExit);
  void exited.then(() => process.off('exit', killOnExit));

  // Keep the last lines of output to explain a failed start, and log them all; the pipes are
  // read to the end either way so the server never blocks on a full pipe.
  const log = options.logFile ? createWriteStream(options.logFile, { flags: 'a', mode: 0o600 }) : null;
  log?.on('error', () => undefined);
  void exited.then(() => log?.end());
  const recent: string[] = [];
  const remember = (line: string) => {
    log?.write(`${line}\n`);
    recent.push(line);
    if (recent.length > 20) recent.shift();
  };
  createInterface({ input: child.stderr }).on('line', remember);

  let url: string;
  try {
    url = await waitForListening(
      { stdout: child.stdout, exited, failed },
      { timeoutMs: options.startTimeoutMs ?? 60_000, onLine: remember },
    );
  } catch (error) {
    await stopChild(child, 5_000);
    const output = recent.length > 0 ? `\n${recent.join('\n')}` : '';
    throw new Error(`${(error as Error).message}${output}`);
  }

  return {
    url,
    pid: child.pid ?? -1,
    dataDir,
    demoCredentialsFile: path.join(dataDir, 'demo-credentials.json'),
    exited,
    stop: (graceMs = 10_000) => stopChild(child, graceMs),
  };
}
