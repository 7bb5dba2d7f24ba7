/**
 * Scheduled messages (the interface family's "send later"): what the sender wrote, where it
 * goes and when. The service sends each at its time (actions/scheduled-delivery.ts) and keeps
 * the row, marked delivered, or failed with the reason when sending was refused.
 */
export const sql = /* sql */ `
CREATE TABLE scheduled_messages (
  id INTEGER PRIMARY KEY,
  realm_id INTEGER NOT NULL REFERENCES realm(id),
  sender_id INTEGER NOT NULL REFERENCES users(id),
  type TEXT NOT NULL CHECK (type IN ('stream', 'private')),
  -- A stream message's stream.
  stream_id INTEGER REFERENCES streams(id),
  -- A direct message's recipients: JSON array of user ids, the sender left out.
  user_ids TEXT,
  topic TEXT NOT NULL DEFAULT '',
  content TEXT NOT NULL,
  rendered_content TEXT NOT NULL,
  -- UTC seconds.
  scheduled_timestamp INTEGER NOT NULL,
  -- NULL: as any message, read by its sender; 0: the sender's copy starts unread.
  read_by_sender INTEGER,
  delivered INTEGER NOT NULL DEFAULT 0,
  delivered_message_id INTEGER,
  failed INTEGER NOT NULL DEFAULT 0,
  failure_message TEXT
);
CREATE INDEX scheduled_messages_sender ON scheduled_messages(sender_id, scheduled_timestamp) WHERE delivered = 0;
CREATE INDEX scheduled_messages_due ON scheduled_messages(scheduled_timestamp) WHERE delivered = 0 AND failed = 0;
`;
