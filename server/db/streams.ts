/** Streams and subscriptions. */
import { STREAM_COLORS } from '../../shared/protocol';
import { FLAGS } from './flags';
import type { Db } from './index';
import { selectColumn } from './sql';

/** Retention stored as the spec's message_retention_days: null inherits, -1 is forever. */
export const RETAIN_FOREVER = -1;

export interface StreamRow {
  id: number;
  realm_id: number;
  name: string;
  description: string;
  rendered_description: string;
  date_created: number;
  invite_only: number;
  is_web_public: number;
  history_public_to_subscribers: number;
  stream_post_policy: number;
  message_retention_days: number | null;
  can_remove_subscribers_group_id: number;
  is_default: number;
  deactivated: number;
}

export interface SubscriptionRow {
  user_id: number;
  stream_id: number;
  active: number;
  color: string;
  is_muted: number;
  pin_to_top: number;
  desktop_notifications: number | null;
  email_notifications: number | null;
  push_notifications: number | null;
  audible_notifications: number | null;
  wildcard_mentions_notify: number | null;
}

export interface NewStream {
  realmId: number;
  name: string;
  description?: string;
  renderedDescription?: string;
  dateCreated: number;
  inviteOnly?: boolean;
  isWebPublic?: boolean;
  historyPublicToSubscribers?: boolean;
  streamPostPolicy?: number;
  messageRetentionDays?: number | null;
  canRemoveSubscribersGroupId: number;
  isDefault?: boolean;
}

