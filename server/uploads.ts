/**
 * Uploaded files on disk, under <dataDir>/uploads/: where each goes (a path no one can guess,
 * from a cleaned file name), what it really is (sniffed from its first bytes, never the
 * client's claim), and how it may be shown: inline only for the raster image types a browser
 * cannot run script from; everything else, SVG and HTML included, as a download.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** The largest upload, in MiB (the family's default, register's max_file_upload_size_mib). */
export const MAX_FILE_UPLOAD_SIZE_MIB = 25;

/** Signatures of the types we recognize: bytes at an offset. */
const SIGNATURES: readonly { type: string; offset: number; bytes: readonly number[] }[] = [
  { type: 'image/png', offset: 0, bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { type: 'image/jpeg', offset: 0, bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/gif', offset: 0, bytes: [0x47, 0x49, 0x46, 0x38] },
  { type: 'image/webp', offset: 8, bytes: [0x57, 0x45, 0x42, 0x50] },
  { type: 'application/pdf', offset: 0, bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] },
  { type: 'application/zip', offset: 0, bytes: [0x50, 0x4b, 0x03, 0x04] },
  { type: 'application/gzip', offset: 0, bytes: [0x1f, 0x8b] },
];

/** File name extensions of the image types, for custom emoji files. */
export const IMAGE_EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/** Types shown inline: raster images, which cannot carry script. */
const INLINE_TYPES: ReadonlySet<string> = new Set(Object.keys(IMAGE_EXTENSIONS));

const startsWith = (data: Buffer, offset: number, bytes: readonly number[]) =>
  data.length >= offset + bytes.length && bytes.every((b, i) => data[offset + i] === b);

/** Text: valid UTF-8 without NUL in its first 8 KiB (a cut character at the end is fine). */
function looksLikeText(data: Buffer): boolean {
  const head = data.subarray(0, 8192);
  if (head.includes(0)) return false;
  try {
    // Streaming: a character cut at the end of the sample is not an error.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: data.length > head.length });
    return true;
  } catch {
    return false;
  }
}

/** The file's type from its content; text is plain text whatever markup it holds. */
export function sniffContentType(data: Buffer): string {
  const riff = startsWith(data, 0, [0x52, 0x49, 0x46, 0x46]);
  for (const s of SIGNATURES) {
    if (s.type === 'image/webp' && !riff) continue;
    if (startsWith(data, s.offset, s.bytes)) return s.type;
  }
  return looksLikeText(data) ? 'text/plain' : 'application/octet-stream';
}

export function isInlineType(contentType: string): boolean {
  return INLINE_TYPES.has(contentType);
}

/** Longest file name in a URL, percent-encoded: the router takes path segments of 100 characters. */
const MAX_ENCODED_NAME = 90;

/** Cuts a name until its URL form fits in a path segment. */
function fitName(name: string): string {
  // Each character takes at least one place, so no more than the limit can fit.
  let chars = [...name].slice(0, MAX_ENCODED_NAME);
  while (encodeURIComponent(chars.join('')).length > MAX_ENCODED_NAME) chars = chars.slice(0, -1);
  return chars.join('');
}

/** The family's sanitize_name: word characters, dots and dashes; runs of spaces become a dash. */
export function cleanFileName(name: string): string {
  const base = name.normalize('NFKC').split(/[/\\]/).pop() ?? '';
  const cleaned = fitName(
    base
      .replace(/[^\p{L}\p{N}_\s.-]/gu, '')
      .trim()
      .replace(/[-\s]+/g, '-'),
  );
  return cleaned === '' || /^\.+$/.test(cleaned) ? 'uploaded-file' : cleaned;
}

/** A custom emoji's image file, by realm and file name, beside the uploads. */
export const emojiPathId = (realmId: number, fileName: string) => `emoji/${realmId}/${fileName}`;

/** A new path id, `<realm>/<2 hex>/<24 random>/<name>`: the URL after /user_uploads/. */
export function newPathId(realmId: number, fileName: string): string {
  const random = randomBytes(18).toString('base64url');
  return `${realmId}/${randomBytes(1).toString('hex')}/${random}/${cleanFileName(fileName)}`;
}

const filePath = (dataDir: string, pathId: string) => join(dataDir, 'uploads', ...pathId.split('/'));

export async function storeFile(dataDir: string, pathId: string, data: Buffer): Promise<void> {
  const path = filePath(dataDir, pathId);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, data, { flag: 'wx' });
}

export function readStoredFile(dataDir: string, pathId: string): Promise<Buffer> {
  return readFile(filePath(dataDir, pathId));
}

/** Removes one stored file; a file already gone is no error. */
export async function discardFile(dataDir: string, pathId: string): Promise<void> {
  await rm(filePath(dataDir, pathId), { force: true });
}

/** Removes a file and its random folder; a file already gone is no error. */
export async function removeStoredFile(dataDir: string, pathId: string): Promise<void> {
  await rm(dirname(filePath(dataDir, pathId)), { recursive: true, force: true });
}

/**
 * The headers a stored file is served with: its sniffed type, inline only if a safe image,
 * and a policy under which nothing in it can run or load anything on our origin.
 */
export function fileHeaders(contentType: string, fileName: string): Record<string, string> {
  const disposition = isInlineType(contentType) ? 'inline' : 'attachment';
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return {
    'Content-Type': contentType === 'text/plain' ? 'text/plain; charset=utf-8' : contentType,
    'Content-Disposition': `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'private, max-age=86400',
  };
}

/** How long a temporary download URL works (the family's 60 seconds). */
export const TEMPORARY_URL_SECONDS = 60;

/** Signs temporary URLs; new at each start, so they never outlive the process. */
const URL_SECRET = randomBytes(32);

/** 128 bits of HMAC: short enough for a URL segment (the router takes 100 characters). */
const signature = (payload: string) =>
  createHmac('sha256', URL_SECRET).update(payload).digest().subarray(0, 16).toString('base64url');

/**
 * A URL that serves the file without credentials for a minute, for clients that cannot
 * send them with an image request: `/user_uploads/temporary/<id>.<expiry>.<signature>/<name>`.
 */
export function temporaryFileUrl(attachment: { id: number; file_name: string }, nowMs: number): string {
  const payload = `${attachment.id}.${Math.ceil(nowMs / 1000) + TEMPORARY_URL_SECONDS}`;
  return `/user_uploads/temporary/${payload}.${signature(payload)}/${encodeURIComponent(attachment.file_name)}`;
}

/** The attachment id a temporary URL's token stands for, or null when forged or expired. */
export function attachmentIdOfToken(token: string, nowMs: number): number | null {
  const match = /^(\d{1,15})\.(\d{1,12})\.([A-Za-z0-9_-]{22})$/.exec(token);
  if (!match) return null;
  const [, id, expires, sig] = match as unknown as [string, string, string, string];
  const expected = Buffer.from(signature(`${id}.${expires}`));
  if (!timingSafeEqual(Buffer.from(sig), expected)) return null;
  return Number(expires) * 1000 >= nowMs ? Number(id) : null;
}
