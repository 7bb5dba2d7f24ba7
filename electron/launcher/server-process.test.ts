/** The embedded server's process: its command line, waiting for its listening line, stopping it. */
import { type ChildProcess, spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import {
  describeExit,
  type ExitStatus,
  embeddedServerArgs,
  parseListeningLine,
  stopChild,
  waitForListening,
} from './server-process';

/** A starting server whose output and exit the test writes. */
function fakeServer() {
  const stdout = new PassThrough();
  let exit!: (status: ExitStatus) => void;
  let fail!: (error: Error) => void;
  const exited = new Promise<ExitStatus>((resolve) => {
    exit = resolve;
  });
  const failed = new Promise<Error>((resolve) => {
    fail = resolve;
  });
  return { source: { stdout, exited, failed }, stdout, exit, fail };
}

describe('waitForListening', () => {
  it('resolves with the listening URL, and keeps passing every line on', async () => {
    const server = fakeServer();
    const lines: string[] = [];
    const url = waitForListening(server.source, { timeoutMs: 5_000, onLine: (line) => lines.push(line) });
    server.stdout.write('migrating\nlistening on http://127.0.0.1:43567\n');
    await expect(url).resolves.toBe('http://127.0.0.1:43567');
    server.stdout.write('later\n');
    server.exit({ code: 0, signal: null });
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toEqual(['migrating', 'listening on http://127.0.0.1:43567', 'later']);
  });

  it('ignores a listening line that is not on loopback (electron-policy)', async () => {
    const server = fakeServer();
    const url = waitForListening(server.source, { timeoutMs: 5_000 });
    server.stdout.write('listening on http://0.0.0.0:80\n');
    server.exit({ code: 1, signal: null });
    await expect(url).rejects.toThrow('the embedded server exited (code 1) before listening');
  });

  it('rejects when the process exits, fails to start, or takes too long', async () => {
    const killed = fakeServer();
    const first = waitForListening(killed.source, { timeoutMs: 5_000 });
    killed.exit({ code: null, signal: 'SIGKILL' });
    await expect(first).rejects.toThrow('the embedded server exited (SIGKILL) before listening');

    const broken = fakeServer();
    const second = waitForListening(broken.source, { timeoutMs: 5_000 });
    broken.fail(new Error('spawn ENOENT'));
    await expect(second).rejects.toThrow('spawn ENOENT');

    const slow = fakeServer();
    await expect(waitForListening(slow.source, { timeoutMs: 20 })).rejects.toThrow(
      'the embedded server did not start in time',
    );
  });

  it('reads a real child process', async () => {
    const child = spawn(process.execPath, ['-e', 'console.log("listening on http://127.0.0.1:9")'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const exited = new Promise<ExitStatus>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    await expect(waitForListening({ stdout: child.stdout, exited }, { timeoutMs: 10_000 })).resolves.toBe(
      'http://127.0.0.1:9',
    );
    await exited;
  });

  it('describes an exit by its signal, else its code', () => {
    expect(describeExit({ code: null, signal: 'SIGTERM' })).toBe('SIGTERM');
    expect(describeExit({ code: 3, signal: null })).toBe('code 3');
  });
});

describe('stopChild', () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });

  /** A node child that prints "ready" once its SIGTERM handler (if any) is in place. */
  async function startChild(script: string): Promise<ChildProcess> {
    const child = spawn(
      process.execPath,
      ['-e', `${script}; console.log("ready"); setInterval(() => {}, 1000)`],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    children.push(child);
    await new Promise<void>((resolve) => child.stdout?.once('data', () => resolve()));
    return child;
  }

  it('stops a child with SIGTERM', async () => {
    const child = await startChild('');
    await stopChild(child, 10_000);
    expect(child.signalCode).toBe('SIGTERM');
  });

  it('kills a child that ignores SIGTERM once the grace period is over', async () => {
    const child = await startChild('process.on("SIGTERM", () => {})');
    await stopChild(child, 100);
    expect(child.signalCode).toBe('SIGKILL');
  });

  it('returns at once for a child that has already exited', async () => {
    const child = await startChild('');
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    await stopChild(child, 10_000);
    expect(child.signalCode).toBe('SIGKILL');
  });
});

describe('the embedded server', () => {
  it("listens on loopback, on a port the OS picks, with the demo organization, draining within its stopper's grace", () => {
    expect(embeddedServerArgs('/profile/server')).toEqual([
      '--host',
      '127.0.0.1',
      '--port',
      '0',
      '--data-dir',
      '/profile/server',
      '--demo',
      '--drain-seconds',
      '5',
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
