/**
 * Per-user message flags, stored as a bit set in user_messages.flags, and the queries that
 * read and set them (read state).
 */
import type { Db } from './index';

export const FLAGS = {
  read: 1,
  starred: 2,
  collapsed: 4,
  mentioned: 8,
  wildcard_mentioned: 16,
  has_alert_word: 32,
  historical: 64,
} as const;
export type FlagName = keyof typeof FLAGS;

export function flagNames(bits: number): FlagName[] {
  return (Object.keys(FLAGS) as FlagName[]).filter((name) => (bits & FLAGS[name]) !== 0);
}

/** Every recipient's flag bits on one message, by user id. */
export function messageFlagsByUser(db: Db, messageId: number): Map<number, number> {
  const rows = db.prepare('SELECT user_id, flags FROM user_messages WHERE message_id = ?').all(messageId) as {
    user_id: number;
    flags: number;
  }[];
  return new Map(rows.map((r) => [r.user_id, r.flags]));
}

/**
 * Marks read the user's unread copies that `idsSql` selects (a join and a WHERE over
 * `um`, taking `args`); answers the ids it marked, ascending.
 */
function markRead(db: Db, userId: number, idsSql: string, args: unknown[]): number[] {
  const ids = (
    db
      .prepare(
        `SELECT um.message_id AS id FROM user_messages um ${idsSql}
         AND um.user_id = ? AND (um.flags & ${FLAGS.read}) = 0 ORDER BY um.message_id DESC`,
      )
      .all(...args, userId) as { id: number }[]
  ).map((r) => r.id);
  const update = db.prepare(
    `UPDATE user_messages SET flags = flags | ${FLAGS.read} WHERE user_id = ? AND message_id = ?`,
  );
  for (const id of ids) update.run(userId, id);
  return ids.sort((a, b) => a - b);
}

/** Marks read the user's `limit` newest unread copies (one batch of mark_all_as_read). */
export function markNewestUnreadAsRead(db: Db, userId: number, limit: number): number[] {
  return markRead(
    db,
    userId,
    `JOIN (SELECT message_id FROM user_messages WHERE user_id = ? AND (flags & ${FLAGS.read}) = 0
           ORDER BY message_id DESC LIMIT ?) b ON b.message_id = um.message_id WHERE 1`,
    [userId, limit],
  );
}

/** Marks read the user's unread copies in a stream, or in one of its topics (any letter case). */
export function markStreamUnreadAsRead(db: Db, userId: number, streamId: number, topic?: string): number[] {
  return topic === undefined
    ? markRead(db, userId, 'JOIN messages m ON m.id = um.message_id WHERE m.stream_id = ?', [streamId])
    : markRead(
        db,
        userId,
        'JOIN messages m ON m.id = um.message_id WHERE m.stream_id = ? AND m.topic = ? COLLATE NOCASE',
        [streamId, topic],
      );
}

/** Whether the user has any copy of a message in this topic (any letter case). */
export function hasCopyInTopic(db: Db, userId: number, streamId: number, topic: string): boolean {
  return (
    db
      .prepare(
        `SELECT 1 FROM user_messages um JOIN messages m ON m.id = um.message_id
         WHERE um.user_id = ? AND m.stream_id = ? AND m.topic = ? COLLATE NOCASE LIMIT 1`,
      )
      .get(userId, streamId, topic) !== undefined
  );
}
