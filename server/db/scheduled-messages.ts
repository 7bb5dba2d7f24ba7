/** Scheduled messages: the rows of migration 0005, read and written for actions/scheduled-*.ts. */
import type { Db } from './index';

export interface ScheduledMessageRow {
  id: number;
  realm_id: number;
  sender_id: number;
  type: 'stream' | 'private';
  stream_id: number | null;
  /** JSON array of user ids. */
  user_ids: string | null;
  topic: string;
  content: string;
  rendered_content: string;
  scheduled_timestamp: number;
  read_by_sender: number | null;
  delivered: number;
  delivered_message_id: number | null;
  failed: number;
  failure_message: string | null;
}

/** What a scheduled message says and when: the columns a create or an edit sets. */
export interface ScheduledMessageFields {
  type: 'stream' | 'private';
  streamId: number | null;
  userIds: number[] | null;
  topic: string;
  content: string;
  renderedContent: string;
  scheduledTimestamp: number;
}

/** The columns type .. scheduled_timestamp of a row, in that order. */
function columnValues(fields: ScheduledMessageFields): unknown[] {
  return [
    fields.type,
    fields.streamId,
    fields.userIds === null ? null : JSON.stringify(fields.userIds),
    fields.topic,
    fields.content,
    fields.renderedContent,
    fields.scheduledTimestamp,
  ];
}

export function insertScheduledMessage(
  db: Db,
  realmId: number,
  senderId: number,
  fields: ScheduledMessageFields,
  readBySender: boolean | undefined,
): number {
  const readBy = readBySender === undefined ? null : Number(readBySender);
  return Number(
    db
      .prepare(
        `INSERT INTO scheduled_messages (realm_id, sender_id, type, stream_id, user_ids, topic, content,
           rendered_content, scheduled_timestamp, read_by_sender)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(realmId, senderId, ...columnValues(fields), readBy).lastInsertRowid,
  );
}

/** Rewrites what and when, and clears a failure (the sender fixed it). */
export function updateScheduledMessage(db: Db, id: number, fields: ScheduledMessageFields): void {
  db.prepare(
    `UPDATE scheduled_messages SET type = ?, stream_id = ?, user_ids = ?, topic = ?, content = ?,
       rendered_content = ?, scheduled_timestamp = ?, failed = 0, failure_message = NULL WHERE id = ?`,
  ).run(...columnValues(fields), id);
}

export function getScheduledMessage(db: Db, id: number): ScheduledMessageRow | undefined {
  return db.prepare('SELECT * FROM scheduled_messages WHERE id = ?').get(id) as
    | ScheduledMessageRow
    | undefined;
}

/** The sender's undelivered scheduled messages, by delivery time. */
export function pendingScheduledMessages(db: Db, senderId: number): ScheduledMessageRow[] {
  return db
    .prepare(
      'SELECT * FROM scheduled_messages WHERE sender_id = ? AND delivered = 0 ORDER BY scheduled_timestamp, id',
    )
    .all(senderId) as ScheduledMessageRow[];
}

export function deleteScheduledMessage(db: Db, id: number): void {
  db.prepare('DELETE FROM scheduled_messages WHERE id = ?').run(id);
}

/** The earliest delivery time still to come (neither delivered nor failed), or null. */
export function nextScheduledTimestamp(db: Db): number | null {
  const row = db
    .prepare(
      'SELECT MIN(scheduled_timestamp) AS t FROM scheduled_messages WHERE delivered = 0 AND failed = 0',
    )
    .get() as { t: number | null };
  return row.t;
}

/** The ids of the messages due at `nowSeconds`, oldest first. */
export function dueScheduledMessageIds(db: Db, nowSeconds: number): number[] {
  return (
    db
      .prepare(
        `SELECT id FROM scheduled_messages WHERE delivered = 0 AND failed = 0 AND scheduled_timestamp <= ?
         ORDER BY scheduled_timestamp, id`,
      )
      .all(nowSeconds) as { id: number }[]
  ).map((r) => r.id);
}

export function markScheduledMessageDelivered(db: Db, id: number, messageId: number): void {
  db.prepare('UPDATE scheduled_messages SET delivered = 1, delivered_message_id = ? WHERE id = ?').run(
    messageId,
    id,
  );
}

export function markScheduledMessageFailed(db: Db, id: number, reason: string): void {
  db.prepare('UPDATE scheduled_messages SET failed = 1, failure_message = ? WHERE id = ?').run(reason, id);
}
