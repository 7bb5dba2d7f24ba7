/**
 * Bundles the Electron main process and the preload with esbuild (a second or less):
 *   electron/main/index.ts    -> dist/electron/main.cjs     (Node, electron + native modules external)
 *   electron/preload/index.ts -> dist/electron/preload.cjs  (one file: a sandboxed preload can
 *                                                            require nothing but 'electron')
 * The renderer is built by Vite (`npm run build:renderer`).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

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

export async function buildElectron(outDir = path.join(repoRoot, 'dist', 'electron')): Promise<void> {
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
  ]);
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = process.argv[2] ? path.resolve(process.argv[2]) : undefined;
  buildElectron(outDir).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
