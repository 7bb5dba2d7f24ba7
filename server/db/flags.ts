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

// ---- POST /messages/flags (issue 8: flags-reactions-scheduled) ----
// A flag change may name thousands of messages: each query below takes a whole slice of ids
// as one JSON array (one statement, not one per message, which costs several times more).

const idList = (messageIds: readonly number[]) => JSON.stringify(messageIds.map(Number));

/** Of these messages, those the user has a copy of. */
export function messagesWithCopies(db: Db, userId: number, messageIds: readonly number[]): Set<number> {
  if (messageIds.length === 0) return new Set();
  const ids = db
    .prepare(
      'SELECT message_id FROM user_messages WHERE user_id = ? AND message_id IN (SELECT value FROM json_each(?))',
    )
    .pluck()
    .all(userId, idList(messageIds)) as number[];
  return new Set(ids);
}

/**
 * Gives the user copies of messages they did not receive but may read (history of a public
 * stream), read and marked historical, as the family does before flagging them.
 */
export function insertHistoricalCopies(db: Db, userId: number, messageIds: readonly number[]): void {
  if (messageIds.length === 0) return;
  db.prepare(
    `INSERT OR IGNORE INTO user_messages (user_id, message_id, flags)
     SELECT ?, value, ? FROM json_each(?)`,
  ).run(userId, FLAGS.read | FLAGS.historical, idList(messageIds));
}

/** Of these messages, the stream messages outside the streams the user is subscribed to. */
export function messagesInUnsubscribedStreams(
  db: Db,
  userId: number,
  messageIds: readonly number[],
): Set<number> {
  if (messageIds.length === 0) return new Set();
  const ids = db
    .prepare(
      `SELECT m.id FROM messages m WHERE m.id IN (SELECT value FROM json_each(?))
       AND m.stream_id IS NOT NULL AND NOT EXISTS
       (SELECT 1 FROM subscriptions s WHERE s.user_id = ? AND s.stream_id = m.stream_id AND s.active = 1)`,
    )
    .pluck()
    .all(idList(messageIds), userId) as number[];
  return new Set(ids);
}

/** Where a message is: its organization and stream (null for a direct message). */
export interface MessagePlace {
  id: number;
  realm_id: number;
  stream_id: number | null;
}

/** The place of each of these messages that exists, by id. */
export function messagePlaces(db: Db, messageIds: readonly number[]): Map<number, MessagePlace> {
  if (messageIds.length === 0) return new Map();
  const rows = db
    .prepare('SELECT id, realm_id, stream_id FROM messages WHERE id IN (SELECT value FROM json_each(?))')
    .all(idList(messageIds)) as MessagePlace[];
  return new Map(rows.map((row) => [row.id, row]));
}

/** What marking a message unread tells the clients of it (message_details), with the user's bits. */
export interface UnreadDetailRow {
  id: number;
  stream_id: number | null;
  topic: string;
  recipient_id: number;
  sender_id: number;
  /** The user's flag bits, null without a copy. */
  flags: number | null;
}

/** The UnreadDetailRow of each of these messages that exists. */
export function unreadDetailRows(db: Db, userId: number, messageIds: readonly number[]): UnreadDetailRow[] {
  if (messageIds.length === 0) return [];
  return db
    .prepare(
      `SELECT m.id, m.stream_id, m.topic, m.recipient_id, m.sender_id, um.flags FROM messages m
       LEFT JOIN user_messages um ON um.message_id = m.id AND um.user_id = ?
       WHERE m.id IN (SELECT value FROM json_each(?))`,
    )
    .all(userId, idList(messageIds)) as UnreadDetailRow[];
}

/**
 * Sets (`add`) or clears one flag on the user's copies of these messages; answers the ids
 * whose flag changed, ascending.
 */
export function setFlag(
  db: Db,
  userId: number,
  messageIds: readonly number[],
  flag: FlagName,
  add: boolean,
): number[] {
  if (messageIds.length === 0) return [];
  const bit = FLAGS[flag];
  const changed = db
    .prepare(
      add
        ? `UPDATE user_messages SET flags = flags | ${bit} WHERE user_id = ?
           AND message_id IN (SELECT value FROM json_each(?)) AND (flags & ${bit}) = 0 RETURNING message_id`
        : `UPDATE user_messages SET flags = flags & ~${bit} WHERE user_id = ?
           AND message_id IN (SELECT value FROM json_each(?)) AND (flags & ${bit}) != 0 RETURNING message_id`,
    )
    .pluck()
    .all(userId, idList(messageIds)) as number[];
  return changed.sort((a, b) => a - b);
}

/** The ids of the messages the user starred, ascending (register's starred_messages). */
export function starredMessageIds(db: Db, userId: number): number[] {
  return (
    db
      .prepare(
        `SELECT message_id AS id FROM user_messages WHERE user_id = ? AND (flags & ${FLAGS.starred}) != 0
         ORDER BY message_id`,
      )
      .all(userId) as { id: number }[]
  ).map((r) => r.id);
}
