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
 * The users whose presence others may be shown: active humans, and of them only those with a
 * stored presence (the store, server/presence.ts, writes every record through to user_presence
 * before it keeps it, so no other user has one to show). One who turned presence_enabled off
 * shows the old idle report the change left (server/presence.ts, hiddenRecord), as in the
 * family: offline, not absent. Read from user_presence first: register asks at every call,
 * and a large organization has many more users than users who ever reported presence.
 */
export function presenceUsers(db: Db, realmId: number): { id: number; email: string }[] {
  return db
    .prepare(
      // CROSS JOIN keeps user_presence the outer loop: without statistics, SQLite would walk
      // every user of the organization and look each one up in user_presence.
      `SELECT u.id, u.email FROM user_presence p CROSS JOIN users u ON u.id = p.user_id
       WHERE p.realm_id = ? AND u.realm_id = ? AND u.is_active = 1 AND u.is_bot = 0 ORDER BY p.user_id`,
    )
    .all(realmId, realmId) as { id: number; email: string }[];
}
