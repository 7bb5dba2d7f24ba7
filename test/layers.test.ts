/**
 * The layer rules of DESIGN.md are enforced by the per-runtime tsconfigs: a wrong-layer import
 * must be a type error. Each case compiles one probe file under a config that extends the real
 * runtime config (same lib, types, paths and composite include rule) and expects tsc to name
 * the import; a control case per runtime shows an allowed import compiles.
 */
import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/server';

const run = promisify(execFile);
const PROBES = join(REPO_ROOT, '.tsbuild', 'layer-probes');
const TSC = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

async function compile(runtime: 'shared' | 'node' | 'web', name: string, source: string): Promise<string> {
  const dir = join(PROBES, name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'probe.ts'), source);
  const config = join(dir, 'tsconfig.json');
  await writeFile(
    config,
    JSON.stringify({
      extends: `../../../tsconfig.${runtime}.json`,
      compilerOptions: { outDir: './out', tsBuildInfoFile: './out/probe.tsbuildinfo', rootDir: '../../..' },
      include: ['probe.ts'],
    }),
  );
  try {
    await run(process.execPath, [TSC, '-p', config], { cwd: REPO_ROOT });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

afterAll(() => rm(PROBES, { recursive: true, force: true }));

describe('wrong-layer imports are type errors', () => {
  it('the renderer cannot import node:*', async () => {
    const out = await compile(
      'web',
      'web-node',
      "import { readFileSync } from 'node:fs';\nexport const f = readFileSync;\n",
    );
    expect(out).toContain("Cannot find module 'node:fs'");
  });

  it('the renderer cannot import electron', async () => {
    const out = await compile(
      'web',
      'web-electron',
      "import { ipcRenderer } from 'electron';\nexport const i = ipcRenderer;\n",
    );
    expect(out).toContain(`Module '"electron"' has no exported member 'ipcRenderer'`);
  });

  it('the renderer cannot import the main process', async () => {
    const out = await compile(
      'web',
      'web-core',
      "import { createCore } from '../../../electron/core';\nexport const c = createCore;\n",
    );
    expect(out).toContain('is not listed within the file list of project');
  });

  it('shared/ cannot import node:* or anything of ours', async () => {
    const node = await compile(
      'shared',
      'shared-node',
      "import { join } from 'node:path';\nexport const j = join;\n",
    );
    expect(node).toContain("Cannot find module 'node:path'");
    const ours = await compile(
      'shared',
      'shared-server',
      "import { startService } from '../../../server/service';\nexport const s = startService;\n",
    );
    expect(ours).toContain('is not listed within the file list of project');
  });

  it('electron/core and the server cannot import electron', async () => {
    const out = await compile(
      'node',
      'node-electron',
      "import { app } from 'electron';\nexport const a = app;\n",
    );
    expect(out).toContain(`Module '"electron"' has no exported member 'app'`);
  });

  it('allowed imports compile (controls)', async () => {
    expect(await compile('web', 'web-ok', "import { z } from 'zod';\nexport const s = z.string();\n")).toBe(
      '',
    );
    expect(
      await compile('node', 'node-ok', "import { join } from 'node:path';\nexport const j = join;\n"),
    ).toBe('');
  });
});
