/** Messages, their recipients, and each user's copy with flags. */
import { renderMarkdown } from '../markdown';
import { FLAGS, messageFlagsByUser } from './flags';
import type { Db } from './index';
import { streamRecipientId } from './streams';

export interface MessageRow {
  id: number;
  realm_id: number;
  sender_id: number;
  recipient_id: number;
  stream_id: number | null;
  topic: string;
  content: string;
  rendered_content: string;
  rendered_content_version: number;
  date_sent: number;
  last_edit_time: number | null;
  edit_history: string | null;
  client: string;
  is_me_message: number;
}

/**
 * The recipient row of a direct-message conversation among these users (sender included).
 * A message to oneself is addressed to the user's personal recipient; any other conversation,
 * one-to-one included, has a direct_groups row keyed by its sorted member ids ("a,b"), so two
 * conversations never share a recipient. With `create` false (read-only queries) a missing
 * group answers null instead of being created.
 */
export function directRecipientId(db: Db, userIds: number[]): number;
export function directRecipientId(db: Db, userIds: number[], create: false): number | null;
export function directRecipientId(db: Db, userIds: number[], create = true): number | null {
  const members = [...new Set(userIds)].sort((a, b) => a - b);
  if (members.length === 1) {
    const row = db.prepare('SELECT id FROM recipients WHERE type = 1 AND type_id = ?').get(members[0]) as
      | { id: number }
      | undefined;
    if (!row && create) throw new Error(`User ${members[0]} has no recipient`);
    return row?.id ?? null;
  }
  const key = members.join(',');
  const find = () =>
    db
      .prepare(
        `SELECT r.id FROM direct_groups g JOIN recipients r ON r.type = 3 AND r.type_id = g.id
         WHERE g.group_key = ?`,
      )
      .get(key) as { id: number } | undefined;
  const found = find();
  if (found || !create) return found?.id ?? null;
  const groupId = Number(
    db.prepare('INSERT INTO direct_groups (group_key) VALUES (?)').run(key).lastInsertRowid,
  );
  const add = db.prepare('INSERT INTO direct_group_members (group_id, user_id) VALUES (?, ?)');
  for (const m of members) add.run(groupId, m);
  return Number(
    db.prepare('INSERT INTO recipients (type, type_id) VALUES (3, ?)').run(groupId).lastInsertRowid,
  );
}

export type MessageTarget = { stream: number; topic: string } | { users: number[] };

export interface NewMessage {
  realmId: number;
  senderId: number;
  to: MessageTarget;
  content: string;
  dateSent: number;
  client?: string;
  /** Users who have already read it besides the sender. */
  readBy?: Iterable<number>;
  /** The rendered HTML, when the caller has it already. */
  renderedContent?: string;
  /** Further flag bits per recipient (mentions). */
  extraFlags?: (userId: number) => number;
}

/**
 * Stores a message and gives a copy to each recipient: the stream's active subscribers, or
 * the users of a direct message. The sender's copy is read. Returns the id, the recipients,
 * the flag bits each copy got and the stored row (the message event is made of them; nothing
 * needs reading back).
 */
