/**
 * Test support: the real server in a child process, exactly as `npm run server` runs it,
 * on an OS-chosen port and a temporary data directory. Used by the server's, the main
 * process's, the e2e and the bench tests; keep this API stable.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiClient } from '../../shared/client';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export type DemoUser = 'owner' | 'admin' | 'moderator' | 'alice' | 'bob' | 'guest';

/** The contents of DIR/demo-credentials.json. */
export interface DemoCredentials {
  url: string;
  password: string;
  users: Record<DemoUser, string>;
  webhook_bot: { email: string; api_key: string };
}

export interface ServerProcess {
  url: string;
  port: number;
  dataDir: string;
  demo: DemoCredentials | null;
  /** The running process's id (benchmarks read its CPU time and memory from /proc). */
  readonly pid: number;
  /** Exit code of the last exit (null while running or when ended by a signal). */
  readonly exitCode: number | null;
  /** Everything the process wrote to stderr so far. */
  stderr(): string;
  /** Sends the signal (default SIGTERM) and waits for the process to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Sends the signal (default SIGTERM) and returns at once, for watching what the process does next. */
  signal(signal?: NodeJS.Signals): void;
  /** Resolves once the running process has exited (at once if it has). */
  exited(): Promise<void>;
  /** Kills the process without letting it clean up, and waits for it to be gone. */
  kill9(): Promise<void>;
  /** Stops with SIGTERM if running, then starts again on the same port, data dir and args. */
  restart(): Promise<void>;
  /** Stops the process and removes the data directory if this helper created it. */
  dispose(): Promise<void>;
}

/** A server started with the demo organization (the default): its credentials are known. */
export type StartedServer = ServerProcess & { demo: DemoCredentials };

export interface StartOptions {
  /** Default: a new temporary directory, removed by dispose(). */
  dataDir?: string;
  /** Start with --demo (default true). */
  demo?: boolean;
  /** Further command-line arguments, e.g. ['--heartbeat-seconds', '1']. */
  args?: string[];
  /** Default 0: the OS picks a free port. */
  port?: number;
}

export async function makeTempDir(prefix: string): Promise<string> {
  return mkdtemp(path.join(tmpdir(), prefix));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}

const START_TIMEOUT_MS = 60_000;
const LISTENING = /^listening on (http:\/\/\S+)$/m;

/** Children still running when the test process exits are killed, not left behind. */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

function waitForExit(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

interface Launched {
  child: ChildProcess;
  url: string;
}

function launch(args: string[], output: { stderr: string }): Promise<Launched> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  live.add(child);
  child.once('exit', () => live.delete(child));
  return new Promise((resolve, reject) => {
    let stdout = '';
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`server did not start: ${why}\n${output.stderr}`));
    };
    const timer = setTimeout(
      () => fail(`no "listening on" line after ${START_TIMEOUT_MS / 1000} s`),
      START_TIMEOUT_MS,
    );
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      output.stderr += chunk;
    });
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      if (stdout === null) return;
      stdout += chunk;
      const match = LISTENING.exec(stdout);
      if (match?.[1]) {
        clearTimeout(timer);
        child.off('exit', onExit);
        resolve({ child, url: match[1] });
      }
    });
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      fail(`it exited first (code ${code}, signal ${signal})`);
    child.once('exit', onExit);
  });
}

async function readDemo(dataDir: string): Promise<DemoCredentials> {
  return JSON.parse(await readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as DemoCredentials;
}

// The demo overload comes last so that ReturnType<typeof startServerProcess> is the common case.
export function startServerProcess(options: StartOptions & { demo: false }): Promise<ServerProcess>;
export function startServerProcess(options?: StartOptions & { demo?: true }): Promise<StartedServer>;
export function startServerProcess(options: StartOptions & { demo: boolean }): Promise<ServerProcess>;
export async function startServerProcess(options: StartOptions = {}): Promise<ServerProcess> {
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await makeTempDir('confab-server-'));
  const demo = options.demo ?? true;
  const extra = [...(demo ? ['--demo'] : []), ...(options.args ?? [])];
  const output = { stderr: '' };
  const argsFor = (port: number) => [
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--data-dir',
    dataDir,
    ...extra,
  ];

  let launched: Launched;
  try {
    launched = await launch(argsFor(options.port ?? 0), output);
  } catch (error) {
    if (ownDir) await removeDir(dataDir);
    throw error;
  }
  let child = launched.child;
  const port = Number(new URL(launched.url).port);

  const server: ServerProcess = {
    url: launched.url,
    port,
    dataDir,
    demo: demo ? await readDemo(dataDir) : null,
    get pid() {
      return child.pid ?? -1;
    },
    get exitCode() {
      return child.exitCode;
    },
    stderr: () => output.stderr,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = waitForExit(child);
      child.kill(signal);
      await exited;
    },
    signal(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
    exited: () => waitForExit(child),
    async kill9() {
      await server.stop('SIGKILL');
    },
    async restart() {
      await server.stop('SIGTERM');
      const again = await launch(argsFor(port), output);
      child = again.child;
      server.url = again.url;
      if (demo) server.demo = await readDemo(dataDir);
    },
    async dispose() {
      await server.stop('SIGTERM');
      if (ownDir) await removeDir(dataDir);
    },
  };
  return server;
}

/** Signs in as a demo user with the password, as the app does, and returns a client with the key. */
export async function loginAs(
  server: ServerProcess | { url: string; demo: DemoCredentials | null },
  who: DemoUser,
): Promise<ApiClient> {
  const demo = server.demo;
  if (!demo) throw new Error('loginAs needs a server started with the demo organization');
  const anonymous = new ApiClient({ serverUrl: server.url });
  const { api_key, email } = await anonymous.fetchApiKey(demo.users[who], demo.password);
  return anonymous.withCredentials({ email, apiKey: api_key });
}
