/** The organization's custom emoji (realm_emoji); the rules about emoji are in server/emoji.ts. */
import type { Db } from './index';

export interface RealmEmojiRow {
  id: number;
  name: string;
  author_id: number | null;
  file_name: string;
  deactivated: number;
}

/** Every custom emoji, deactivated ones included (old messages and statuses still use them). */
export function listRealmEmoji(db: Db, realmId: number): RealmEmojiRow[] {
  return db
    .prepare(
      'SELECT id, name, author_id, file_name, deactivated FROM realm_emoji WHERE realm_id = ? ORDER BY id',
    )
    .all(realmId) as RealmEmojiRow[];
}

export type RealmEmojiName = Pick<RealmEmojiRow, 'id' | 'name' | 'deactivated'>;

export function activeRealmEmojiByName(db: Db, realmId: number, name: string): RealmEmojiName | undefined {
  return db
    .prepare(
      'SELECT id, name, deactivated FROM realm_emoji WHERE realm_id = ? AND name = ? AND deactivated = 0',
    )
    .get(realmId, name) as RealmEmojiName | undefined;
}

export function realmEmojiById(db: Db, realmId: number, id: number): RealmEmojiName | undefined {
  return db
    .prepare('SELECT id, name, deactivated FROM realm_emoji WHERE realm_id = ? AND id = ?')
    .get(realmId, id) as RealmEmojiName | undefined;
}

/** A new custom emoji (POST /realm/emoji/{emoji_name}); its image is stored as `fileName`. */
export function insertRealmEmoji(
  db: Db,
  row: { realmId: number; name: string; authorId: number; fileName: string },
): number {
  const info = db
    .prepare('INSERT INTO realm_emoji (realm_id, name, author_id, file_name) VALUES (?, ?, ?, ?)')
    .run(row.realmId, row.name, row.authorId, row.fileName);
  return Number(info.lastInsertRowid);
}

/** The active custom emoji of that name, with its author (DELETE /realm/emoji/{emoji_name}). */
export function activeRealmEmojiWithAuthor(db: Db, realmId: number, name: string): RealmEmojiRow | undefined {
  return db
    .prepare(
      'SELECT id, name, author_id, file_name, deactivated FROM realm_emoji WHERE realm_id = ? AND name = ? AND deactivated = 0',
    )
    .get(realmId, name) as RealmEmojiRow | undefined;
}

/** Deactivated, not deleted: old messages and statuses still show it. */
export function deactivateRealmEmoji(db: Db, id: number): void {
  db.prepare('UPDATE realm_emoji SET deactivated = 1 WHERE id = ?').run(id);
}

/** A custom emoji with its image's file name, deactivated or not, for serving the image. */
export function realmEmojiFile(db: Db, realmId: number, id: number): RealmEmojiRow | undefined {
  return db
    .prepare(
      'SELECT id, name, author_id, file_name, deactivated FROM realm_emoji WHERE realm_id = ? AND id = ?',
    )
    .get(realmId, id) as RealmEmojiRow | undefined;
}
