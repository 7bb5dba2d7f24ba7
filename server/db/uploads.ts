/** Uploaded files (attachments) and the messages that link to them. */
import type { Db } from './index';

export interface AttachmentRow {
  id: number;
  realm_id: number;
  owner_id: number;
  path_id: string;
  file_name: string;
  content_type: string;
  size: number;
  create_time_ms: number;
}

export function insertAttachment(db: Db, row: Omit<AttachmentRow, 'id'>): number {
  const info = db
    .prepare(
      `INSERT INTO attachments (realm_id, owner_id, path_id, file_name, content_type, size, create_time_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      row.realm_id,
      row.owner_id,
      row.path_id,
      row.file_name,
      row.content_type,
      row.size,
      row.create_time_ms,
    );
  return Number(info.lastInsertRowid);
}

export function attachmentById(db: Db, id: number): AttachmentRow | undefined {
  return db.prepare('SELECT * FROM attachments WHERE id = ?').get(id) as AttachmentRow | undefined;
}

export function attachmentByPathId(db: Db, pathId: string): AttachmentRow | undefined {
  return db.prepare('SELECT * FROM attachments WHERE path_id = ?').get(pathId) as AttachmentRow | undefined;
}

export function ownerAttachments(db: Db, ownerId: number): AttachmentRow[] {
  return db
    .prepare('SELECT * FROM attachments WHERE owner_id = ? ORDER BY id')
    .all(ownerId) as AttachmentRow[];
}

/** Bytes the user's uploads take (GET /attachments' upload_space_used). */
export function uploadSpaceUsed(db: Db, ownerId: number): number {
  const row = db
    .prepare('SELECT COALESCE(SUM(size), 0) AS used FROM attachments WHERE owner_id = ?')
    .get(ownerId) as {
    used: number;
  };
  return row.used;
}

export function deleteAttachment(db: Db, id: number): void {
  db.prepare('DELETE FROM attachments WHERE id = ?').run(id);
}

/** Messages of the organization whose text links to the file, oldest first; `senderId` narrows. */
export function messagesLinking(
  db: Db,
  realmId: number,
  pathId: string,
  senderId?: number,
): { id: number; date_sent: number }[] {
  const link = `/user_uploads/${pathId}`;
  const bySender = senderId === undefined ? '' : ' AND sender_id = ?';
  const args = senderId === undefined ? [realmId, link] : [realmId, link, senderId];
  return db
    .prepare(
      `SELECT id, date_sent FROM messages WHERE realm_id = ? AND instr(content, ?) > 0${bySender} ORDER BY id`,
    )
    .all(...args) as { id: number; date_sent: number }[];
}

/** The owner's files that this text links (the same rule as messagesLinking), oldest first. */
export function ownerAttachmentsLinkedBy(db: Db, ownerId: number, text: string): AttachmentRow[] {
  return db
    .prepare(
      `SELECT * FROM attachments WHERE owner_id = ? AND instr(?, '/user_uploads/' || path_id) > 0 ORDER BY id`,
    )
    .all(ownerId, text) as AttachmentRow[];
}