export function insertStream(db: Db, s: NewStream): number {
  const info = db
    .prepare(
      `INSERT INTO streams (realm_id, name, description, rendered_description, date_created, invite_only,
         is_web_public, history_public_to_subscribers, stream_post_policy, message_retention_days,
         can_remove_subscribers_group_id, is_default)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      s.realmId,
      s.name,
      s.description ?? '',
      s.renderedDescription ?? '',
      s.dateCreated,
      s.inviteOnly ? 1 : 0,
      s.isWebPublic ? 1 : 0,
      (s.historyPublicToSubscribers ?? true) ? 1 : 0,
      s.streamPostPolicy ?? 1,
      s.messageRetentionDays ?? null,
      s.canRemoveSubscribersGroupId,
      s.isDefault ? 1 : 0,
    );
  const streamId = Number(info.lastInsertRowid);
  db.prepare('INSERT INTO recipients (type, type_id) VALUES (2, ?)').run(streamId);
  return streamId;
}

export function getStream(db: Db, streamId: number): StreamRow | undefined {
  return db.prepare('SELECT * FROM streams WHERE id = ?').get(streamId) as StreamRow | undefined;
}

export function getStreamByName(db: Db, realmId: number, name: string): StreamRow | undefined {
  return db.prepare('SELECT * FROM streams WHERE realm_id = ? AND name = ?').get(realmId, name) as
    | StreamRow
    | undefined;
}

export function listStreams(db: Db, realmId: number): StreamRow[] {
  return db
    .prepare('SELECT * FROM streams WHERE realm_id = ? AND deactivated = 0 ORDER BY id')
    .all(realmId) as StreamRow[];
}

/** The streams new users are subscribed to. */
export function defaultStreamIds(db: Db, realmId: number): number[] {
  return selectColumn(
    db,
    'SELECT id FROM streams WHERE realm_id = ? AND is_default = 1 AND deactivated = 0 ORDER BY id',
    realmId,
  );
}

export function streamRecipientId(db: Db, streamId: number): number {
  const row = db.prepare('SELECT id FROM recipients WHERE type = 2 AND type_id = ?').get(streamId) as
    | { id: number }
    | undefined;
  if (!row) throw new Error(`Stream ${streamId} has no recipient`);
  return row.id;
}

/** Subscribes (or re-activates) a user; a new subscription takes the next palette color. */
export function subscribe(db: Db, userId: number, streamId: number): void {
  const count = db.prepare('SELECT COUNT(*) AS n FROM subscriptions WHERE user_id = ?').get(userId) as {
    n: number;
  };
  const color = STREAM_COLORS[count.n % STREAM_COLORS.length] ?? '#c2c2c2';
  db.prepare(
    `INSERT INTO subscriptions (user_id, stream_id, active, color) VALUES (?, ?, 1, ?)
     ON CONFLICT (user_id, stream_id) DO UPDATE SET active = 1`,
  ).run(userId, streamId, color);
}

/**
 * Subscribes (or re-activates) each of these users to each of these streams they are not
 * subscribed to yet, exactly as `subscribe` would one by one, users in order, each user's
 * streams in order (a new row takes the next palette color after the user's rows so far);
 * answers the streams each user was newly subscribed to. Three statements for any number of
 * rows: one request may subscribe thousands of people, and a statement run per row costs
 * more than the row.
 */
export function subscribeMany(
  db: Db,
  userIds: readonly number[],
  streamIds: readonly number[],
): Map<number, Set<number>> {
  const rows = db
    .prepare(
      'SELECT user_id, stream_id, active FROM subscriptions WHERE user_id IN (SELECT value FROM json_each(?))',
    )
    .all(JSON.stringify(userIds)) as { user_id: number; stream_id: number; active: number }[];
  const existing = new Map<number, Map<number, number>>();
  for (const row of rows) {
    let mine = existing.get(row.user_id);
    if (!mine) {
      mine = new Map();
      existing.set(row.user_id, mine);
    }
    mine.set(row.stream_id, row.active);
  }
  const inserts: [number, number, string][] = [];
  const reactivations: [number, number][] = [];
  const added = new Map<number, Set<number>>();
  for (const userId of userIds) {
    const mine = existing.get(userId) ?? new Map<number, number>();
    // The color of a new row follows the count of the user's rows, inactive ones included.
    let count = mine.size;
    const theirs = added.get(userId) ?? new Set<number>();
    added.set(userId, theirs);
    for (const streamId of streamIds) {
      const active = mine.get(streamId);
      if (active === 1 || theirs.has(streamId)) continue;
      if (active === undefined) {
        inserts.push([userId, streamId, STREAM_COLORS[count % STREAM_COLORS.length] ?? '#c2c2c2']);
        count++;
      } else {
        reactivations.push([userId, streamId]);
      }
      theirs.add(streamId);
    }
  }
  if (inserts.length > 0) {
    db.prepare(
      `INSERT INTO subscriptions (user_id, stream_id, active, color)
       SELECT value ->> 0, value ->> 1, 1, value ->> 2 FROM json_each(?)`,
    ).run(JSON.stringify(inserts));
  }
  if (reactivations.length > 0) {
    db.prepare(
      `UPDATE subscriptions SET active = 1
       WHERE (user_id, stream_id) IN (SELECT value ->> 0, value ->> 1 FROM json_each(?))`,
    ).run(JSON.stringify(reactivations));
  }
  return added;
}

/** The subscription rows of these users to these streams, in one statement. */
export function subscriptionRows(
  db: Db,
  userIds: readonly number[],
  streamIds: readonly number[],
): SubscriptionRow[] {
  return db
    .prepare(
      `SELECT * FROM subscriptions WHERE user_id IN (SELECT value FROM json_each(?))
       AND stream_id IN (SELECT value FROM json_each(?))`,
    )
    .all(JSON.stringify(userIds), JSON.stringify(streamIds)) as SubscriptionRow[];
}

/**
 * A mark that changes whenever anything is written to the database, by this connection or
 * another: the rows this connection has changed so far (SQLite's total_changes, rolled-back
 * ones included) and data_version, which moves when another connection commits. What was read
 * before the mark was taken is still true while it stays the same.
 */
export function writeMark(db: Db): string {
  const changes = db.prepare('SELECT total_changes()').pluck().get() as number;
  const version = db.pragma('data_version', { simple: true }) as number;
  return `${changes}:${version}`;
}

export function subscriptionsOf(db: Db, userId: number): SubscriptionRow[] {
  return db
    .prepare('SELECT * FROM subscriptions WHERE user_id = ? ORDER BY stream_id')
    .all(userId) as SubscriptionRow[];
}

/** Active subscribers of every stream of the realm that are active users, by stream id. */
export function subscribersByStream(db: Db, realmId: number): Map<number, number[]> {
  const rows = db
    .prepare(
      `SELECT s.stream_id, s.user_id FROM subscriptions s
       JOIN users u ON u.id = s.user_id
       JOIN streams st ON st.id = s.stream_id
       WHERE st.realm_id = ? AND s.active = 1 AND u.is_active = 1 ORDER BY s.stream_id, s.user_id`,
    )
    .all(realmId) as { stream_id: number; user_id: number }[];
  const result = new Map<number, number[]>();
  for (const { stream_id, user_id } of rows) {
    const list = result.get(stream_id);
    if (list) list.push(user_id);
    else result.set(stream_id, [user_id]);
  }
  return result;
}

export function firstMessageIds(db: Db, realmId: number): Map<number, number> {
  const rows = db
    .prepare(
      'SELECT stream_id, MIN(id) AS first FROM messages WHERE realm_id = ? AND stream_id IS NOT NULL GROUP BY stream_id',
    )
    .all(realmId) as { stream_id: number; first: number }[];
  return new Map(rows.map((r) => [r.stream_id, r.first]));
}

/**
 * How many messages each stream of the realm (archived ones too) received in
 * [fromSeconds, toSeconds): one statement, one range seek per stream (messages_stream_date).
 */
export function streamMessageCounts(
  db: Db,
  realmId: number,
  fromSeconds: number,
  toSeconds: number,
): Map<number, number> {
  const rows = db
    .prepare(
      `SELECT s.id AS stream_id,
         (SELECT COUNT(*) FROM messages m
          WHERE m.stream_id = s.id AND m.date_sent >= ? AND m.date_sent < ?) AS n
       FROM streams s WHERE s.realm_id = ?`,
    )
    .all(fromSeconds, toSeconds, realmId) as { stream_id: number; n: number }[];
  return new Map(rows.map((r) => [r.stream_id, r.n]));
}

/** How many messages one stream received in [fromSeconds, toSeconds). */
export function streamMessageCount(db: Db, streamId: number, fromSeconds: number, toSeconds: number): number {
  return db
    .prepare('SELECT COUNT(*) FROM messages WHERE stream_id = ? AND date_sent >= ? AND date_sent < ?')
    .pluck()
    .get(streamId, fromSeconds, toSeconds) as number;
}

export function getSubscription(db: Db, userId: number, streamId: number): SubscriptionRow | undefined {
  return db
    .prepare('SELECT * FROM subscriptions WHERE user_id = ? AND stream_id = ?')
    .get(userId, streamId) as SubscriptionRow | undefined;
}

/**
 * Ends each of these users' active subscriptions to each of these streams, keeping the rows
 * (a later re-subscription finds the personal properties again); answers, by user, the streams
 * they left. One statement for any number of rows: one request may unsubscribe thousands.
 */
export function unsubscribeMany(
  db: Db,
  userIds: readonly number[],
  streamIds: readonly number[],
): Map<number, Set<number>> {
  const left = new Map<number, Set<number>>();
  if (userIds.length === 0 || streamIds.length === 0) return left;
  const rows = db
    .prepare(
      `UPDATE subscriptions SET active = 0 WHERE active = 1
       AND user_id IN (SELECT value FROM json_each(?)) AND stream_id IN (SELECT value FROM json_each(?))
       RETURNING user_id, stream_id`,
    )
    .all(JSON.stringify(userIds), JSON.stringify(streamIds)) as { user_id: number; stream_id: number }[];
  for (const row of rows) {
    const theirs = left.get(row.user_id);
    if (theirs) theirs.add(row.stream_id);
    else left.set(row.user_id, new Set([row.stream_id]));
  }
  return left;
}

/**
 * Of these users, those holding an active subscription to each of these streams, by stream id:
 * who among the people with an event queue is a member, without reading every member.
 */
export function activeSubscribersAmong(
  db: Db,
  userIds: readonly number[],
  streamIds: readonly number[],
): Map<number, Set<number>> {
  const members = new Map<number, Set<number>>(streamIds.map((id) => [id, new Set()]));
  if (userIds.length === 0 || streamIds.length === 0) return members;
  const rows = db
    .prepare(
      `SELECT user_id, stream_id FROM subscriptions WHERE active = 1
       AND user_id IN (SELECT value FROM json_each(?)) AND stream_id IN (SELECT value FROM json_each(?))`,
    )
    .raw()
    .all(JSON.stringify(userIds), JSON.stringify(streamIds)) as [number, number][];
  for (const [userId, streamId] of rows) members.get(streamId)?.add(userId);
  return members;
}

/** Whether the user holds an active subscription to the stream. */
export function isSubscribed(db: Db, userId: number, streamId: number): boolean {
  return (
    db
      .prepare('SELECT 1 FROM subscriptions WHERE user_id = ? AND stream_id = ? AND active = 1')
      .get(userId, streamId) !== undefined
  );
}

/** Active subscribers that are active users. */
export function streamSubscriberIds(db: Db, streamId: number): number[] {
  return selectColumn(
    db,
    `SELECT s.user_id FROM subscriptions s JOIN users u ON u.id = s.user_id
     WHERE s.stream_id = ? AND s.active = 1 AND u.is_active = 1 ORDER BY s.user_id`,
    streamId,
  );
}

export const SUBSCRIPTION_COLUMNS = [
  'color',
  'is_muted',
  'pin_to_top',
  'desktop_notifications',
  'email_notifications',
  'push_notifications',
  'audible_notifications',
  'wildcard_mentions_notify',
] as const;
export type SubscriptionColumn = (typeof SUBSCRIPTION_COLUMNS)[number];

export function setSubscriptionColumn(
  db: Db,
  userId: number,
  streamId: number,
  column: SubscriptionColumn,
  value: string | number | null,
): void {
  // The column name comes from the fixed list above, never from the request.
  db.prepare(`UPDATE subscriptions SET ${column} = ? WHERE user_id = ? AND stream_id = ?`).run(
    value,
    userId,
    streamId,
  );
}

export const STREAM_COLUMNS = [
  'name',
  'description',
  'rendered_description',
  'invite_only',
  'is_web_public',
  'history_public_to_subscribers',
  'stream_post_policy',
  'message_retention_days',
] as const;
export type StreamColumn = (typeof STREAM_COLUMNS)[number];

export function updateStream(
  db: Db,
  streamId: number,
  changes: Partial<Record<StreamColumn, string | number | null>>,
): void {
  const entries = Object.entries(changes).filter(([k]) => (STREAM_COLUMNS as readonly string[]).includes(k));
  if (entries.length === 0) return;
  db.prepare(`UPDATE streams SET ${entries.map(([k]) => `${k} = ?`).join(', ')} WHERE id = ?`).run(
    ...entries.map(([, v]) => v),
    streamId,
  );
}

/**
 * The id of the stream's oldest message, or null when it has none. A stream message's
 * recipient is the stream's own (insertMessage and moveMessages set both together), so the
 * messages_recipient index (recipient_id, id) answers with one seek; no index starts with
 * stream_id and id, and MIN over stream_id read every message of the stream, on every send.
 */
export function firstMessageId(db: Db, streamId: number): number | null {
  const row = db
    .prepare(
      `SELECT MIN(m.id) AS first FROM recipients r JOIN messages m ON m.recipient_id = r.id
       WHERE r.type = 2 AND r.type_id = ?`,
    )
    .get(streamId) as { first: number | null };
  return row.first;
}

/**
 * Archives a stream as the interface family does: deactivated, private, out of the default
 * streams, under a new name that frees the old one for a new stream.
 */
export function archiveStream(db: Db, streamId: number, archivedName: string): void {
  db.prepare(
    'UPDATE streams SET deactivated = 1, invite_only = 1, is_default = 0, name = ? WHERE id = ?',
  ).run(archivedName, streamId);
}

/** Ends every subscription to the stream (the rows keep their properties). */
export function endSubscriptions(db: Db, streamId: number): void {
  db.prepare('UPDATE subscriptions SET active = 0 WHERE stream_id = ?').run(streamId);
}

/** Users with an unread copy of a message of the stream. */
export function usersWithUnreadIn(db: Db, streamId: number): number[] {
  return selectColumn(
    db,
    `SELECT DISTINCT um.user_id FROM user_messages um JOIN messages m ON m.id = um.message_id
     WHERE m.stream_id = ? AND (um.flags & ${FLAGS.read}) = 0 ORDER BY um.user_id`,
    streamId,
  );
}

/**
 * Up to `limit` of the user's unread copies in a stream, or in one of its topics (any letter
 * case), newest first, with ids below `beforeId` when given: one slice of
 * mark_stream_as_read, the next one starting below where this one ended.
 */
export function newestUnreadInStream(
  db: Db,
  q: { userId: number; streamId: number; topic?: string | undefined; beforeId: number | null; limit: number },
): number[] {
  const topic = q.topic === undefined ? '' : 'AND m.topic = ? COLLATE NOCASE';
  const before = q.beforeId === null ? '' : 'AND um.message_id < ?';
  const args = [q.userId, q.streamId, ...(q.topic === undefined ? [] : [q.topic])];
  if (q.beforeId !== null) args.push(q.beforeId);
  return selectColumn(
    db,
    `SELECT um.message_id FROM user_messages um JOIN messages m ON m.id = um.message_id
     WHERE um.user_id = ? AND (um.flags & ${FLAGS.read}) = 0 AND m.stream_id = ? ${topic} ${before}
     ORDER BY um.message_id DESC LIMIT ?`,
    ...args,
    q.limit,
  );
}

/** Adds the stream to, or removes it from, the streams new users are subscribed to. */
export function setStreamDefault(db: Db, streamId: number, isDefault: boolean): void {
  db.prepare('UPDATE streams SET is_default = ? WHERE id = ?').run(isDefault ? 1 : 0, streamId);
}

/** The organization's active default streams, by name. */
export function listDefaultStreams(db: Db, realmId: number): StreamRow[] {
  return db
    .prepare('SELECT * FROM streams WHERE realm_id = ? AND is_default = 1 AND deactivated = 0 ORDER BY name')
    .all(realmId) as StreamRow[];
}