export function insertMessage(
  db: Db,
  m: NewMessage,
): { id: number; userIds: number[]; flags: Map<number, number>; row: MessageRow } {
  let recipientId: number;
  let streamId: number | null = null;
  let topic = '';
  let userIds: number[];
  if ('stream' in m.to) {
    streamId = m.to.stream;
    topic = m.to.topic;
    recipientId = streamRecipientId(db, streamId);
    userIds = db
      .prepare(
        `SELECT s.user_id FROM subscriptions s JOIN users u ON u.id = s.user_id
         WHERE s.stream_id = ? AND s.active = 1 AND u.is_active = 1`,
      )
      .pluck()
      .all(streamId) as number[];
    // The sender keeps a copy of what they sent even without a subscription (as the family does).
    if (!userIds.includes(m.senderId)) userIds.push(m.senderId);
  } else {
    userIds = [...new Set([m.senderId, ...m.to.users])];
    recipientId = directRecipientId(db, userIds);
  }
  const row = db
    .prepare(
      `INSERT INTO messages (realm_id, sender_id, recipient_id, stream_id, topic, content, rendered_content,
         date_sent, client, is_me_message)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    )
    .get(
      m.realmId,
      m.senderId,
      recipientId,
      streamId,
      topic,
      m.content,
      m.renderedContent ?? renderMarkdown(m.content),
      m.dateSent,
      m.client ?? 'Internal',
      m.content.startsWith('/me ') ? 1 : 0,
    ) as MessageRow;
  const id = row.id;
  const readBy = new Set([m.senderId, ...(m.readBy ?? [])]);
  // One INSERT per copy. A single INSERT … SELECT of all of them (from json_each) must be able
  // to undo itself (its foreign keys are checked at its end), so SQLite journals every page it
  // touches first: a hundred here, and it measured twice as slow as these rows one by one.
  const add = db.prepare('INSERT INTO user_messages (user_id, message_id, flags) VALUES (?, ?, ?)');
  const flags = new Map<number, number>();
  for (const userId of userIds) {
    const bits = (readBy.has(userId) ? FLAGS.read : 0) | (m.extraFlags?.(userId) ?? 0);
    add.run(userId, id, bits);
    flags.set(userId, bits);
  }
  return { id, userIds, flags, row };
}

/** register's unread_msgs: the user's unread messages grouped as the spec's clients expect. */
export function unreadMessages(db: Db, userId: number) {
  const rows = db
    .prepare(
      `SELECT m.id, m.sender_id, m.stream_id, m.topic, m.recipient_id, um.flags
       FROM user_messages um JOIN messages m ON m.id = um.message_id
       WHERE um.user_id = ? AND (um.flags & 1) = 0 ORDER BY m.id`,
    )
    .all(userId) as {
    id: number;
    sender_id: number;
    stream_id: number | null;
    topic: string;
    recipient_id: number;
    flags: number;
  }[];
  const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
  const pms = new Map<number, { other_user_id: number; sender_id: number; unread_message_ids: number[] }>();
  const huddles = new Map<string, { user_ids_string: string; unread_message_ids: number[] }>();
  const mentions: number[] = [];
  const conversations = new Map<number, number[]>();
  for (const row of rows) {
    if (row.flags & (FLAGS.mentioned | FLAGS.wildcard_mentioned)) mentions.push(row.id);
    if (row.stream_id !== null) {
      const key = `${row.stream_id}\u0000${row.topic.toLowerCase()}`;
      const entry = streams.get(key) ?? {
        stream_id: row.stream_id,
        topic: row.topic,
        unread_message_ids: [],
      };
      entry.unread_message_ids.push(row.id);
      streams.set(key, entry);
    } else {
      // Members per conversation, looked up once per recipient.
      let members = conversations.get(row.recipient_id);
      if (!members) {
        members = directMessageUserIds(db, row);
        conversations.set(row.recipient_id, members);
      }
      if (members.length <= 2) {
        const other = members.find((id) => id !== userId) ?? userId;
        const entry = pms.get(other) ?? { other_user_id: other, sender_id: other, unread_message_ids: [] };
        entry.unread_message_ids.push(row.id);
        pms.set(other, entry);
      } else {
        const ids = members.join(',');
        const entry = huddles.get(ids) ?? { user_ids_string: ids, unread_message_ids: [] };
        entry.unread_message_ids.push(row.id);
        huddles.set(ids, entry);
      }
    }
  }
  return {
    count: rows.length,
    pms: [...pms.values()],
    streams: [...streams.values()],
    huddles: [...huddles.values()],
    mentions,
    old_unreads_missing: false,
  };
}

export function getMessage(db: Db, messageId: number): MessageRow | undefined {
  return db.prepare('SELECT * FROM messages WHERE id = ?').get(messageId) as MessageRow | undefined;
}

/** The user's flag bits on a message, or undefined when the user has no copy of it. */
export function userMessageFlags(db: Db, userId: number, messageId: number): number | undefined {
  const row = db
    .prepare('SELECT flags FROM user_messages WHERE user_id = ? AND message_id = ?')
    .get(userId, messageId) as { flags: number } | undefined;
  return row?.flags;
}

/** A reaction as stored: who reacted, and the emoji's name, code and type. */
export type ReactionRow = { user_id: number } & Record<'emoji_name' | 'emoji_code' | 'reaction_type', string>;

export function messageReactions(db: Db, messageId: number): ReactionRow[] {
  return db
    .prepare(
      'SELECT user_id, emoji_name, emoji_code, reaction_type FROM reactions WHERE message_id = ? ORDER BY emoji_code, user_id',
    )
    .all(messageId) as ReactionRow[];
}

/**
 * The user's direct-message conversations, most recent first, at most `limit`: each has its
 * own recipient, so one grouped query finds them.
 */
export function recentDirectConversations(
  db: Db,
  userId: number,
  limit: number,
): { recipient_id: number; max_id: number; sender_id: number }[] {
  return db
    .prepare(
      `SELECT m.recipient_id, MAX(m.id) AS max_id, MIN(m.sender_id) AS sender_id
       FROM user_messages um JOIN messages m ON m.id = um.message_id
       WHERE um.user_id = ? AND m.stream_id IS NULL
       GROUP BY m.recipient_id ORDER BY max_id DESC LIMIT ?`,
    )
    .all(userId, limit) as { recipient_id: number; max_id: number; sender_id: number }[];
}

/** A topic's messages (any letter case) from `fromId` on, in id order, at most `limit`. */
interface TopicScan {
  streamId: number;
  topic: string;
  /** Only the messages this user has a copy of (null: all). */
  onlyCopiesOf: number | null;
  fromId?: number;
  order: 'ASC' | 'DESC';
  limit?: number;
}

function topicRows(db: Db, q: TopicScan): { id: number; topic: string }[] {
  const copies =
    q.onlyCopiesOf === null ? '' : 'JOIN user_messages um ON um.message_id = m.id AND um.user_id = ?';
  const args = q.onlyCopiesOf === null ? [] : [q.onlyCopiesOf];
  // LIMIT -1: no limit.
  return db
    .prepare(
      `SELECT m.id, m.topic FROM messages m ${copies}
       WHERE m.stream_id = ? AND m.topic = ? COLLATE NOCASE AND m.id >= ? ORDER BY m.id ${q.order === 'ASC' ? 'ASC' : 'DESC'} LIMIT ?`,
    )
    .all(...args, q.streamId, q.topic, q.fromId ?? 0, q.limit ?? -1) as { id: number; topic: string }[];
}

/**
 * Up to `limit` messages of a topic (any letter case), newest first: all of them, or with
 * `onlyCopiesOf` only those that user has a copy of.
 */
export function topicMessagesNewestFirst(
  db: Db,
  q: { streamId: number; topic: string; limit: number; onlyCopiesOf: number | null },
): { id: number; topic: string }[] {
  return topicRows(db, { ...q, order: 'DESC' });
}

/** Users holding a copy of any of these messages. */
export function userIdsWithCopies(db: Db, messageIds: readonly number[]): number[] {
  const list = messageIds.map(Number).join(',');
  return (
    db.prepare(`SELECT DISTINCT user_id FROM user_messages WHERE message_id IN (${list})`).all() as {
      user_id: number;
    }[]
  ).map((r) => r.user_id);
}

/** Deletes messages with every copy of them (user_messages rows cascade). */
export function deleteMessages(db: Db, messageIds: readonly number[]): void {
  db.prepare(`DELETE FROM messages WHERE id IN (${messageIds.map(Number).join(',')})`).run();
}

/**
 * The users of a direct message's conversation (sender included), sorted by id: the members
 * of its direct group, or the sender alone for a message to oneself (personal recipient).
 */
export function directMessageUserIds(
  db: Db,
  message: Pick<MessageRow, 'recipient_id' | 'sender_id'>,
): number[] {
  const ids = (
    db
      .prepare(
        `SELECT dgm.user_id FROM recipients r JOIN direct_group_members dgm ON dgm.group_id = r.type_id
         WHERE r.id = ? AND r.type = 3 ORDER BY dgm.user_id`,
      )
      .all(message.recipient_id) as { user_id: number }[]
  ).map((r) => r.user_id);
  return ids.length > 0 ? ids : [message.sender_id];
}

// ---- editing, moving and deleting (PATCH and DELETE /messages/{message_id}) ----

export function messagesByIds(db: Db, messageIds: readonly number[]): MessageRow[] {
  if (messageIds.length === 0) return [];
  return db
    .prepare(`SELECT * FROM messages WHERE id IN (${messageIds.map(Number).join(',')}) ORDER BY id`)
    .all() as MessageRow[];
}

/** A message's new content, with its rendering and whether it is a /me message. */
export function setMessageContent(db: Db, messageId: number, content: string, rendered: string): void {
  db.prepare('UPDATE messages SET content = ?, rendered_content = ?, is_me_message = ? WHERE id = ?').run(
    content,
    rendered,
    content.startsWith('/me ') ? 1 : 0,
    messageId,
  );
}

/** Records an edit: its time, and the message's edit history (JSON, newest first). */
export function setEditHistory(db: Db, messageId: number, editTime: number, history: string): void {
  db.prepare('UPDATE messages SET last_edit_time = ?, edit_history = ? WHERE id = ?').run(
    editTime,
    history,
    messageId,
  );
}

/** Moves messages to a stream (its recipient) and topic. */
export function moveMessages(db: Db, messageIds: readonly number[], streamId: number, topic: string): void {
  const recipientId = streamRecipientId(db, streamId);
  db.prepare(
    `UPDATE messages SET stream_id = ?, recipient_id = ?, topic = ? WHERE id IN (${messageIds.map(Number).join(',')})`,
  ).run(streamId, recipientId, topic);
}

/**
 * Ids of a topic's messages (any letter case), ascending, from `fromId` on: all of them, or
 * with `onlyCopiesOf` only those that user has a copy of.
 */
export function topicMessageIds(
  db: Db,
  q: { streamId: number; topic: string; fromId: number; onlyCopiesOf: number | null },
): number[] {
  return topicRows(db, { ...q, order: 'ASC' }).map((r) => r.id);
}

/** Every copy of these messages: who holds it, and their flag bits. */
export function copiesOf(
  db: Db,
  messageIds: readonly number[],
): { user_id: number; message_id: number; flags: number }[] {
  if (messageIds.length === 0) return [];
  return db
    .prepare(
      `SELECT user_id, message_id, flags FROM user_messages WHERE message_id IN (${messageIds.map(Number).join(',')})`,
    )
    .all() as { user_id: number; message_id: number; flags: number }[];
}

/** Gives these users a copy of each message (with these flag bits) where they have none. */
export function addCopies(
  db: Db,
  userIds: readonly number[],
  messageIds: readonly number[],
  flags: number,
): void {
  const add = db.prepare('INSERT OR IGNORE INTO user_messages (user_id, message_id, flags) VALUES (?, ?, ?)');
  for (const userId of userIds) for (const messageId of messageIds) add.run(userId, messageId, flags);
}

/** Takes these users' copies of these messages away. */
export function removeCopies(db: Db, userIds: readonly number[], messageIds: readonly number[]): void {
  if (userIds.length === 0 || messageIds.length === 0) return;
  db.prepare(
    `DELETE FROM user_messages WHERE user_id IN (${userIds.map(Number).join(',')})
     AND message_id IN (${messageIds.map(Number).join(',')})`,
  ).run();
}

/** Replaces the bits of `mask` in each copy of the message with what `bitsFor` says for its holder. */
export function setFlagBits(
  db: Db,
  messageId: number,
  mask: number,
  bitsFor: (userId: number) => number,
): void {
  const update = db.prepare(
    'UPDATE user_messages SET flags = (flags & ~?) | ? WHERE user_id = ? AND message_id = ?',
  );
  for (const userId of messageFlagsByUser(db, messageId).keys())
    update.run(mask, bitsFor(userId) & mask, userId, messageId);
}

/**
 * Active users who have read the message, besides its sender, leaving out anyone the viewer
 * has muted or who has muted the viewer (GET /messages/{message_id}/read_receipts), by id.
 */
export function messageReaders(db: Db, messageId: number, viewerId: number): number[] {
  return (
    db
      .prepare(
        `SELECT um.user_id FROM user_messages um
         JOIN messages m ON m.id = um.message_id JOIN users u ON u.id = um.user_id
         WHERE um.message_id = ? AND (um.flags & ${FLAGS.read}) != 0 AND u.is_active = 1
           AND um.user_id != m.sender_id
           AND NOT EXISTS (SELECT 1 FROM muted_users mu WHERE (mu.user_id = ? AND mu.muted_user_id = um.user_id)
             OR (mu.user_id = um.user_id AND mu.muted_user_id = ?))
         ORDER BY um.user_id`,
      )
      .all(messageId, viewerId, viewerId) as { user_id: number }[]
  ).map((r) => r.user_id);
}
