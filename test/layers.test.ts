/**
 * The layer rules of DESIGN.md are enforced by the tsconfig projects: a wrong-layer import
 * must be a type error. Each case builds one probe file under a config that extends a real
 * project's config (same lib, types, paths, composite include rule and references, so adding
 * a reference would let the import through) and expects tsc to name the import: TS6307 ("not
 * listed within the file list of project") for a file of ours outside the project and its
 * references, a missing module or member for a package the runtime does not have. Controls
 * show that allowed imports compile.
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './support/server';

const run = promisify(execFile);
const PROBES = join(REPO_ROOT, '.tsbuild', 'layer-probes');
const TSC = join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
/** From a probe's directory (.tsbuild/layer-probes/NAME) back to the repository root. */
const UP = '../../..';
const NOT_LISTED = 'is not listed within the file list of project';

type Project = 'shared' | 'server' | 'desktop' | 'electron' | 'preload' | 'web';

/** The real project's references, as seen from a probe's directory. */
async function referencesOf(project: Project): Promise<{ path: string }[]> {
  // The tsconfigs carry comments: drop whole-line ones before parsing.
  const text = await readFile(join(REPO_ROOT, `tsconfig.${project}.json`), 'utf8');
  const config = JSON.parse(text.replace(/^\s*\/\/.*$/gm, '')) as { references?: { path: string }[] };
  return (config.references ?? []).map((r) => ({ path: `${UP}/${r.path}` }));
}

async function compile(project: Project, name: string, source: string): Promise<string> {
  const dir = join(PROBES, name);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'probe.ts'), source);
  const config = join(dir, 'tsconfig.json');
  await writeFile(
    config,
    JSON.stringify({
      extends: `${UP}/tsconfig.${project}.json`,
      compilerOptions: { outDir: './out', tsBuildInfoFile: './out/probe.tsbuildinfo', rootDir: UP },
      references: await referencesOf(project),
      include: ['probe.ts'],
      exclude: [],
    }),
  );
  try {
    await run(process.execPath, [TSC, '-b', config], { cwd: REPO_ROOT });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

/** A probe's source: imports `name` from `module` and uses it. */
const importing = (module: string, name: string) =>
  `import { ${name} } from '${module}';\nexport const x = ${name};\n`;

/** A file of ours as a probe imports it (`file` from the repository root). */
const repoFile = (file: string) => `${UP}/${file}`;

/** The probe's own errors (a referenced project mid-edit may report others). */
const probeErrors = (out: string) =>
  out
    .split('\n')
    .filter((line) => line.includes('probe.ts'))
    .join('\n');

afterAll(() => rm(PROBES, { recursive: true, force: true }));

// tsc takes seconds per probe, and builds the referenced projects first when they are stale.
describe('wrong-layer imports are type errors', { timeout: 120_000 }, () => {
  it('the renderer cannot import node:*', async () => {
    const out = await compile('web', 'web-node', importing('node:fs', 'readFileSync'));
    expect(out).toContain("Cannot find module 'node:fs'");
  });

  it('the renderer cannot import electron', async () => {
    const out = await compile('web', 'web-electron', importing('electron', 'ipcRenderer'));
    expect(out).toContain(`Module '"electron"' has no exported member 'ipcRenderer'`);
  });

  it('the renderer cannot import the main process', async () => {
    const out = await compile('web', 'web-core', importing(repoFile('electron/core'), 'createCore'));
    expect(out).toContain('is not listed within the file list of project');
  });

  it('shared/ cannot import node:* or anything of ours', async () => {
    const node = await compile('shared', 'shared-node', importing('node:path', 'join'));
    expect(node).toContain("Cannot find module 'node:path'");
    const ours = await compile(
      'shared',
      'shared-server',
      importing(repoFile('server/service'), 'startService'),
    );
    expect(ours).toContain('is not listed within the file list of project');
  });

  it('electron/core and the server cannot import electron', async () => {
    for (const project of ['desktop', 'server'] as const) {
      const out = await compile(project, `${project}-electron`, importing('electron', 'app'));
      expect(out).toContain(`Module '"electron"' has no exported member 'app'`);
    }
  });

  it('the server cannot import electron/core', async () => {
    const out = await compile('server', 'server-core', importing(repoFile('electron/core'), 'createCore'));
    expect(probeErrors(out)).toContain(NOT_LISTED);
  });

  it('electron/core (and browser mode, and the launcher) cannot import the server', async () => {
    const out = await compile(
      'desktop',
      'desktop-server',
      importing(repoFile('server/service'), 'startService'),
    );
    expect(probeErrors(out)).toContain(NOT_LISTED);
  });

  it('Electron main cannot import the server', async () => {
    const out = await compile(
      'electron',
      'electron-server',
      importing(repoFile('server/service'), 'startService'),
    );
    expect(probeErrors(out)).toContain(NOT_LISTED);
  });

  it.each([
    ['electron/core', importing(repoFile('electron/core'), 'createCore')],
    ['electron/main', importing(repoFile('electron/main/ipc'), 'registerIpc')],
    ['the renderer', importing(repoFile('renderer/src/bridge'), 'bridge')],
    ['the server', importing(repoFile('server/service'), 'startService')],
  ])('the preload cannot import %s', async (what, source) => {
    const out = await compile('preload', `preload-${what.replace(/\W+/g, '-')}`, source);
    expect(probeErrors(out)).toContain(NOT_LISTED);
  });

  it('allowed imports compile (controls)', async () => {
    expect(await compile('web', 'web-ok', importing('zod', 'z'))).toBe('');
    for (const project of ['desktop', 'server'] as const) {
      expect(await compile(project, `${project}-ok`, importing('node:path', 'join'))).toBe('');
    }
    expect(
      await compile(
        'preload',
        'preload-ok',
        "import { contextBridge } from 'electron';\n" +
          `import { isInvokeChannel } from '${repoFile('shared/ipc/channels')}';\n` +
          'export const x = [contextBridge, isInvokeChannel];\n',
      ),
    ).toBe('');
  });
});
