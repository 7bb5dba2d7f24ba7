/**
 * When users last showed signs of life, as far as we record them: joining the organization
 * and sending messages (logins are not recorded). Register leaves out the avatar_url of users
 * idle for long for clients that can do without it (user_avatar_url_field_optional).
 */
import type { Db } from './index';

/** Each user's latest activity in the organization, in seconds: joining or their newest message. */
export function lastActivityByUser(db: Db, realmId: number): Map<number, number> {
  const rows = db
    .prepare(
      `SELECT u.id AS id,
              MAX(u.date_joined_ms / 1000,
                  COALESCE((SELECT MAX(m.date_sent) FROM messages m WHERE m.sender_id = u.id), 0)) AS last_active
       FROM users u WHERE u.realm_id = ?`,
    )
    .all(realmId) as { id: number; last_active: number }[];
  return new Map(rows.map((row) => [row.id, row.last_active]));
}
