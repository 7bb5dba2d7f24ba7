import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ChromiumPathError,
  ensureChromium,
  type FoundChromium,
  findChromium,
  type InstallStep,
  isDebianLike,
  NO_CHROMIUM_LINE,
} from './chromium';

const dir = mkdtempSync(path.join(tmpdir(), 'confab-chromium-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A real executable file standing in for a browser binary (it is never started). */
function executable(name: string, mode = 0o755): string {
  const file = path.join(dir, name);
  writeFileSync(file, '#!/bin/sh\nexit 0\n');
  chmodSync(file, mode);
  return file;
}

describe('findChromium', () => {
  const binDir = path.join(dir, 'bin');
  const systemChromium = (() => {
    mkdirSync(binDir, { recursive: true });
    const file = path.join(binDir, 'google-chrome');
    writeFileSync(file, '#!/bin/sh\n');
    chmodSync(file, 0o755);
    return file;
  })();

  it('takes CHROMIUM_PATH first, before Playwright and the system', () => {
    const asked = executable('my-chromium');
    expect(findChromium({ CHROMIUM_PATH: asked, PATH: binDir }, '/pw/chrome', [])).toEqual({
      path: asked,
      source: 'CHROMIUM_PATH',
    });
  });

  it('refuses a CHROMIUM_PATH that is missing or not executable instead of testing another browser', () => {
    expect(() => findChromium({ CHROMIUM_PATH: path.join(dir, 'nope') }, null, [])).toThrow(
      new ChromiumPathError(`CHROMIUM_PATH=${path.join(dir, 'nope')} is not an executable file`),
    );
    const plain = executable('not-executable', 0o644);
    expect(() => findChromium({ CHROMIUM_PATH: plain }, null, [])).toThrow(ChromiumPathError);
  });

  it("prefers Playwright's own browser over the system's", () => {
    expect(findChromium({ PATH: binDir }, '/pw/chrome', [])).toEqual({
      path: '/pw/chrome',
      source: "Playwright's browser",
    });
  });

  it('finds the system browser on PATH, and in the fallback folders when PATH lacks it', () => {
    expect(findChromium({ PATH: binDir }, null, [])).toEqual({
      path: systemChromium,
      source: "the system's google-chrome",
    });
    expect(findChromium({ PATH: '' }, null, [binDir])?.path).toBe(systemChromium);
  });

  it('finds nothing where there is nothing', () => {
    expect(findChromium({ PATH: path.join(dir, 'empty') }, null, [])).toBeNull();
  });
});

describe('isDebianLike', () => {
  it('knows Debian and Ubuntu by ID or ID_LIKE', () => {
    expect(isDebianLike('PRETTY_NAME="Debian GNU/Linux 12"\nID=debian\n')).toBe(true);
    expect(isDebianLike('ID=ubuntu\nID_LIKE=debian\n')).toBe(true);
    expect(isDebianLike('ID=linuxmint\nID_LIKE="ubuntu debian"\n')).toBe(true);
    expect(isDebianLike('ID="fedora"\n')).toBe(false);
    expect(isDebianLike('')).toBe(false);
  });
});

describe('ensureChromium', () => {
  const browser: FoundChromium = { path: '/usr/bin/chromium', source: "the system's chromium" };

  function step(name: string, applies: boolean, run: () => boolean): InstallStep & { ran: number } {
    const s = {
      name,
      ran: 0,
      applies: () => applies,
      run: () => {
        s.ran += 1;
        return run();
      },
    };
    return s;
  }

  it('installs nothing when a browser is there', async () => {
    const install = step('a', true, () => true);
    const log: string[] = [];
    expect(
      await ensureChromium({ find: async () => browser, steps: [install], log: (l) => log.push(l) }),
    ).toBe(browser);
    expect(install.ran).toBe(0);
    expect(log).toEqual([]);
  });

  it('tries the steps in order, skipping those that do not apply, until one yields a browser', async () => {
    let installed = false;
    const failing = step('npx playwright install chromium', true, () => false);
    const notHere = step('somewhere else', false, () => true);
    const apt = step('apt-get install chromium', true, () => {
      installed = true;
      return true;
    });
    const log: string[] = [];
    const found = await ensureChromium({
      find: async () => (installed ? browser : null),
      steps: [failing, notHere, apt],
      log: (l) => log.push(l),
    });
    expect(found).toBe(browser);
    expect([failing.ran, notHere.ran, apt.ran]).toEqual([1, 0, 1]);
    expect(log).toEqual([
      'no Chromium found; trying npx playwright install chromium',
      'no Chromium found; trying apt-get install chromium',
    ]);
  });

  it('ends with one line naming what to install when nothing works', async () => {
    const log: string[] = [];
    const found = await ensureChromium({
      find: async () => null,
      steps: [step('npx playwright install chromium', true, () => true)],
      log: (l) => log.push(l),
    });
    expect(found).toBeNull();
    expect(log.at(-1)).toBe(NO_CHROMIUM_LINE);
    expect(NO_CHROMIUM_LINE).toBe(
      'end-to-end tests need Chromium: install it (Debian/Ubuntu: apt-get install chromium; elsewhere: npx playwright install chromium) or set CHROMIUM_PATH',
    );
  });
});
