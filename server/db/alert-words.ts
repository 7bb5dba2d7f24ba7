/** Alert words: writes, and every user's words for matching new messages (the reader is user-data's alertWords). */
import type { Db } from './index';
import { watching, writeStamp } from './realm-data';
import { runForEach } from './sql';

/** Writes of alert_words through each connection (this file makes all of them): moves the kept copies' stamp. */
const alertWordWrites = new WeakMap<Db, number>();

function countWrite(db: Db): void {
  alertWordWrites.set(db, (alertWordWrites.get(db) ?? 0) + 1);
}

/** Adds words; one already there in any case is kept as it was (the column compares without case). */
export function insertAlertWords(db: Db, userId: number, words: readonly string[]): void {
  countWrite(db);
  runForEach(db, 'INSERT OR IGNORE INTO alert_words (user_id, word) VALUES (?, ?)', userId, words);
}

export function deleteAlertWords(db: Db, userId: number, words: readonly string[]): void {
  countWrite(db);
  runForEach(db, 'DELETE FROM alert_words WHERE user_id = ? AND word = ?', userId, words);
}

/** An alert word of an active user, in lower case (as messages are matched). */
export interface RealmAlertWord {
  readonly user_id: number;
  readonly word: string;
}

/** Every active user's alert words in the organization, as stored. */
export function realmAlertWords(db: Db, realmId: number): { user_id: number; word: string }[] {
  return db
    .prepare(
      `SELECT a.user_id, a.word FROM alert_words a JOIN users u ON u.id = a.user_id
       WHERE u.realm_id = ? AND u.is_active = 1`,
    )
    .all(realmId) as { user_id: number; word: string }[];
}

interface KeptWords {
  stamp: string;
  words: readonly RealmAlertWord[];
}

const keptWords = new WeakMap<Db, Map<number, KeptWords>>();

/**
 * realmAlertWords with the words in lower case, kept per organization between messages (every
 * message is matched against all of them). The copy is stamped with this connection's writes
 * of alert_words (counted above), of the user columns the query reads (realm_id, is_active,
 * users added and removed: the `users` watch) and data_version (another connection's commit):
 * any of them moving reads the words again. A copy is kept only from a read outside a
 * transaction, which sees committed rows only (a rolled-back write moves the stamp but is never
 * uncounted, so a copy read inside a transaction could outlive its rollback); inside one, a
 * copy whose stamp still holds is used, and a stale one is read again and not kept.
 */
export function keptRealmAlertWords(db: Db, realmId: number): readonly RealmAlertWord[] {
  if (!watching(db)) return lowered(realmAlertWords(db, realmId));
  const stamp = `${writeStamp(db, ['users'])}/${alertWordWrites.get(db) ?? 0}`;
  let byRealm = keptWords.get(db);
  const kept = byRealm?.get(realmId);
  if (kept !== undefined && kept.stamp === stamp) return kept.words;
  const words = lowered(realmAlertWords(db, realmId));
  if (!db.inTransaction) {
    if (byRealm === undefined) {
      byRealm = new Map();
      keptWords.set(db, byRealm);
    }
    byRealm.set(realmId, { stamp, words });
  }
  return words;
}

function lowered(rows: { user_id: number; word: string }[]): readonly RealmAlertWord[] {
  return Object.freeze(rows.map((r) => Object.freeze({ user_id: r.user_id, word: r.word.toLowerCase() })));
}
