/**
 * POST /streams/{stream_id}/delete_topic: deletes a topic's messages in batches of 100,
 * newest first, each batch its own transaction, so that progress survives a timeout, and
 * yields to the event loop between batches (runBatched), so that no batch holds other
 * requests up for more than a few milliseconds.
 *
 * If the server stops between batches, the newest messages are gone with every copy of them
 * and their clients told; the older ones are all there. Repeating the request finishes it.
 */
import type { ServiceContext } from '../context';
import { deleteMessages, topicMessagesNewestFirst, userIdsWithCopies } from '../db/messages';
import { firstMessageId, type StreamRow } from '../db/streams';
import type { UserRow } from '../db/users';
import { canReadStreamHistory } from '../permissions';
import { sendDeleteMessageEvents } from './message-delete';
import { sendFirstMessageIdUpdate } from './messages';
import { runBatched } from './read';
import { runAction } from './transaction';

export const DELETE_TOPIC_BATCH_SIZE = 100;

/** Answers whether the whole topic is gone (false: the time budget ran out after progress). */
export async function deleteTopic(
  ctx: ServiceContext,
  admin: UserRow,
  stream: StreamRow,
  topic: string,
): Promise<{ complete: boolean }> {
  const db = ctx.db;
  // With protected history an administrator deletes only what they can read: their own copies.
  const batch = {
    streamId: stream.id,
    topic,
    limit: DELETE_TOPIC_BATCH_SIZE,
    onlyCopiesOf: canReadStreamHistory(db, admin, stream) ? null : admin.id,
  };
  const complete = await runBatched(ctx, () =>
    runAction(ctx, (events) => {
      const rows = topicMessagesNewestFirst(db, batch);
      const ids = rows.map((r) => r.id).sort((a, b) => a - b);
      if (ids.length === 0) return true;
      const userIds = userIdsWithCopies(db, ids);
      const firstBefore = firstMessageId(db, stream.id);
      deleteMessages(db, ids);
      const firstAfter = firstMessageId(db, stream.id);

      // The topic as stored (the request may differ in case).
      const stored = rows[0]?.topic ?? topic;
      sendDeleteMessageEvents(events, userIds, { stream_id: stream.id, topic: stored }, ids);
      // The stream's oldest message may be gone: clients hold first_message_id (as the family sends it).
      if (firstAfter !== firstBefore) sendFirstMessageIdUpdate(ctx, events, stream, firstAfter);
      return ids.length < DELETE_TOPIC_BATCH_SIZE;
    }),
  );
  return { complete };
}
