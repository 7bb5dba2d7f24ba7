/** Per-user data: drafts, status, alert words, topic visibility. */
import type { Db } from './index';

export interface DraftRow {
  id: number;
  user_id: number;
  type: '' | 'stream' | 'private';
  to_ids: string;
  topic: string;
  content: string;
  last_edit_time: number;
}

export function formatDraft(d: DraftRow) {
  return {
    id: d.id,
    type: d.type,
    to: JSON.parse(d.to_ids) as number[],
    topic: d.topic,
    content: d.content,
    timestamp: d.last_edit_time,
  };
}

export function insertDraft(
  db: Db,
  d: {
    userId: number;
    type: DraftRow['type'];
    to: number[];
    topic: string;
    content: string;
    timestamp: number;
  },
): number {
  return Number(
    db
      .prepare(
        'INSERT INTO drafts (user_id, type, to_ids, topic, content, last_edit_time) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(d.userId, d.type, JSON.stringify(d.to), d.topic, d.content, d.timestamp).lastInsertRowid,
  );
}

export function listDrafts(db: Db, userId: number) {
  const rows = db
    .prepare('SELECT * FROM drafts WHERE user_id = ? ORDER BY last_edit_time, id')
    .all(userId) as DraftRow[];
  return rows.map(formatDraft);
}

/** A draft of this user, or undefined (another user's draft is as missing as no draft). */
export function getDraft(db: Db, userId: number, draftId: number): DraftRow | undefined {
  return db.prepare('SELECT * FROM drafts WHERE id = ? AND user_id = ?').get(draftId, userId) as
    | DraftRow
    | undefined;
}

export function updateDraft(
  db: Db,
  draftId: number,
  d: { type: DraftRow['type']; to: number[]; topic: string; content: string; timestamp: number },
): void {
  db.prepare(
    'UPDATE drafts SET type = ?, to_ids = ?, topic = ?, content = ?, last_edit_time = ? WHERE id = ?',
  ).run(d.type, JSON.stringify(d.to), d.topic, d.content, d.timestamp, draftId);
}

export function deleteDraft(db: Db, draftId: number): void {
  db.prepare('DELETE FROM drafts WHERE id = ?').run(draftId);
}

/** GET /drafts and register: the most recently edited first (the interface family's order). */
export function listDraftsNewestFirst(db: Db, userId: number) {
  const rows = db
    .prepare('SELECT * FROM drafts WHERE user_id = ? ORDER BY last_edit_time DESC, id DESC')
    .all(userId) as DraftRow[];
  return rows.map(formatDraft);
}

export function deleteAllDrafts(db: Db, userId: number): void {
  db.prepare('DELETE FROM drafts WHERE user_id = ?').run(userId);
}

export function setUserStatus(
  db: Db,
  s: {
    userId: number;
    statusText: string;
    emojiName: string;
    emojiCode: string;
    reactionType: string;
    now: number;
  },
): void {
  db.prepare(
    `INSERT INTO user_status (user_id, status_text, emoji_name, emoji_code, reaction_type, timestamp)
     VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (user_id) DO UPDATE SET status_text = excluded.status_text, emoji_name = excluded.emoji_name,
       emoji_code = excluded.emoji_code, reaction_type = excluded.reaction_type, timestamp = excluded.timestamp`,
  ).run(s.userId, s.statusText, s.emojiName, s.emojiCode, s.reactionType, s.now);
}

/**
 * register's user_status: per user id, only the parts that are set (the interface family
 * leaves out empty ones); `away` is the inverse of presence_enabled. With `userIds`, only
 * theirs (the ids travel as one JSON array): register keeps the organization's up to date.
 */
export function userStatuses(
  db: Db,
  realmId: number,
  userIds?: readonly number[],
): Record<string, Record<string, unknown>> {
  // CROSS JOIN keeps the statuses the outer loop: without statistics, SQLite would walk every
  // user of the organization.
  const chosen = userIds ? 'AND s.user_id IN (SELECT value FROM json_each(?))' : '';
  const rows = db
    .prepare(
      `SELECT s.user_id, s.status_text, s.emoji_name, s.emoji_code, s.reaction_type
       FROM user_status s CROSS JOIN users u ON u.id = s.user_id
       WHERE u.realm_id = ? AND u.is_active = 1 ${chosen} ORDER BY s.user_id`,
    )
    .all(realmId, ...(userIds ? [JSON.stringify(userIds)] : [])) as {
    user_id: number;
    status_text: string;
    emoji_name: string;
    emoji_code: string;
    reaction_type: string;
  }[];
  const result: Record<string, Record<string, unknown>> = {};
  for (const row of rows) {
    const status: Record<string, unknown> = {};
    if (row.status_text) status.status_text = row.status_text;
    if (row.emoji_name) {
      status.emoji_name = row.emoji_name;
      status.emoji_code = row.emoji_code;
      status.reaction_type = row.reaction_type;
    }
    if (Object.keys(status).length > 0) result[String(row.user_id)] = status;
  }
  // Users who turned presence off appear "away" to legacy clients.
  const away = db
    .prepare(
      userIds
        ? `SELECT id FROM users WHERE id IN (SELECT value FROM json_each(?)) AND +realm_id = ?
           AND is_active = 1 AND json_extract(settings, '$.presence_enabled') = 0`
        : `SELECT id FROM users WHERE realm_id = ? AND is_active = 1
           AND json_extract(settings, '$.presence_enabled') = 0`,
    )
    .all(...(userIds ? [JSON.stringify(userIds), realmId] : [realmId])) as { id: number }[];
  for (const { id } of away) result[String(id)] = { ...result[String(id)], away: true };
  return result;
}

export function alertWords(db: Db, userId: number): string[] {
  return (
    db.prepare('SELECT word FROM alert_words WHERE user_id = ? ORDER BY word').all(userId) as {
      word: string;
    }[]
  ).map((r) => r.word);
}

export function userTopics(db: Db, userId: number): Record<string, unknown>[] {
  return db
    .prepare(
      `SELECT stream_id, topic_name, last_updated, visibility_policy FROM user_topics
       WHERE user_id = ? AND visibility_policy != 0 ORDER BY last_updated`,
    )
    .all(userId) as Record<string, unknown>[];
}

export interface UserStatusRow {
  user_id: number;
  status_text: string;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  timestamp: number;
}

export function getUserStatus(db: Db, userId: number): UserStatusRow | undefined {
  return db.prepare('SELECT * FROM user_status WHERE user_id = ?').get(userId) as UserStatusRow | undefined;
}
