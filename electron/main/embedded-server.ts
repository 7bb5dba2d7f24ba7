/**
 * The packaged app's embedded server: dist/server/main.cjs (scripts/build-electron.ts) in an
 * Electron utility process, since the RunAsNode fuse is off and there is no Node to spawn.
 * (In development the launcher, electron/launcher/launch.ts, runs it under tsx instead.) Utility
 * processes end with the app's main process, however it ends.
 */
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { utilityProcess } from 'electron';
import { type ExitStatus, embeddedServerArgs, waitForListening } from '../launcher/server-process';

export interface UtilityServer {
  url: string;
  demoCredentialsFile: string;
  /** Asks the server to stop (it writes its queues), and waits until it has. */
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;

export async function startUtilityServer(serverScript: string, profileDir: string): Promise<UtilityServer> {
  const dataDir = path.join(profileDir, 'server');
  await mkdir(profileDir, { recursive: true, mode: 0o700 });
  const child = utilityProcess.fork(serverScript, embeddedServerArgs(dataDir), {
    stdio: 'pipe',
    serviceName: 'Confab server',
  });
  const log = createWriteStream(path.join(profileDir, 'server.log'), { flags: 'a', mode: 0o600 });
  log.on('error', () => undefined);
  let running = true;
  const exited = new Promise<ExitStatus>((resolve) =>
    child.once('exit', (code) => {
      running = false;
      log.end();
      resolve({ code, signal: null });
    }),
  );
  if (child.stderr) createInterface({ input: child.stderr }).on('line', (line) => log.write(`${line}\n`));

  const url = await waitForListening(
    { stdout: child.stdout, exited },
    { timeoutMs: START_TIMEOUT_MS, onLine: (line) => log.write(`${line}\n`) },
  ).catch((error: unknown) => {
    child.kill();
    throw new Error(`${(error as Error).message}; see server.log`);
  });

  return {
    url,
    demoCredentialsFile: path.join(dataDir, 'demo-credentials.json'),
    async stop() {
      if (!running) return;
      child.kill();
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, STOP_TIMEOUT_MS))]);
    },
  };
}
