/** Alert words: writes, and every user's words for matching new messages (the reader is user-data's alertWords). */
import type { Db } from './index';
import { runForEach } from './sql';

/** Adds words; one already there in any case is kept as it was (the column compares without case). */
export function insertAlertWords(db: Db, userId: number, words: readonly string[]): void {
  runForEach(db, 'INSERT OR IGNORE INTO alert_words (user_id, word) VALUES (?, ?)', userId, words);
}

export function deleteAlertWords(db: Db, userId: number, words: readonly string[]): void {
  runForEach(db, 'DELETE FROM alert_words WHERE user_id = ? AND word = ?', userId, words);
}

/** Every active user's alert words in the organization. */
export function realmAlertWords(db: Db, realmId: number): { user_id: number; word: string }[] {
  return db
    .prepare(
      `SELECT a.user_id, a.word FROM alert_words a JOIN users u ON u.id = a.user_id
       WHERE u.realm_id = ? AND u.is_active = 1`,
    )
    .all(realmId) as { user_id: number; word: string }[];
}
