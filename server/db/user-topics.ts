/** Topics of a stream (GET /users/me/{stream_id}/topics) and each user's topic visibility policies. */
import type { Db } from './index';

export interface TopicSummary {
  name: string;
  max_id: number;
}

/**
 * The stream's topics, newest first, each under the spelling of its newest message (topics
 * differing only in case are one): every message's, or with `viaCopiesOf` only those the
 * user holds a copy of (protected history).
 */
export function streamTopics(db: Db, streamId: number, viaCopiesOf: number | null): TopicSummary[] {
  const copies =
    viaCopiesOf === null ? '' : 'JOIN user_messages um ON um.message_id = m.id AND um.user_id = ?';
  const params = viaCopiesOf === null ? [streamId] : [viaCopiesOf, streamId];
  // SQLite takes the bare column (topic) from the row that gives MAX(id).
  return db
    .prepare(
      `SELECT m.topic AS name, MAX(m.id) AS max_id FROM messages m ${copies}
       WHERE m.stream_id = ? GROUP BY m.topic COLLATE NOCASE ORDER BY max_id DESC`,
    )
    .all(...params) as TopicSummary[];
}

export function userTopicPolicy(db: Db, userId: number, streamId: number, topic: string): number {
  const row = db
    .prepare(
      'SELECT visibility_policy FROM user_topics WHERE user_id = ? AND stream_id = ? AND topic_name = ?',
    )
    .get(userId, streamId, topic) as { visibility_policy: number } | undefined;
  return row?.visibility_policy ?? 0;
}

/** Sets a policy (0, inherit, removes the row); the topic's spelling is the newest given. */
export function setUserTopicPolicy(
  db: Db,
  t: { userId: number; streamId: number; topic: string; policy: number; now: number },
): void {
  if (t.policy === 0) {
    db.prepare('DELETE FROM user_topics WHERE user_id = ? AND stream_id = ? AND topic_name = ?').run(
      t.userId,
      t.streamId,
      t.topic,
    );
    return;
  }
  db.prepare(
    `INSERT INTO user_topics (user_id, stream_id, topic_name, visibility_policy, last_updated)
     VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (user_id, stream_id, topic_name) DO UPDATE SET topic_name = excluded.topic_name,
       visibility_policy = excluded.visibility_policy, last_updated = excluded.last_updated`,
  ).run(t.userId, t.streamId, t.topic, t.policy, t.now);
}
