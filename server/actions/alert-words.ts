/**
 * Alert words (GET/POST/DELETE /users/me/alert_words): each change answers the whole list and
 * sends it in an `alert_words` event to the user's clients; a new message containing one of a
 * user's words gets the `has_alert_word` flag for that user (alertWordUserIds).
 */
import type { ServiceContext } from '../context';
import type { Db } from '../db';
import { deleteAlertWords, insertAlertWords, keptRealmAlertWords } from '../db/alert-words';
import { alertWords } from '../db/user-data';
import type { UserRow } from '../db/users';
import { badRequest } from '../errors';
import { runAction } from './transaction';

export const MAX_ALERT_WORD_LENGTH = 100;

/** Characters that may stand before and after an alert word in a message (the family's sets). */
const BEFORE = new Set([' ', '\n', '(', '"', '.', ',', "'", ';', '[', '*', '`', '>']);
const AFTER = new Set([' ', '\n', ')', '"', '?', ':', '.', ',', "'", ';', ']', '!', '*', '`']);

/** Trimmed, without empty ones; each at most MAX_ALERT_WORD_LENGTH characters. */
function cleanAlertWords(words: readonly string[]): string[] {
  words.forEach((word, i) => {
    if ([...word].length > MAX_ALERT_WORD_LENGTH) {
      throw badRequest(`alert_words[${i}] is too long (limit: ${MAX_ALERT_WORD_LENGTH} characters)`);
    }
  });
  return words.map((w) => w.trim()).filter((w) => w !== '');
}

function changeAlertWords(ctx: ServiceContext, user: UserRow, change: (db: Db) => void): string[] {
  return runAction(ctx, (events) => {
    change(ctx.db);
    const list = alertWords(ctx.db, user.id);
    events.send({ type: 'alert_words', alert_words: list }, [user.id]);
    return list;
  });
}

export function listAlertWords(ctx: ServiceContext, user: UserRow): string[] {
  return alertWords(ctx.db, user.id);
}

/** POST /users/me/alert_words: the whole list after adding. */
export function doAddAlertWords(ctx: ServiceContext, user: UserRow, words: readonly string[]): string[] {
  const cleaned = cleanAlertWords(words);
  return changeAlertWords(ctx, user, (db) => insertAlertWords(db, user.id, cleaned));
}

/** DELETE /users/me/alert_words: the whole list after removing (words compared without case). */
export function doRemoveAlertWords(ctx: ServiceContext, user: UserRow, words: readonly string[]): string[] {
  return changeAlertWords(ctx, user, (db) => deleteAlertWords(db, user.id, words));
}

/** Whether `word` (lower case) stands in `text` (lower case) as a word of its own. */
export function containsAlertWord(text: string, word: string): boolean {
  for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) {
    const before = at === 0 ? undefined : text[at - 1];
    const after = text[at + word.length];
    if ((before === undefined || BEFORE.has(before)) && (after === undefined || AFTER.has(after)))
      return true;
  }
  return false;
}

/**
 * The users of the organization with an alert word in this message content. The words are
 * kept between messages (db/alert-words.ts, keptRealmAlertWords), already in lower case.
 */
export function alertWordUserIds(db: Db, realmId: number, content: string): Set<number> {
  const words = keptRealmAlertWords(db, realmId);
  const ids = new Set<number>();
  if (words.length === 0) return ids;
  const text = content.toLowerCase();
  for (const { user_id, word } of words) {
    if (!ids.has(user_id) && containsAlertWord(text, word)) ids.add(user_id);
  }
  return ids;
}
