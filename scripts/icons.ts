/**
 * The app's icon files: committed PNGs rendered from SVG sources, declared here once for the
 * renderer script below, the Electron build (which copies main's images beside main.cjs) and
 * the test that checks the committed files (scripts/icons.test.ts).
 *
 *   renderer/public/favicon.svg -> build/icons/NxN.png      the app's mark at the sizes packaging
 *                                                           needs (electron-builder.yml: the set
 *                                                           for Linux, 512 px for macOS/Windows)
 *   build/badge-overlay.svg     -> build/badge-overlay.png  Windows' taskbar overlay while unread
 *
 * After changing a source: `tsx scripts/icons.ts` (needs rsvg-convert: Debian's librsvg2-bin),
 * then commit the PNGs. Nothing renders at build or run time.
 */
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The app's mark, the one the browser tab shows too. */
export const APP_ICON_SVG = 'renderer/public/favicon.svg';

export const LINUX_ICON_SIZES = [16, 32, 48, 64, 128, 256, 512] as const;

export interface IconAsset {
  /** The SVG it is rendered from (relative to the repository root). */
  source: string;
  /** The committed PNG (relative to the repository root). */
  file: string;
  /** Width and height in pixels. */
  size: number;
}

export const ICON_ASSETS: readonly IconAsset[] = [
  ...LINUX_ICON_SIZES.map((size) => ({
    source: APP_ICON_SVG,
    file: `build/icons/${size}x${size}.png`,
    size,
  })),
  { source: 'build/badge-overlay.svg', file: 'build/badge-overlay.png', size: 16 },
];

/**
 * What electron/main loads with nativeImage.createFromPath (electron/main/icons.ts), by its
 * name in dist/electron/icons/ and the committed file it is a copy of. `tray@2x.png` is the
 * tray icon for high-density displays, which Electron picks by that name.
 */
export const RUNTIME_ICONS: Readonly<Record<string, string>> = {
  'tray.png': 'build/icons/16x16.png',
  'tray@2x.png': 'build/icons/32x32.png',
  'badge-overlay.png': 'build/badge-overlay.png',
};

const run = promisify(execFile);

export async function renderIcons(): Promise<void> {
  for (const { source, file, size } of ICON_ASSETS) {
    await mkdir(path.dirname(path.join(repoRoot, file)), { recursive: true });
    const px = String(size);
    await run('rsvg-convert', ['--width', px, '--height', px, '--output', file, source], { cwd: repoRoot });
  }
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  renderIcons().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
