/**
 * GET /messages in SQL: a narrow whose operands are already resolved to ids and checked
 * (actions/message-fetch.ts) becomes a WHERE clause over `m` (messages) and `um` (the user's
 * copy, NULL when the user has none), and the window of messages around an anchor is read
 * with it.
 */
import { FLAGS } from './flags';
import type { Db } from './index';
import type { MessageRow } from './messages';

/** One narrow term, resolved: what it keeps. */
export type NarrowFilter =
  | { kind: 'stream'; streamId: number }
  | { kind: 'topic'; topic: string }
  | { kind: 'sender'; userId: number }
  | { kind: 'id'; messageId: number }
  | { kind: 'search'; text: string }
  | { kind: 'is'; what: keyof typeof IS_SQL }
  | { kind: 'has'; what: keyof typeof HAS_SQL }
  /** A direct-message conversation by its recipient (-1: a conversation that never was). */
  | { kind: 'conversation'; recipientId: number };

export interface MessageQuery {
  userId: number;
  realmId: number;
  filters: { filter: NarrowFilter; negated: boolean }[];
  /** A stream whose whole history the user may read: its messages count without a copy. */
  historyStreamId: number | null;
}

interface Sql {
  where: string;
  args: unknown[];
}

/** `is:` operands as conditions on the message and the user's flags. */
const IS_SQL = {
  private: 'm.stream_id IS NULL',
  unread: `um.flags IS NOT NULL AND (um.flags & ${FLAGS.read}) = 0`,
  starred: `(um.flags & ${FLAGS.starred}) != 0`,
  mentioned: `(um.flags & ${FLAGS.mentioned | FLAGS.wildcard_mentioned}) != 0`,
  alerted: `(um.flags & ${FLAGS.has_alert_word}) != 0`,
} as const;

/** An image file's link: the rendered href or title ends in an image type's extension. */
const IMAGE_LINK = ['png', 'jpg', 'jpeg', 'gif', 'webp', 'bmp']
  .map((ext) => `m.rendered_content LIKE '%.${ext}"%'`)
  .join(' OR ');

/**
 * `has:` operands as conditions on the rendered content (the family keeps has_link, has_image
 * and has_attachment columns set at rendering; the same rules read from the HTML): a link, an
 * image (an `<img>`, an inline image preview, or a link to an image file), a link to an
 * uploaded file (`/user_uploads/`, as the client writes it, or absolute).
 */
