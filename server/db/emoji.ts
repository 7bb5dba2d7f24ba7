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
