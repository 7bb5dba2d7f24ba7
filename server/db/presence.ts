/** Presence's last-seen times (the in-memory store, server/presence.ts, writes through to them). */
import type { Db } from './index';

export interface PresenceRow {
  user_id: number;
  /** Unix seconds; null: never reported active. */
  last_active_time: number | null;
  last_connected_time: number;
  last_update_id: number;
}

export function loadPresences(db: Db, realmId: number): PresenceRow[] {
  return db
    .prepare(
      `SELECT user_id, last_active_time, last_connected_time, last_update_id FROM user_presence
       WHERE realm_id = ? ORDER BY user_id`,
    )
    .all(realmId) as PresenceRow[];
}

export function savePresence(db: Db, realmId: number, row: PresenceRow): void {
  db.prepare(
    `INSERT INTO user_presence (user_id, realm_id, last_active_time, last_connected_time, last_update_id)
     VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (user_id) DO UPDATE SET last_active_time = excluded.last_active_time,
       last_connected_time = excluded.last_connected_time, last_update_id = excluded.last_update_id`,
  ).run(row.user_id, realmId, row.last_active_time, row.last_connected_time, row.last_update_id);
}

/**
 * The users whose presence others may be shown: active humans. One who turned presence_enabled
 * off shows the old idle report the change left (server/presence.ts, hiddenRecord), as in the
 * family: offline, not absent.
 */
export function presenceUsers(db: Db, realmId: number): { id: number; email: string }[] {
  return db
    .prepare('SELECT id, email FROM users WHERE realm_id = ? AND is_active = 1 AND is_bot = 0 ORDER BY id')
    .all(realmId) as { id: number; email: string }[];
}