const HAS_SQL = {
  link: `m.rendered_content LIKE '%<a %'`,
  image: `m.rendered_content LIKE '%<img%' OR m.rendered_content LIKE '%message_inline_image%' OR ${IMAGE_LINK}`,
  attachment: `m.rendered_content LIKE '%href="/user_uploads/%' OR m.rendered_content LIKE '%href="http%/user_uploads/%'`,
} as const;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * A stream's messages by its recipient, which a stream message shares with the stream
 * (insertMessage and moveMessages set both): messages_recipient (recipient_id, id) then walks
 * them in id order and a window stops after its LIMIT, where `stream_id = ?` read and sorted
 * every message of the stream (no index on stream_id ends in id, but the topic's).
 */
const STREAM_BY_RECIPIENT = 'm.recipient_id = (SELECT id FROM recipients WHERE type = 2 AND type_id = ?)';

/** `byRecipient`: the stream term as STREAM_BY_RECIPIENT (whereSql says when). */
function filterSql(filter: NarrowFilter, byRecipient: boolean): Sql {
  switch (filter.kind) {
    case 'stream':
      return { where: byRecipient ? STREAM_BY_RECIPIENT : 'm.stream_id = ?', args: [filter.streamId] };
    case 'topic':
      return { where: 'm.stream_id IS NOT NULL AND m.topic = ? COLLATE NOCASE', args: [filter.topic] };
    case 'sender':
      return { where: 'm.sender_id = ?', args: [filter.userId] };
    case 'id':
      return { where: 'm.id = ?', args: [filter.messageId] };
    case 'search': {
      const like = `%${escapeLike(filter.text)}%`;
      return { where: "(m.content LIKE ? ESCAPE '\\' OR m.topic LIKE ? ESCAPE '\\')", args: [like, like] };
    }
    case 'is':
      return { where: IS_SQL[filter.what], args: [] };
    case 'has':
      return { where: HAS_SQL[filter.what], args: [] };
    case 'conversation':
      return { where: 'm.stream_id IS NULL AND m.recipient_id = ?', args: [filter.recipientId] };
  }
}

/**
 * The messages the user may read within the narrow: their own copies, and every message of
 * the history stream (a stream the narrow names whose whole history the user may read).
 */
function whereSql(q: MessageQuery): Sql {
  const parts: string[] = ['m.realm_id = ?'];
  const args: unknown[] = [q.realmId];
  // With a topic, stream_id stays: messages_stream_topic (stream_id, topic, id) walks that
  // topic alone in id order. Negated, too: `NOT (m.stream_id = ?)` keeps direct messages
  // out (NULL), as a recipient comparison would not.
  const byTopic = q.filters.some(({ filter, negated }) => !negated && filter.kind === 'topic');
  for (const { filter, negated } of q.filters) {
    const sql = filterSql(filter, !negated && !byTopic);
    parts.push(negated ? `NOT (${sql.where})` : `(${sql.where})`);
    args.push(...sql.args);
  }
  if (q.historyStreamId === null) parts.push('um.user_id IS NOT NULL');
  else {
    parts.push('(um.user_id IS NOT NULL OR m.stream_id = ?)');
    args.push(q.historyStreamId);
  }
  return { where: parts.join(' AND '), args };
}

/** A message with the user's flag bits (null without a copy). */
export type FetchedRow = MessageRow & { um_flags: number | null };
const FROM = 'FROM messages m LEFT JOIN user_messages um ON um.message_id = m.id AND um.user_id = ?';

/**
 * The oldest message of the narrow the user has an unread copy of: the user's unread copies
 * walked in id order (user_messages_unread holds unread rows only) up to the first the narrow
 * keeps. Left to itself SQLite walks every copy of the user, read ones too (the primary key
 * holds the flags), or every message of a stream narrow; INDEXED BY and CROSS JOIN keep this
 * plan, which costs at most the user's unread count.
 */
export function firstUnreadMessageId(db: Db, q: MessageQuery): number | null {
  const { where, args } = whereSql(q);
  const id = db
    .prepare(
      `SELECT um.message_id FROM user_messages um INDEXED BY user_messages_unread
       CROSS JOIN messages m ON m.id = um.message_id
       WHERE um.user_id = ? AND (um.flags & ${FLAGS.read}) = 0 AND ${where}
       ORDER BY um.message_id LIMIT 1`,
    )
    .pluck()
    .get(q.userId, ...args) as number | undefined;
  return id ?? null;
}

/** Where a window is read: around `anchor`, how many on each side, and the anchor itself or not. */
export interface WindowBounds {
  anchor: number;
  numBefore: number;
  numAfter: number;
  includeAnchor: boolean;
}

/** A window's parts: before the anchor (newest first), at it, after it (oldest first). */
export interface Window<R> {
  before: R[];
  atAnchor: R | undefined;
  after: R[];
}

/** The window's three statements, selecting `columns`; `pluck` reads the first column alone. */
function readWindow<R>(db: Db, q: MessageQuery, w: WindowBounds, columns: string, pluck: boolean): Window<R> {
  const { where, args } = whereSql(q);
  const select = `SELECT ${columns} ${FROM} WHERE ${where}`;
  const shaped = (sql: string) => (pluck ? db.prepare(sql).pluck() : db.prepare(sql));
  const before = shaped(`${select} AND m.id < ? ORDER BY m.id DESC LIMIT ?`).all(
    q.userId,
    ...args,
    w.anchor,
    w.numBefore + 1,
  ) as R[];
  const after = shaped(`${select} AND m.id > ? ORDER BY m.id ASC LIMIT ?`).all(
    q.userId,
    ...args,
    w.anchor,
    w.numAfter + 1,
  ) as R[];
  const atAnchor = w.includeAnchor
    ? (shaped(`${select} AND m.id = ?`).get(q.userId, ...args, w.anchor) as R | undefined)
    : undefined;
  return { before, atAnchor, after };
}

/**
 * Up to `numBefore + 1` messages before the anchor (newest first) and `numAfter + 1` after
 * it (oldest first), one more than asked so the caller can tell whether the narrow goes on,
 * and the message at the anchor when asked for.
 */
export function messageWindow(db: Db, q: MessageQuery, w: WindowBounds): Window<FetchedRow> {
  return readWindow<FetchedRow>(db, q, w, 'm.*, um.flags AS um_flags', false);
}

/**
 * messageWindow's messages by id only, for a flag change on thousands of them (flags/narrow):
 * whole rows, content and all, cost four times as much to read.
 */
export function messageWindowIds(db: Db, q: MessageQuery, w: WindowBounds): Window<number> {
  return readWindow<number>(db, q, w, 'm.id', true);
}

/** Which of these messages the narrow keeps for the user (GET /messages/matches_narrow), by id. */
export function narrowMatches(db: Db, q: MessageQuery, messageIds: readonly number[]): MessageRow[] {
  if (messageIds.length === 0) return [];
  const { where, args } = whereSql(q);
  return db
    .prepare(
      `SELECT m.* ${FROM} WHERE ${where} AND m.id IN (${messageIds.map(Number).join(',')}) ORDER BY m.id`,
    )
    .all(q.userId, ...args) as MessageRow[];
}
