/**
 * The app's icons, drawn in code: the tray icon and the Windows taskbar overlay are made at
 * run time (nativeImage.createFromBuffer), and build/icon.png (electron-builder's icon) is
 * written from the same drawing (`tsx scripts/build-electron.ts --icon build/icon.png`).
 * (No top-level code that needs import.meta: this module is bundled into main.cjs.)
 * A minimal PNG encoder (8-bit RGBA, no filtering) suffices for images this small.
 */
import { crc32, deflateSync } from 'node:zlib';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData) >>> 0);
  return Buffer.concat([length, typeAndData, crc]);
}

/** RGBA pixels (row by row, 4 bytes each) to a PNG file's bytes. */
export function encodePng(width: number, height: number, rgba: Uint8Array): Buffer {
  if (rgba.length !== width * height * 4) throw new Error('encodePng: pixel data does not match the size');
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // colour type: RGBA
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0; // filter: none
    Buffer.from(rgba.buffer, rgba.byteOffset + y * width * 4, width * 4).copy(raw, y * (width * 4 + 1) + 1);
  }
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

type Rgb = readonly [number, number, number];
const BRAND: Rgb = [0x2f, 0x6f, 0xeb];
const WHITE: Rgb = [0xff, 0xff, 0xff];
const ALERT: Rgb = [0xe0, 0x36, 0x2c];

/** Coverage (0..1) of a pixel by a shape given as a signed distance (negative inside), antialiased. */
const cover = (distance: number) => Math.min(1, Math.max(0, 0.5 - distance));

function roundedRectDistance(
  px: number,
  py: number,
  cx: number,
  cy: number,
  hw: number,
  hh: number,
  r: number,
) {
  const qx = Math.abs(px - cx) - (hw - r);
  const qy = Math.abs(py - cy) - (hh - r);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}

function draw(size: number, shade: (x: number, y: number) => { color: Rgb; alpha: number }): Buffer {
  const rgba = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const { color, alpha } = shade(x + 0.5, y + 0.5);
      const i = (y * size + x) * 4;
      rgba[i] = color[0];
      rgba[i + 1] = color[1];
      rgba[i + 2] = color[2];
      rgba[i + 3] = Math.round(alpha * 255);
    }
  }
  return encodePng(size, size, rgba);
}

/** The app icon: a white speech bubble on a blue rounded square. */
export function appIconPng(size: number): Buffer {
  const s = size;
  return draw(s, (x, y) => {
    const tile = cover(roundedRectDistance(x, y, s / 2, s / 2, s / 2, s / 2, s * 0.22));
    const bubble = roundedRectDistance(x, y, s / 2, s * 0.46, s * 0.3, s * 0.2, s * 0.08);
    // The bubble's tail: a triangle below its lower left.
    const tx = (x - s * 0.3) / (s * 0.14);
    const ty = (y - s * 0.62) / (s * 0.16);
    const tail = tx >= 0 && ty >= 0 && ty <= 1 && tx <= 1 - ty ? 1 : 0;
    const white = Math.max(cover(bubble), tail);
    const mix = (a: number, b: number) => Math.round(a * (1 - white) + b * white);
    const color: Rgb = [mix(BRAND[0], WHITE[0]), mix(BRAND[1], WHITE[1]), mix(BRAND[2], WHITE[2])];
    return { color, alpha: tile };
  });
}

/** The Windows taskbar overlay shown while there are unread messages: a red dot. */
export function badgeOverlayPng(size = 16): Buffer {
  return draw(size, (x, y) => ({
    color: ALERT,
    alpha: cover(Math.hypot(x - size / 2, y - size / 2) - size / 2 + 0.5),
  }));
}
