/**
 * Which Chromium the end-to-end tests drive, and how `npm test` gets one on a machine that
 * has none. Browsers are found in this order: `CHROMIUM_PATH`, Playwright's own browser
 * (where `npx playwright install chromium` worked), then the system's Chromium or Chrome.
 * When none is there, `ensureChromium` tries Playwright's installer, then Debian's package
 * (as root on Debian or Ubuntu), and otherwise stops with one line saying what to install.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export interface FoundChromium {
  path: string;
  /** Where it was found, for the log line. */
  source: string;
}

/** System browsers looked up on PATH, most specific first. */
export const SYSTEM_BROWSERS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

/** One line for a machine where no browser could be found or installed. */
export const NO_CHROMIUM_LINE =
  'end-to-end tests need Chromium: install it (Debian/Ubuntu: apt-get install chromium; elsewhere: npx playwright install chromium) or set CHROMIUM_PATH';

export function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first executable called `name` on the PATH given. */
export function onPath(name: string, pathVar: string | undefined): string | null {
  for (const dir of (pathVar ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const file = path.join(dir, name);
    if (isExecutableFile(file)) return file;
  }
  return null;
}

/** Playwright's own Chromium, where its installer put one (null when it did not). */
export async function playwrightChromium(): Promise<string | null> {
  try {
    const { chromium } = await import('@playwright/test');
    const file = chromium.executablePath();
    return isExecutableFile(file) ? file : null;
  } catch {
    return null;
  }
}

export class ChromiumPathError extends Error {}

/**
 * The browser to use. A `CHROMIUM_PATH` that is not an executable file is an error rather than
 * a silent fall-through, so a typo does not test another browser than the one asked for.
 */
export function findChromium(
  env: NodeJS.ProcessEnv,
  playwrightPath: string | null,
  fallbackDirs: readonly string[] = ['/usr/bin'],
): FoundChromium | null {
  const asked = env.CHROMIUM_PATH;
  if (asked) {
    if (!isExecutableFile(asked))
      throw new ChromiumPathError(`CHROMIUM_PATH=${asked} is not an executable file`);
    return { path: asked, source: 'CHROMIUM_PATH' };
  }
  if (playwrightPath) return { path: playwrightPath, source: "Playwright's browser" };
  const searchPath = [env.PATH, ...fallbackDirs].filter(Boolean).join(path.delimiter);
  for (const name of SYSTEM_BROWSERS) {
    const file = onPath(name, searchPath);
    if (file) return { path: file, source: `the system's ${name}` };
  }
  return null;
}

/** Debian or a derivative (Ubuntu), from /etc/os-release's ID and ID_LIKE. */
export function isDebianLike(osRelease: string): boolean {
  const field = (key: string) =>
    osRelease.match(new RegExp(`^${key}=(.*)$`, 'm'))?.[1]?.replace(/^["']|["']$/g, '') ?? '';
  return [field('ID'), ...field('ID_LIKE').split(/\s+/)].some((id) => id === 'debian' || id === 'ubuntu');
}

export interface InstallStep {
  name: string;
  /** Whether the step can run on this machine at all. */
  applies: () => boolean;
  /** Runs the step; true when it finished without error. */
  run: () => boolean;
}

/** Runs a command with its output kept; on failure logs only its last line of errors. */
function runQuietly(command: string, args: string[], env?: NodeJS.ProcessEnv): boolean {
  const result = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'], env: env ?? process.env });
  if (result.status === 0) return true;
  const lines = String(result.stderr ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  console.error(`  ${[command, ...args].join(' ')} failed: ${lines.at(-1) ?? `exit ${result.status}`}`);
  return false;
}

/** Playwright's installer, then Debian's package as root on Debian or Ubuntu. */
export function defaultInstallSteps(repoRoot: string): InstallStep[] {
  const playwrightCli = path.join(repoRoot, 'node_modules', '.bin', 'playwright');
  return [
    {
      name: 'npx playwright install chromium',
      applies: () => isExecutableFile(playwrightCli),
      run: () => runQuietly(playwrightCli, ['install', 'chromium']),
    },
    {
      name: 'apt-get install chromium',
      applies: () => {
        let osRelease = '';
        try {
          osRelease = readFileSync('/etc/os-release', 'utf8');
        } catch {}
        return (
          process.getuid?.() === 0 && isDebianLike(osRelease) && onPath('apt-get', process.env.PATH) !== null
        );
      },
      run: () => {
        const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
        return (
          runQuietly('apt-get', ['update', '-qq'], env) &&
          runQuietly('apt-get', ['install', '-y', '-qq', 'chromium'], env)
        );
      },
    },
  ];
}

export interface EnsureOptions {
  /** Finds a browser now (called again after each install step). */
  find: () => Promise<FoundChromium | null>;
  steps: InstallStep[];
  log: (line: string) => void;
}

/** A browser, installing one where a step can; null (after logging NO_CHROMIUM_LINE) otherwise. */
export async function ensureChromium({ find, steps, log }: EnsureOptions): Promise<FoundChromium | null> {
  const found = await find();
  if (found) return found;
  for (const step of steps) {
    if (!step.applies()) continue;
    log(`no Chromium found; trying ${step.name}`);
    if (!step.run()) continue;
    const installed = await find();
    if (installed) return installed;
  }
  log(NO_CHROMIUM_LINE);
  return null;
}
