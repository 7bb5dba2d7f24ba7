/** The command line: `tsx server/main.ts --host ... --port ... --data-dir ...` as a process. */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { loginAs, makeTempDir, REPO_ROOT, removeDir, startServerProcess } from '../../test/support/server';
import { call } from './support/service';

/** Runs the CLI to its exit and returns what it printed. */
function runToExit(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', ...args], { cwd: REPO_ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      stdout += c;
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      stderr += c;
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`still running: ${stdout}${stderr}`));
    }, 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('server/main.ts', () => {
  it('prints exactly the listening line with the OS-chosen port, and exits 0 on SIGTERM', async () => {
    const dataDir = await makeTempDir('confab-cli-');
    try {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', 'server/main.ts', '--host', '127.0.0.1', '--port', '0', '--data-dir', dataDir],
        { cwd: REPO_ROOT },
      );
      let stdout = '';
      child.stdout.setEncoding('utf8');
      const line = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: string) => {
          stdout += chunk;
          if (stdout.includes('\n')) resolve(stdout);
        });
        child.on('exit', (code) => reject(new Error(`exited with ${code}`)));
      });
      expect(line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\n$/);
      const port = Number(/:(\d+)\n$/.exec(line)?.[1]);
      expect(port).toBeGreaterThan(0);
      // It accepts requests as soon as it says so.
      const r = await call(`http://127.0.0.1:${port}`, 'GET', '/users/me');
      expect(r.status).toBe(401);
      const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exit).toBe(0);
      expect(stdout).toBe(line);
    } finally {
      await removeDir(dataDir);
    }
  });

  it('shuts down at once on SIGTERM even with a client waiting on GET /events', async () => {
    const server = await startServerProcess();
    try {
      const alice = await loginAs(server, 'alice');
      const queue = await alice.registerQueue({ event_types: ['user_settings'] });
      const poll = alice.getEvents({ queue_id: queue.queue_id as string, last_event_id: -1 }).then(
        (r) => r.events,
        (error: unknown) => error,
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      await server.stop('SIGTERM');
      expect(server.exitCode).toBe(0);
      // The waiting client got an answer (no events) rather than hanging for a heartbeat.
      expect(await poll).toEqual([]);
    } finally {
      await server.dispose();
    }
  });

  it('exits 0 on SIGINT', async () => {
    const server = await startServerProcess({ demo: false });
    try {
      await server.stop('SIGINT');
      expect(server.exitCode).toBe(0);
    } finally {
      await server.dispose();
    }
  });

  it('restarts on the same port and data directory; queues survive with a restart event', async () => {
    const server = await startServerProcess();
    try {
      const { port, url } = server;
      const alice = await loginAs(server, 'alice');
      const queue = await alice.registerQueue({});
      await server.restart();
      expect(server.port).toBe(port);
      expect(server.url).toBe(url);
      expect(server.demo.url).toBe(url);
      // SIGTERM writes the queues and the next start reads them back (queue_persistence.test.ts).
      const r = await call(url, 'GET', '/events', {
        auth: [alice.credentials?.email ?? '', alice.credentials?.apiKey ?? ''],
        params: { queue_id: queue.queue_id as string, dont_block: true },
      });
      expect(r.body).toMatchObject({
        result: 'success',
        queue_id: queue.queue_id,
        events: [{ type: 'restart', id: 0 }],
      });
    } finally {
      await server.dispose();
    }
  });

  // Each starts a process that exits at once: run them side by side.
  it.concurrent.each([
    [['--data-dir', '/tmp/x', '--bogus'], "Unknown option '--bogus'"],
    [['--data-dir', '/tmp/x', '--port', 'abc'], "--port must be an integer from 0 to 65535, not 'abc'"],
    [['--data-dir', '/tmp/x', '--port', '70000'], "--port must be an integer from 0 to 65535, not '70000'"],
    [['--port', '0'], '--data-dir is required'],
    [
      ['--data-dir', '/tmp/x', '--heartbeat-seconds', '0'],
      "--heartbeat-seconds must be an integer from 1 to 86400, not '0'",
    ],
    [
      ['--data-dir', '/tmp/x', '--longpoll-seconds', '30'],
      '--longpoll-seconds must be greater than --heartbeat-seconds',
    ],
    [['--data-dir', '/tmp/x', 'extra'], "Unexpected argument 'extra'"],
  ])('rejects %j with one line and exit code 2', async (args, message) => {
    const { code, stdout, stderr } = await runToExit(args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.split('\n')).toEqual([expect.stringContaining(`confab-server: ${message}`), '']);
  });
});
