/**
 * When users last showed signs of life, as far as we record them: joining the organization
 * and sending messages (logins are not recorded). Register leaves out the avatar_url of users
 * idle for long for clients that can do without it (user_avatar_url_field_optional).
 */
import type { Db } from './index';

/** A user's (`u`) latest activity in seconds: joining, or their newest message. */
const LAST_ACTIVE = `MAX(u.date_joined_ms / 1000,
  COALESCE((SELECT MAX(m.date_sent) FROM messages m WHERE m.sender_id = u.id), 0))`;

function byId(rows: { id: number; last_active: number }[]): Map<number, number> {
  return new Map(rows.map((row) => [row.id, row.last_active]));
}

/** Each user's latest activity in the organization, in seconds: joining or their newest message. */
export function lastActivityByUser(db: Db, realmId: number): Map<number, number> {
  return byId(
    db
      .prepare(`SELECT u.id AS id, ${LAST_ACTIVE} AS last_active FROM users u WHERE u.realm_id = ?`)
      .all(realmId) as { id: number; last_active: number }[],
  );
}

/**
 * lastActivityByUser for these users only (the ids travel as one JSON array; users of another
 * organization are left out): register keeps the organization's up to date with it.
 */
export function lastActivityOfUsers(
  db: Db,
  realmId: number,
  userIds: readonly number[],
): Map<number, number> {
  return byId(
    db
      .prepare(
        `SELECT u.id AS id, ${LAST_ACTIVE} AS last_active
         FROM users u WHERE u.id IN (SELECT value FROM json_each(?)) AND +u.realm_id = ?`,
      )
      .all(JSON.stringify(userIds), realmId) as { id: number; last_active: number }[],
  );
}
