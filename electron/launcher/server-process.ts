/**
 * Starting and stopping the embedded server's process, the same for the launcher's Node child
 * (launcher/embedded-server.ts) and the packaged app's Electron utility process
 * (main/embedded-server.ts): its command line, the line that says it listens, and stopping any
 * child the launcher started. No electron import.
 */
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * The embedded server's command line, the same in a utility process (packaged app) and as a
 * child of the launcher: loopback only, a port the OS picks, the demo organization on first run.
 * Its drain on SIGTERM ends well inside the 10 s its stopper waits before SIGKILL, so a hung
 * request cannot cost the event queues it writes last.
 */
export function embeddedServerArgs(dataDir: string): string[] {
  return ['--host', '127.0.0.1', '--port', '0', '--data-dir', dataDir, '--demo', '--drain-seconds', '5'];
}

/** The server's one line on stdout once it accepts requests (server/main.ts); null otherwise. */
export function parseListeningLine(line: string): string | null {
  const match = /^listening on (http:\/\/127\.0\.0\.1:\d{1,5})\/?$/.exec(line.trim());
  return match?.[1] ?? null;
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** "SIGKILL", or "code 1". */
export function describeExit({ code, signal }: ExitStatus): string {
  return signal ?? `code ${code}`;
}

/**
 * What waitForListening reads of a starting server: a Node ChildProcess and Electron's
 * UtilityProcess both have a stdout stream and an exit event to build it from.
 */
export interface StartingServer {
  /** The server's standard output (null when it was not piped: then only exit or timeout end the wait). */
  readonly stdout: NodeJS.ReadableStream | null;
  /** Settles when the process has exited, for whatever reason. */
  readonly exited: Promise<ExitStatus>;
  /** Settles when the process could not be started at all (Node's 'error' event), where there is such a thing. */
  readonly failed?: Promise<Error>;
}

export interface WaitForListeningOptions {
  timeoutMs: number;
  /**
   * Every stdout line, before and after the listening line: the stream is read to its end
   * either way, so that the server never blocks on a full pipe.
   */
  onLine?: (line: string) => void;
}

/**
 * The URL of the server's `listening on` line (parseListeningLine: loopback only); rejects
 * when the process exits or fails first, or after `timeoutMs`. Stopping the process after a
 * failure is the caller's job.
 */
export function waitForListening(server: StartingServer, options: WaitForListeningOptions): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let settled = false;
    const timer = setTimeout(
      () => fail(new Error('the embedded server did not start in time')),
      options.timeoutMs,
    );
    const settle = () => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      return true;
    };
    const fail = (error: Error) => {
      if (settle()) reject(error);
    };
    if (server.stdout) {
      createInterface({ input: server.stdout }).on('line', (line) => {
        options.onLine?.(line);
        const url = settled ? null : parseListeningLine(line);
        if (url !== null && settle()) resolve(url);
      });
    }
    void server.exited.then((status) =>
      fail(new Error(`the embedded server exited (${describeExit(status)}) before listening`)),
    );
    void server.failed?.then(fail);
  });
}

/**
 * SIGTERM, then SIGKILL if the child is still there after `graceMs`; resolves once it has
 * exited (at once when it never started or has already exited).
 */
export async function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}
