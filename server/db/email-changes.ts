/**
 * Pending email address changes: one row per user, found by the hash of the key that the
 * confirmation link carries (the key itself is never stored).
 */
import type { Db } from './index';

export interface EmailChangeRow {
  key_hash: string;
  user_id: number;
  new_email: string;
  created_at: number;
}

/** Records a pending change, replacing any older one of the same user. */
export function replaceEmailChange(
  db: Db,
  change: { keyHash: string; userId: number; newEmail: string; createdAt: number },
): void {
  deleteEmailChangesOf(db, change.userId);
  db.prepare('INSERT INTO email_changes (key_hash, user_id, new_email, created_at) VALUES (?, ?, ?, ?)').run(
    change.keyHash,
    change.userId,
    change.newEmail,
    change.createdAt,
  );
}

export function getEmailChange(db: Db, keyHash: string): EmailChangeRow | undefined {
  return db.prepare('SELECT * FROM email_changes WHERE key_hash = ?').get(keyHash) as
    | EmailChangeRow
    | undefined;
}

export function deleteEmailChange(db: Db, keyHash: string): void {
  db.prepare('DELETE FROM email_changes WHERE key_hash = ?').run(keyHash);
}

export function deleteEmailChangesOf(db: Db, userId: number): void {
  db.prepare('DELETE FROM email_changes WHERE user_id = ?').run(userId);
}
