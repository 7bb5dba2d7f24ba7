/**
 * Emoji names and codes, checked the way the interface family does for statuses and
 * reactions. Unicode emoji come from emojibase-data (maintained Unicode data with GitHub
 * and CLDR shortcodes); custom emoji are the organization's realm_emoji rows; the service's
 * own extra emoji are a fixed set.
 */
import { createRequire } from 'node:module';
import type { Db } from './db';
import { activeRealmEmojiByName, listRealmEmoji, realmEmojiById } from './db/emoji';
import { badRequest } from './errors';

export const REACTION_TYPES = ['unicode_emoji', 'realm_emoji', 'service_extra_emoji'] as const;
export type ReactionType = (typeof REACTION_TYPES)[number];

/** The service's extra emoji: the code is the name (spec Emoji reference). */
export const SERVICE_EXTRA_EMOJI: ReadonlySet<string> = new Set(['service']);

interface EmojibaseEntry {
  hexcode: string;
}

/**
 * Codes are dash-separated lowercase hex code points without the U+FE0F variation selector,
 * as the interface family writes them ("1f44d", "2764", "1f1fa-1f1f8").
 */
export function emojiCodeOfHexcode(hexcode: string): string {
  return hexcode
    .toLowerCase()
    .split('-')
    .filter((part) => part !== 'fe0f')
    .join('-');
}

function loadUnicodeEmoji(): { nameToCode: Map<string, string>; codes: Set<string> } {
  const require = createRequire(import.meta.url);
  const data = require('emojibase-data/en/data.json') as EmojibaseEntry[];
  // GitHub shortcodes first ("thumbsup", "+1", "palm_tree"), then CLDR names ("thumbs_up"):
  // both are in use by clients; the first source to claim a name keeps it.
  const sources = ['github', 'cldr'].map(
    (set) =>
      require(`emojibase-data/en/shortcodes/${set}.json`) as Record<string, string | string[] | undefined>,
  );
  const nameToCode = new Map<string, string>();
  const codes = new Set<string>();
  for (const entry of data) {
    const code = emojiCodeOfHexcode(entry.hexcode);
    codes.add(code);
    for (const shortcodes of sources) {
      const names = shortcodes[entry.hexcode];
      for (const name of typeof names === 'string' ? [names] : (names ?? [])) {
        if (!nameToCode.has(name)) nameToCode.set(name, code);
      }
    }
  }
  return { nameToCode, codes };
}

/** Built once at startup: about 2000 emoji, a few milliseconds. */
const UNICODE = loadUnicodeEmoji();

export function unicodeEmojiCode(name: string): string | undefined {
  return UNICODE.nameToCode.get(name);
}

export function isUnicodeEmojiCode(code: string): boolean {
  return UNICODE.codes.has(code);
}

/** Where a custom emoji's image is served (server/routes/realm-emoji.ts). */
export function realmEmojiUrl(emojiId: number, fileName: string): string {
  return `/user_uploads/emoji/${emojiId}/${encodeURIComponent(fileName)}`;
}

/**
 * The organization's custom emoji as register's `realm_emoji` gives them: keyed by id (as a
 * string), deactivated ones included so old messages and statuses still resolve.
 */
export function realmEmojiState(db: Db, realmId: number): Record<string, Record<string, unknown>> {
  const state: Record<string, Record<string, unknown>> = {};
  for (const row of listRealmEmoji(db, realmId)) {
    const url = realmEmojiUrl(row.id, row.file_name);
    state[String(row.id)] = {
      id: String(row.id),
      name: row.name,
      source_url: url,
      still_url: null,
      deactivated: row.deactivated !== 0,
      author_id: row.author_id,
    };
  }
  return state;
}

/**
 * The code and type an emoji name stands for when the client sent only the name: the
 * organization's custom emoji win over the service's and over Unicode names, as in the
 * interface family. Throws "Emoji '<name>' does not exist".
 */
export function emojiNameToCode(db: Db, realmId: number, name: string): { code: string; type: ReactionType } {
  const custom = activeRealmEmojiByName(db, realmId, name);
  if (custom) return { code: String(custom.id), type: 'realm_emoji' };
  if (SERVICE_EXTRA_EMOJI.has(name)) return { code: name, type: 'service_extra_emoji' };
  const code = unicodeEmojiCode(name);
  if (code !== undefined) return { code, type: 'unicode_emoji' };
  throw badRequest(`Emoji '${name}' does not exist`);
}

/** Checks that name, code and type describe one existing emoji (the family's wording). */
export function checkEmojiRequest(db: Db, realmId: number, name: string, code: string, type: string): void {
  switch (type) {
    case 'realm_emoji': {
      const emoji = /^\d+$/.test(code) ? realmEmojiById(db, realmId, Number(code)) : undefined;
      if (!emoji) throw badRequest('Invalid custom emoji.');
      if (emoji.name !== name) throw badRequest('Invalid custom emoji name.');
      if (emoji.deactivated) throw badRequest('This custom emoji has been deactivated.');
      return;
    }
    case 'service_extra_emoji':
      if (!SERVICE_EXTRA_EMOJI.has(code)) throw badRequest('Invalid emoji code.');
      if (name !== code) throw badRequest('Invalid emoji name.');
      return;
    case 'unicode_emoji':
      if (!isUnicodeEmojiCode(code)) throw badRequest('Invalid emoji code.');
      if (unicodeEmojiCode(name) !== code) throw badRequest('Invalid emoji name.');
      return;
    default:
      throw badRequest('Invalid emoji type.');
  }
}
