/** The interface family's ScheduledMessage object, for GET /scheduled_messages, register and events. */
import type { ScheduledMessageRow } from '../db/scheduled-messages';

export function formatScheduledMessage(row: ScheduledMessageRow): Record<string, unknown> {
  const stream = row.type === 'stream';
  return {
    scheduled_message_id: row.id,
    type: row.type,
    to: stream ? row.stream_id : (JSON.parse(row.user_ids ?? '[]') as number[]),
    ...(stream ? { topic: row.topic } : {}),
    content: row.content,
    rendered_content: row.rendered_content,
    scheduled_delivery_timestamp: row.scheduled_timestamp,
    failed: row.failed === 1,
  };
}
