/**
 * The committed icon files (scripts/icons.ts): each is there, is a PNG of its declared size,
 * and shows what it should, so packaging (electron-builder.yml) and main's tray and overlay
 * never pick up a missing or stale file. Rewrite them with `tsx scripts/icons.ts`.
 */
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { APP_ICON_SVG, ICON_ASSETS, LINUX_ICON_SIZES, RUNTIME_ICONS } from './icons';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

interface DecodedPng {
  width: number;
  height: number;
  /** [r, g, b, a] of one pixel. */
  pixel(x: number, y: number): number[];
}

/** Undoes one scanline's PNG filter in place (`prior`: the line above, already unfiltered). */
function unfilter(type: number, line: Buffer, prior: Buffer, bpp: number): void {
  for (let i = 0; i < line.length; i++) {
    const left = i >= bpp ? (line[i - bpp] ?? 0) : 0;
    const up = prior[i] ?? 0;
    const upLeft = i >= bpp ? (prior[i - bpp] ?? 0) : 0;
    const p = left + up - upLeft;
    const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
    const paeth = pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
    const predictor = [0, left, up, (left + up) >> 1, paeth][type];
    if (predictor === undefined) throw new Error(`unknown PNG filter ${type}`);
    line[i] = ((line[i] ?? 0) + predictor) & 0xff;
  }
}

/** A small decoder for what rsvg-convert writes: 8-bit RGBA, not interlaced. */
function decodePng(png: Buffer): DecodedPng {
  expect([...png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
  expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  // Bit depth 8, colour type 6 (RGBA), no interlace: transparency where the mark is round.
  expect([png[24], png[25], png[28]]).toEqual([8, 6, 0]);
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.subarray(at + 4, at + 8).toString('ascii') === 'IDAT')
      idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 4;
  const rows: Buffer[] = [];
  let prior = Buffer.alloc(stride);
  for (let y = 0; y < height; y++) {
    const start = y * (stride + 1);
    const line = Buffer.from(raw.subarray(start + 1, start + 1 + stride));
    unfilter(raw[start] ?? -1, line, prior, 4);
    rows.push(line);
    prior = line;
  }
  return { width, height, pixel: (x, y) => [...(rows[y]?.subarray(x * 4, x * 4 + 4) ?? [])] };
}

const load = async (file: string) => decodePng(await readFile(path.join(repoRoot, file)));

describe('the committed icons', () => {
  it.each(ICON_ASSETS.map((a) => [a.file, a] as const))(
    '%s is a PNG of its declared size, rendered from a committed SVG',
    async (_file, asset) => {
      const png = await load(asset.file);
      expect([png.width, png.height]).toEqual([asset.size, asset.size]);
      await expect(access(path.join(repoRoot, asset.source))).resolves.toBeUndefined();
      expect(asset.source.endsWith('.svg')).toBe(true);
    },
  );

  it('has the app icon at every size Linux packaging takes, from the mark the browser tab shows', () => {
    const appIcons = ICON_ASSETS.filter((a) => a.source === APP_ICON_SVG);
    expect(appIcons.map((a) => [a.file, a.size])).toEqual(
      LINUX_ICON_SIZES.map((size) => [`build/icons/${size}x${size}.png`, size]),
    );
  });

  it('draws the app icon: transparent corners, the blue tile, a white bubble', async () => {
    for (const size of [64, 512]) {
      const { pixel } = await load(`build/icons/${size}x${size}.png`);
      const at = (fx: number, fy: number) => pixel(Math.floor(fx * size), Math.floor(fy * size));
      expect(at(0, 0)[3]).toBe(0);
      expect(at(0.5, 0.95)).toEqual([0x2b, 0x63, 0xc9, 255]);
      expect(at(0.5, 0.45)).toEqual([255, 255, 255, 255]);
    }
  });

  it('draws a red dot for the taskbar overlay', async () => {
    const { pixel } = await load('build/badge-overlay.png');
    expect(pixel(8, 8)).toEqual([0xe0, 0x36, 0x2c, 255]);
    expect(pixel(0, 0)[3]).toBe(0);
  });

  it("copies only committed icons for main's tray and overlay", () => {
    const committed = new Set(ICON_ASSETS.map((a) => a.file));
    expect(Object.keys(RUNTIME_ICONS).sort()).toEqual(['badge-overlay.png', 'tray.png', 'tray@2x.png']);
    for (const source of Object.values(RUNTIME_ICONS)) expect(committed.has(source)).toBe(true);
  });
});
