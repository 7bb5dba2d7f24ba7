// electron-builder.yml: checked against electron-builder's own schema (so a misspelt key
// fails here, not at packaging time) and for the settings that matter.
import { access, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeRendererFixture } from '../test/support/browser-mode';
import { buildElectron } from './build-electron';

const require = createRequire(import.meta.url);
// Both come with electron-builder; js-yaml has no bundled types, so type what we use.
const yaml = require('js-yaml') as { load(text: string): unknown };
const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  validateConfiguration(config: unknown, debugLogger: { isEnabled: boolean; add(): void }): Promise<void>;
};

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
type Config = Record<string, unknown> & {
  electronFuses: Record<string, boolean>;
  linux: { target: string[]; icon: string };
  mac: { target: string[]; icon: string };
  win: { target: string[]; icon: string };
  files: string[];
};
let config: Config;

beforeAll(async () => {
  config = yaml.load(await readFile(path.join(repoRoot, 'electron-builder.yml'), 'utf8')) as Config;
});

const noDebug = { isEnabled: false, add: () => undefined };

describe('electron-builder.yml', () => {
  it('matches the electron-builder schema', async () => {
    await expect(validateConfiguration(config, noDebug)).resolves.toBeUndefined();
  });

  it('would catch a misspelt fuse', async () => {
    const broken = { ...config, electronFuses: { ...config.electronFuses, runAsNod: false } };
    await expect(validateConfiguration(broken, noDebug)).rejects.toThrow(/Invalid configuration object/);
  });

  it('names the app', () => {
    expect(config.appId).toBe('org.confab.desktop');
    expect(config.productName).toBe('Confab');
  });

  it('flips the security fuses', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
    expect(config.asar).toBe(true);
  });

  it('unpacks and rebuilds the native SQLite driver, and uses the committed icons', () => {
    expect(config.asarUnpack).toEqual(['node_modules/better-sqlite3/**']);
    expect([config.npmRebuild, config.buildDependenciesFromSource, config.nodeGypRebuild]).toEqual([
      true,
      false,
      false,
    ]);
    expect(config.linux.icon).toBe('build/icons');
    for (const platform of [config.mac, config.win]) expect(platform.icon).toBe('build/icons/512x512.png');
  });

  it('names icons that are committed', async () => {
    for (const icon of [config.linux.icon, config.mac.icon, config.win.icon]) {
      await expect(access(path.join(repoRoot, icon))).resolves.toBeUndefined();
    }
  });

  it('builds AppImage and deb, dmg, nsis from dist/ and package.json', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.files).toEqual(['dist/**', '!dist/**/*.map', 'package.json']);
  });
});

// ---- packaging for real, with a stand-in Electron binary ---------------------------------------

const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
// Electron 40's fuse wire as shipped: version 1, 8 fuses. '1' on, '0' off (as in the real binary).
const SHIPPED_FUSES = '10110001';
const FUSE_NAMES = [
  'RunAsNode',
  'EnableCookieEncryption',
  'EnableNodeOptionsEnvironmentVariable',
  'EnableNodeCliInspectArguments',
  'EnableEmbeddedAsarIntegrityValidation',
  'OnlyLoadAppFromAsar',
  'LoadBrowserProcessSpecificV8Snapshot',
  'GrantFileProtocolExtraPrivileges',
];

function readFuses(binary: Buffer): Record<string, string> {
  const at = binary.indexOf(FUSE_SENTINEL) + FUSE_SENTINEL.length;
  expect(binary[at]).toBe(1);
  const length = binary[at + 1] ?? 0;
  const wire = binary.subarray(at + 2, at + 2 + length).toString('latin1');
  return Object.fromEntries(FUSE_NAMES.map((name, i) => [name, wire[i] ?? '?']));
}

describe('electron-builder --linux dir (stand-in Electron binary)', () => {
  let tmp: string;
  let appDir: string;

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'confab-pack-'));
    // The stand-in: Electron's layout on Linux, a binary that is nothing but the fuse wire.
    const electronDist = path.join(tmp, 'electron-dist');
    await mkdir(electronDist, { recursive: true });
    const wire = Buffer.concat([
      Buffer.from([1, SHIPPED_FUSES.length]),
      Buffer.from(SHIPPED_FUSES, 'latin1'),
    ]);
    await writeFile(
      path.join(electronDist, 'electron'),
      Buffer.concat([Buffer.from('#!/bin/sh\nexit 0\n'), Buffer.from(FUSE_SENTINEL), wire, Buffer.alloc(16)]),
      { mode: 0o755 },
    );
    await writeFile(path.join(electronDist, 'LICENSE'), 'stand-in\n');
    // Our bundles, built into the temporary directory (not the working tree's dist/).
    const dist = path.join(tmp, 'dist');
    await buildElectron(path.join(dist, 'electron'));
    await writeRendererFixture(path.join(dist, 'renderer'));

    const { build, Platform } = require('electron-builder') as typeof import('electron-builder');
    await build({
      projectDir: repoRoot,
      targets: Platform.LINUX.createTarget('dir'),
      config: {
        ...(config as object),
        // Only these differ from electron-builder.yml: where from and where to, no download of
        // Electron, and no rebuild of better-sqlite3 (that needs Electron's headers, online).
        files: [{ from: dist, to: 'dist', filter: ['**/*', '!**/*.map'] }, 'package.json'],
        directories: { output: path.join(tmp, 'release'), buildResources: 'build' },
        electronDist,
        npmRebuild: false,
      },
      publish: 'never',
    });
    appDir = path.join(tmp, 'release', 'linux-unpacked');
  }, 240_000);

  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  it('flips the fuses in the packaged binary', async () => {
    expect(readFuses(await readFile(path.join(appDir, 'confab')))).toEqual({
      RunAsNode: '0',
      EnableCookieEncryption: '1',
      EnableNodeOptionsEnvironmentVariable: '0',
      EnableNodeCliInspectArguments: '0',
      EnableEmbeddedAsarIntegrityValidation: '1',
      OnlyLoadAppFromAsar: '1',
      LoadBrowserProcessSpecificV8Snapshot: SHIPPED_FUSES[6],
      GrantFileProtocolExtraPrivileges: '0',
    });
  });

  it("packs the bundles and the server's runtime dependencies into app.asar, without source maps", () => {
    const asar = require('@electron/asar') as {
      listPackage(file: string, options?: object): string[];
      extractFile(file: string, inner: string): Buffer;
    };
    const archive = path.join(appDir, 'resources', 'app.asar');
    const files = asar.listPackage(archive).map((f) => f.replaceAll('\\', '/'));
    for (const f of [
      '/package.json',
      '/dist/electron/main.cjs',
      '/dist/electron/preload.cjs',
      '/dist/server/main.cjs',
      '/dist/renderer/index.html',
      '/node_modules/better-sqlite3/package.json',
      '/node_modules/bindings/package.json',
      '/node_modules/emojibase-data/en/data.json',
    ]) {
      expect(files).toContain(f);
    }
    expect(files.filter((f) => f.endsWith('.map') && f.startsWith('/dist/'))).toEqual([]);
    const pkg = JSON.parse(asar.extractFile(archive, 'package.json').toString()) as { main: string };
    expect(pkg.main).toBe('dist/electron/main.cjs');
  });

  it('keeps the native SQLite driver outside the archive', async () => {
    const unpacked = path.join(appDir, 'resources', 'app.asar.unpacked', 'node_modules', 'better-sqlite3');
    expect(await readdir(path.join(unpacked, 'build', 'Release'))).toContain('better_sqlite3.node');
  });
});
