/**
 * Bundles the Electron main process, the preload and the embedded server with esbuild:
 *   electron/main/index.ts    -> dist/electron/main.cjs     (Node, electron + native modules external:
 *                                                            better-sqlite3, the offline message cache
 *                                                            of electron/core/messages)
 *   electron/preload/index.ts -> dist/electron/preload.cjs  (one file: a sandboxed preload can
 *                                                            require nothing but 'electron')
 *   server/main.ts            -> dist/server/main.cjs       (the packaged app's embedded server, run
 *                                                            in a utility process: RunAsNode is off,
 *                                                            so there is no tsx; better-sqlite3 stays
 *                                                            external, rebuilt for Electron by
 *                                                            electron-builder)
 * and copies the images main loads at run time (scripts/icons.ts) to dist/electron/icons/.
 * The renderer is built by Vite (`npm run build:renderer`).
 */
import { copyFile, mkdir } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { RUNTIME_ICONS } from './icons';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Node's built-in modules, required by a dependency under their bare name ('fs', 'path'),
 * stay external and are spelt `node:fs`, `node:path` in the bundle: one spelling, which no
 * package in node_modules can shadow, and which a test can tell from a missed dependency.
 */
const nodeBuiltinsAsNodeScheme: Plugin = {
  name: 'node-builtins-as-node-scheme',
  setup(b) {
    const bare = builtinModules.filter((m) => !m.startsWith('_') && !m.startsWith('node:'));
    b.onResolve({ filter: new RegExp(`^(${bare.join('|')})$`) }, (args) => ({
      path: `node:${args.path}`,
      external: true,
    }));
  },
};

// Targets are conservative for Electron 40 (Node 22+ / Chromium 130+ are safe floors).
const common = {
  bundle: true,
  format: 'cjs',
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  absWorkingDir: repoRoot,
  plugins: [nodeBuiltinsAsNodeScheme] as Plugin[],
} as const;

export async function buildElectron(
  outDir = path.join(repoRoot, 'dist', 'electron'),
  serverDir = path.join(path.dirname(outDir), 'server'),
): Promise<void> {
  await Promise.all([
    build({
      ...common,
      entryPoints: ['electron/main/index.ts'],
      outfile: path.join(outDir, 'main.cjs'),
      platform: 'node',
      target: 'node22',
      external: ['electron', 'better-sqlite3'],
    }),
    build({
      ...common,
      entryPoints: ['electron/preload/index.ts'],
      outfile: path.join(outDir, 'preload.cjs'),
      platform: 'node',
      target: 'chrome130',
      external: ['electron'],
    }),
    copyRuntimeIcons(path.join(outDir, 'icons')),
    buildServer(serverDir),
  ]);
}

/**
 * The embedded server as one CJS file that plain Node and Electron's utility process can run,
 * from the same entry as `npm run server` (which is written without a top-level await for this).
 */
export async function buildServer(outDir = path.join(repoRoot, 'dist', 'server')): Promise<void> {
  await build({
    ...common,
    entryPoints: ['server/main.ts'],
    outfile: path.join(outDir, 'main.cjs'),
    platform: 'node',
    // The development server runs on Node 20 too (tests run the bundle there).
    target: 'node20',
    // Native: resolved from node_modules at run time (in the package: app.asar.unpacked).
    external: ['better-sqlite3'],
    // Modules that call createRequire(import.meta.url) (emoji data, read at run time) get
    // this file's own URL: CJS has no import.meta.
    define: { 'import.meta.url': '__confabImportMetaUrl' },
    banner: { js: "var __confabImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  });
}

/** The tray icon and the taskbar overlay, beside main.cjs (electron/main/icons.ts loads them). */
async function copyRuntimeIcons(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await Promise.all(
    Object.entries(RUNTIME_ICONS).map(([name, source]) =>
      copyFile(path.join(repoRoot, source), path.join(dir, name)),
    ),
  );
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [outDir] = process.argv.slice(2);
  buildElectron(outDir ? path.resolve(outDir) : undefined).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
