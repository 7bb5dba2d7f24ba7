/**
 * Bundles the Electron main process, the preload and the embedded server with esbuild:
 *   electron/main/index.ts    -> dist/electron/main.cjs     (Node, electron + native modules external)
 *   electron/preload/index.ts -> dist/electron/preload.cjs  (one file: a sandboxed preload can
 *                                                            require nothing but 'electron')
 *   server/main.ts            -> dist/server/main.cjs       (the packaged app's embedded server, run
 *                                                            in a utility process: RunAsNode is off,
 *                                                            so there is no tsx; better-sqlite3 stays
 *                                                            external, rebuilt for Electron by
 *                                                            electron-builder)
 * The renderer is built by Vite (`npm run build:renderer`). `--icon [FILE]` instead rewrites
 * build/icon.png from electron/host/icons.ts.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { appIconPng } from '../electron/host/icons';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Targets are conservative for Electron 40 (Node 22+ / Chromium 130+ are safe floors).
const common = {
  bundle: true,
  format: 'cjs',
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  absWorkingDir: repoRoot,
} as const;

/** The server's entry ends in a top-level `await main();`, which CJS cannot express. */
const SERVER_ENTRY_AWAIT = /^await main\(\);\s*$/m;

/**
 * Rewrites that one statement into a promise chain with the same outcome (an unhandled
 * failure ends the process). Fails the build if the entry no longer has that shape, so a
 * change there is noticed here rather than in a packaged app.
 */
const serverEntryWithoutTopLevelAwait: Plugin = {
  name: 'server-entry-without-top-level-await',
  setup(b) {
    const entry = path.join(repoRoot, 'server', 'main.ts');
    b.onLoad({ filter: /[\\/]server[\\/]main\.ts$/ }, async (args) => {
      if (path.resolve(args.path) !== entry) return undefined;
      const source = await readFile(args.path, 'utf8');
      if (!SERVER_ENTRY_AWAIT.test(source)) {
        throw new Error('server/main.ts no longer ends in `await main();`: update scripts/build-electron.ts');
      }
      const contents = source.replace(
        SERVER_ENTRY_AWAIT,
        "main().catch((error) => {\n  process.stderr.write('confab-server: ' + String(error) + '\\n');\n  process.exit(1);\n});\n",
      );
      return { contents, loader: 'ts' };
    });
  },
};

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
    buildServer(serverDir),
  ]);
}

/** The embedded server as one CJS file that plain Node and Electron's utility process can run. */
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
    plugins: [serverEntryWithoutTopLevelAwait],
  });
}

/** The packaging icon (build/icon.png, 512 px; electron-builder derives the .icns and .ico from it). */
export async function writeAppIcon(file = path.join(repoRoot, 'build', 'icon.png')): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, appIconPng(512));
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [first, second] = process.argv.slice(2);
  const outDir = first ? path.resolve(first) : undefined;
  const task =
    first === '--icon' ? writeAppIcon(second ? path.resolve(second) : undefined) : buildElectron(outDir);
  task.catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
