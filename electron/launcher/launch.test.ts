/**
 * `npm start`: its options, and the launcher run for real (browser-mode fallback, embedded
 * server, stopping everything it started, a stand-in Electron binary). Builds dist/electron,
 * so it type-checks under tsconfig.tools.json.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildElectron } from '../../scripts/build-electron';
import {
  connectWs,
  FIXTURE_INDEX_HTML,
  FrameLog,
  rawRequest,
  writeRendererFixture,
} from '../../test/support/browser-mode';
import { ELECTRON_FALLBACK_MESSAGE, parseLaunchArgs, USAGE, UsageError } from './launch';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const URL_LINE = /Confab is running at (http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]+)/;

describe('parseLaunchArgs', () => {
  it('defaults to Electron, the embedded server, a free port and the per-user profile', () => {
    expect(parseLaunchArgs([])).toEqual({ browser: false, server: null, port: 0, profile: null });
  });

  it('reads every option', () => {
    expect(
      parseLaunchArgs([
        '--browser',
        '--server',
        'https://chat.example.com/',
        '--port',
        '8123',
        '--profile',
        'p',
      ]),
    ).toEqual({ browser: true, server: 'https://chat.example.com', port: 8123, profile: path.resolve('p') });
    expect(parseLaunchArgs(['--port=0', '--server=http://127.0.0.1:9991'])).toMatchObject({
      port: 0,
      server: 'http://127.0.0.1:9991',
    });
  });

  it('spells --server as the core does (shared/url.ts), so demo and stored URLs compare equal', () => {
    expect(parseLaunchArgs(['--server', 'HTTPS://Chat.Example.com:443/team//?next=1#top']).server).toBe(
      'https://chat.example.com/team',
    );
  });

  it.each([
    [['--bogus'], "unknown option '--bogus'"],
    [['-x'], "unknown option '-x'"],
    [['extra'], "Unexpected argument 'extra'"],
    [['--server'], "Option '--server <value>' argument missing"],
    [['--browser=yes'], "Option '--browser' does not take an argument"],
    [['--server', 'ftp://example.com'], "--server must be an http(s) URL, not 'ftp://example.com'"],
    [['--server', 'example.com'], "--server must be an http(s) URL, not 'example.com'"],
    [['--server', 'https://me:secret@example.com'], '--server must not contain a user name or password'],
    [['--port', 'abc'], "--port must be 0..65535, not 'abc'"],
    [['--port', '65536'], "--port must be 0..65535, not '65536'"],
    [['--port', '-1'], "Option '--port' argument is ambiguous"],
    [['--profile', ''], '--profile needs a directory'],
  ])('refuses %j', (argv, message) => {
    let error: unknown;
    try {
      parseLaunchArgs(argv);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toBe(message);
  });
});

// ---- the launcher as a process -------------------------------------------------------------

let tmp: string;
let rendererDir: string;
const launched: ChildProcess[] = [];

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'confab-launch-'));
  rendererDir = path.join(tmp, 'renderer');
  await writeRendererFixture(rendererDir);
});

afterEach(() => {
  for (const child of launched.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

interface Launched {
  child: ChildProcess;
  stdout: string[];
  stderr: string[];
  exited: Promise<number | null>;
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
}

function launch(args: string[], env: NodeJS.ProcessEnv = {}): Launched {
  const fullEnv: NodeJS.ProcessEnv = {
    ...process.env,
    CONFAB_SKIP_ELECTRON_INSTALL: '1',
    CONFAB_RENDERER_DIR: rendererDir,
    ...env,
  };
  if (!('ELECTRON_OVERRIDE_DIST_PATH' in env)) delete fullEnv.ELECTRON_OVERRIDE_DIST_PATH;
  const child = spawn(process.execPath, ['--import', 'tsx', 'electron/launcher/launch.ts', ...args], {
    cwd: repoRoot,
    env: fullEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  launched.push(child);
  const stdout: string[] = [];
  const stderr: string[] = [];
  let waiters: Array<() => void> = [];
  const collect = (into: string[]) => {
    let partial = '';
    return (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      into.push(...lines);
      for (const w of waiters) w();
    };
  };
  child.stdout?.on('data', collect(stdout));
  child.stderr?.on('data', collect(stderr));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    stdout,
    stderr,
    exited,
    waitForLine(pattern, timeoutMs = 90_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          for (const line of stdout) {
            const match = pattern.exec(line);
            if (match) {
              clearTimeout(timer);
              waiters = waiters.filter((w) => w !== check);
              resolve(match);
              return;
            }
          }
        };
        const timer = setTimeout(() => {
          reject(
            new Error(
              `no line ${pattern}; stdout ${JSON.stringify(stdout)}; stderr ${JSON.stringify(stderr)}`,
            ),
          );
        }, timeoutMs);
        waiters.push(check);
        check();
        void exited.then(() => {
          check();
          clearTimeout(timer);
          reject(
            new Error(`launcher exited; stdout ${JSON.stringify(stdout)}; stderr ${JSON.stringify(stderr)}`),
          );
        });
      });
    },
  };
}

/** Direct children of a process, from /proc (Linux). */
async function childPids(pid: number): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await readFile(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name, which is in parentheses and may contain anything.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === pid) pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the launcher', () => {
  it('prints a one-line usage error and exits 2 on an unknown option', async () => {
    const run = launch(['--bogus']);
    expect(await run.exited).toBe(2);
    expect(run.stderr.filter((l) => l !== '')).toEqual([`confab: unknown option '--bogus'; ${USAGE}`]);
    expect(run.stdout.filter((l) => l !== '')).toEqual([]);
  });

  it('falls back to browser mode in one line, runs the embedded demo server, and stops it on SIGTERM', async () => {
    const profile = path.join(tmp, 'profile-fallback');
    const run = launch(['--profile', profile]);
    const [, pageUrl = ''] = await run.waitForLine(URL_LINE);
    expect(run.stdout.filter((l) => l === ELECTRON_FALLBACK_MESSAGE)).toHaveLength(1);
    expect(run.stdout[0]).toBe(
      'Electron is not available here (its binary could not be downloaded); starting browser mode.',
    );

    // The page, with the secret from the printed URL.
    const url = new URL(pageUrl);
    const page = await rawRequest(Number(url.port), `/?token=${url.searchParams.get('token')}`);
    expect(page.status).toBe(200);
    expect(page.body).toBe(FIXTURE_INDEX_HTML);

    // The embedded server runs with its data under the profile and seeded the demo.
    const demo = JSON.parse(
      await readFile(path.join(profile, 'server', 'demo-credentials.json'), 'utf8'),
    ) as {
      url: string;
      users: Record<string, string>;
    };
    expect(run.stdout).toContain(`Embedded server at ${demo.url} (data in ${path.join(profile, 'server')})`);
    const serverUrl = new URL(demo.url);
    expect((await rawRequest(Number(serverUrl.port), '/api/v1/users/me')).status).toBe(401);

    // The app behind the page knows it (sign-in screen prefill and demo accounts).
    const ws = await connectWs(
      `ws://127.0.0.1:${url.port}/bridge?token=${url.searchParams.get('token')}`,
      `http://127.0.0.1:${url.port}`,
    );
    if (!ws.ws) throw new Error(`refused: ${ws.status}`);
    const info = await new FrameLog(ws.ws).invoke(1, 'app.getInfo', {});
    ws.ws.close();
    expect(info).toMatchObject({
      kind: 'result',
      result: {
        ok: true,
        value: { mode: 'browser', defaultServerUrl: demo.url, secretStorageEncrypted: false },
      },
    });
    const logins = (info as { result: { value: { demoLogins: { email: string }[] } } }).result.value
      .demoLogins;
    expect(logins.map((l) => l.email)).toContain(demo.users.alice);

    const children = await childPids(run.child.pid ?? -1);
    expect(children).toHaveLength(1);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    for (const pid of children) expect(isAlive(pid)).toBe(false);
    await expect(rawRequest(Number(serverUrl.port), '/api/v1/users/me')).rejects.toThrow(/ECONNREFUSED/);
    await expect(rawRequest(Number(url.port), '/assets/app.js')).rejects.toThrow(/ECONNREFUSED/);
  });

  it('takes the embedded server down with it even when killed with SIGKILL', async () => {
    const run = launch(['--browser', '--profile', path.join(tmp, 'profile-kill9')]);
    await run.waitForLine(URL_LINE);
    const children = await childPids(run.child.pid ?? -1);
    expect(children).toHaveLength(1);
    run.child.kill('SIGKILL');
    await run.exited;
    for (const pid of children) await expect.poll(() => isAlive(pid), { timeout: 20_000 }).toBe(false);
  });

  it('with --browser --server --port: no fallback line, no embedded server, the given port', async () => {
    const port = await freePort();
    const run = launch([
      '--browser',
      '--server',
      'http://127.0.0.1:9',
      '--port',
      String(port),
      '--profile',
      path.join(tmp, 'profile-remote'),
    ]);
    const [, pageUrl = ''] = await run.waitForLine(URL_LINE);
    expect(new URL(pageUrl).port).toBe(String(port));
    expect(run.stdout).not.toContain(ELECTRON_FALLBACK_MESSAGE);
    expect(run.stdout.some((l) => l.startsWith('Embedded server'))).toBe(false);
    expect(await childPids(run.child.pid ?? -1)).toEqual([]);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
  });

  it('fails in one line when the renderer is not built', async () => {
    const run = launch(
      ['--browser', '--server', 'http://127.0.0.1:9', '--profile', path.join(tmp, 'p-nobuild')],
      {
        CONFAB_RENDERER_DIR: path.join(tmp, 'no-such-build'),
      },
    );
    expect(await run.exited).toBe(1);
    expect(run.stderr.filter((l) => l !== '')).toEqual([
      `confab: the renderer is not built (no ${path.join(tmp, 'no-such-build', 'index.html')}): run \`npm run build\``,
    ]);
  });

  describe('with an Electron binary (a stand-in script)', () => {
    let fakeDir: string;

    beforeAll(async () => {
      await buildElectron();
      fakeDir = path.join(tmp, 'fake-electron');
      await mkdir(fakeDir);
      // Records how it was started, then exits with the code the test asks for.
      const script = [
        '#!/bin/sh',
        'printf "%s\\n" "$@" > "$FAKE_ELECTRON_RECORD"',
        'printf "server=%s\\nprofile=%s\\ndemo=%s\\n" "$CONFAB_SERVER_URL" "$CONFAB_PROFILE_DIR" \\',
        '  "$CONFAB_DEMO_CREDENTIALS_FILE" >> "$FAKE_ELECTRON_RECORD"',
        'echo "run_as_node=$(printenv ELECTRON_RUN_AS_NODE || echo unset)" >> "$FAKE_ELECTRON_RECORD"',
        'exit "$FAKE_ELECTRON_EXIT"',
        '',
      ].join('\n');
      await writeFile(path.join(fakeDir, 'electron'), script);
      await chmod(path.join(fakeDir, 'electron'), 0o755);
    });

    it('runs dist/electron/main.cjs with the settings, and exits with its code after stopping the server', async () => {
      const profile = path.join(tmp, 'profile-electron');
      const record = path.join(tmp, 'electron-record.txt');
      const run = launch(['--profile', profile], {
        ELECTRON_OVERRIDE_DIST_PATH: fakeDir,
        FAKE_ELECTRON_RECORD: record,
        FAKE_ELECTRON_EXIT: '3',
        ELECTRON_RUN_AS_NODE: '1',
      });
      expect(await run.exited).toBe(3);
      expect(run.stdout).not.toContain(ELECTRON_FALLBACK_MESSAGE);
      const demoFile = path.join(profile, 'server', 'demo-credentials.json');
      const demo = JSON.parse(await readFile(demoFile, 'utf8')) as { url: string };
      expect((await readFile(record, 'utf8')).split('\n')).toEqual([
        path.join(repoRoot, 'dist', 'electron', 'main.cjs'),
        `server=${demo.url}`,
        `profile=${profile}`,
        `demo=${demoFile}`,
        'run_as_node=unset',
        '',
      ]);
      await expect(rawRequest(Number(new URL(demo.url).port), '/api/v1/users/me')).rejects.toThrow(
        /ECONNREFUSED/,
      );
    });
  });
});
