// electron-builder.yml: checked against electron-builder's own schema (so a misspelt key
// fails here, not at packaging time) and for the settings that matter.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
// Both come with electron-builder; js-yaml has no bundled types, so type what we use.
const yaml = require('js-yaml') as { load(text: string): unknown };
const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  validateConfiguration(config: unknown, debugLogger: { isEnabled: boolean; add(): void }): Promise<void>;
};

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
type Config = Record<string, unknown> & {
  electronFuses: Record<string, boolean>;
  linux: { target: string[] };
  mac: { target: string[] };
  win: { target: string[] };
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

  it('builds AppImage and deb, dmg, nsis from dist/ and package.json', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.files).toEqual(['dist/**', '!dist/**/*.map', 'package.json']);
  });
});
