/**
 * Serving the built renderer, shared by browser mode (node:http) and Electron (the app://
 * protocol handler): one Content-Security-Policy, one set of security headers, one
 * traversal-safe mapping from a URL path to a file under the renderer directory.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';

/** The renderer loads only its own files; no inline script or style, no plugins, no framing. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Sent with every response, errors included. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  '.webmanifest': 'application/manifest+json',
};

export function contentTypeFor(filePath: string): string {
  return CONTENT_TYPES[path.extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Maps a URL pathname (still percent-encoded, as in `new URL(...).pathname`) to a file path
 * inside `rootDir`, or null when it could leave the directory or name a hidden file. `/` is
 * index.html. Pure: whether the file exists is the caller's business.
 */
export function staticPathFor(rootDir: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  // Backslashes are separators on Windows and NUL truncates paths in some APIs.
  if (!decoded.startsWith('/') || decoded.includes('\\') || decoded.includes('\0')) return null;
  const segments = decoded.split('/').filter((s) => s !== '');
  // Reject `..` and `.` outright rather than normalising them away, and hidden files.
  if (segments.some((s) => s.startsWith('.'))) return null;
  if (segments.length === 0) segments.push('index.html');
  const root = path.resolve(rootDir);
  const file = path.resolve(root, ...segments);
  return file.startsWith(root + path.sep) ? file : null;
}

/** `staticPathFor` plus a check that a regular file is there. */
export async function findStaticFile(rootDir: string, pathname: string): Promise<string | null> {
  const file = staticPathFor(rootDir, pathname);
  if (file === null) return null;
  try {
    return (await stat(file)).isFile() ? file : null;
  } catch {
    return null;
  }
}
