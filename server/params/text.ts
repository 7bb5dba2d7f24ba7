/**
 * Request texts decoded strictly: query strings and form bodies
 * (application/x-www-form-urlencoded) split and percent-decoded as URLSearchParams does, except
 * that bytes which are not UTF-8 are refused (a 400 envelope) instead of becoming U+FFFD, so
 * nothing stored can differ from what the client meant.
 */
import { badRequest } from '../errors';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export const INVALID_CHARACTERS = 'Invalid characters in parameter';

/** Bytes as UTF-8 text, or a 400 when they are not UTF-8. */
export function strictUtf8(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw badRequest(INVALID_CHARACTERS);
  }
}

/** One name or value of a form: `+` is a space, each run of `%XX` escapes is UTF-8 bytes. */
function formComponent(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  if (!spaced.includes('%')) return spaced;
  return spaced.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) =>
    strictUtf8(Buffer.from(run.replace(/%/g, ''), 'hex')),
  );
}

/** The pairs of a form-encoded text, in order (a repeated name appears again). */
export function formEntries(text: string): [string, string][] {
  const entries: [string, string][] = [];
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = eq === -1 ? pair : pair.slice(0, eq);
    const value = eq === -1 ? '' : pair.slice(eq + 1);
    entries.push([formComponent(name), formComponent(value)]);
  }
  return entries;
}

/**
 * The query parameters of a request target as sent (`/path?a=1`). Node hands the target over
 * one character per byte, so raw non-ASCII bytes are checked as UTF-8 too.
 */
export function urlQueryEntries(target: string): [string, string][] {
  const start = target.indexOf('?');
  if (start === -1) return [];
  const end = target.indexOf('#', start);
  const query = target.slice(start + 1, end === -1 ? undefined : end);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the target is one character per byte
  const text = /[^\u0000-\u007f]/.test(query) ? strictUtf8(Buffer.from(query, 'latin1')) : query;
  return formEntries(text);
}
