/** Muted users: who each user has muted, and marking a muted sender's messages read. */
import { FLAGS } from './flags';
import type { Db } from './index';

/** register's and the event's muted_users: {id, timestamp}, oldest first. */
export function mutedUsers(db: Db, userId: number): { id: number; timestamp: number }[] {
  return db
    .prepare(
      `SELECT muted_user_id AS id, date_muted AS timestamp FROM muted_users
       WHERE user_id = ? ORDER BY date_muted, muted_user_id`,
    )
    .all(userId) as { id: number; timestamp: number }[];
}

export function isMuted(db: Db, userId: number, mutedUserId: number): boolean {
  return (
    db
      .prepare('SELECT 1 FROM muted_users WHERE user_id = ? AND muted_user_id = ?')
      .get(userId, mutedUserId) !== undefined
  );
}

export function insertMute(db: Db, userId: number, mutedUserId: number, now: number): void {
  db.prepare('INSERT INTO muted_users (user_id, muted_user_id, date_muted) VALUES (?, ?, ?)').run(
    userId,
    mutedUserId,
    now,
  );
}

export function deleteMute(db: Db, userId: number, mutedUserId: number): void {
  db.prepare('DELETE FROM muted_users WHERE user_id = ? AND muted_user_id = ?').run(userId, mutedUserId);
}

/** Marks read the user's unread copies of messages this sender sent; the ids, ascending. */
export function markSenderMessagesRead(db: Db, userId: number, senderId: number): number[] {
  const rows = db
    .prepare(
      `UPDATE user_messages SET flags = flags | ${FLAGS.read}
       WHERE user_id = ? AND (flags & ${FLAGS.read}) = 0
         AND message_id IN (SELECT id FROM messages WHERE sender_id = ?)
       RETURNING message_id`,
    )
    .all(userId, senderId) as { message_id: number }[];
  return rows.map((r) => r.message_id).sort((a, b) => a - b);
}

/** The users who muted this sender (their copies of the sender's new messages start read). */
export function mutingUserIds(db: Db, senderId: number): Set<number> {
  const rows = db.prepare('SELECT user_id FROM muted_users WHERE muted_user_id = ?').all(senderId) as {
    user_id: number;
  }[];
  return new Set(rows.map((r) => r.user_id));
}
