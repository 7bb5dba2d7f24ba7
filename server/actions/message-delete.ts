/**
 * DELETE /messages/{message_id}: administrators delete any message they can access; a sender
 * deletes their own within the organization's delete policy and time limit. Also the one
 * builder of `delete_message` events (bulk `message_ids` for clients with the
 * bulk_message_deletion capability, one event per message otherwise), shared by every
 * action that takes messages away from users.
 */
import type { ServiceContext } from '../context';
import { type MessageSettings, messageSettings } from '../db/message-settings';
import { deleteMessages, type MessageRow, userIdsWithCopies } from '../db/messages';
import { firstMessageId, getStream } from '../db/streams';
import type { UserRow } from '../db/users';
import { badRequest } from '../errors';
import { isAdmin } from '../permissions';
import { accessMessage } from './access';
import { policyAllows } from './message-policy';
import { sendFirstMessageIdUpdate } from './messages';
import { type EventBatch, runAction } from './transaction';

/** Where the deleted messages were: a stream's topic, or a direct conversation. */
export type DeletedFrom = { stream_id: number; topic: string } | null;

/**
 * Tells these users that the messages are gone: one event listing them for clients with
 * bulk_message_deletion, one event per message for the others.
 */
export function sendDeleteMessageEvents(
  events: EventBatch,
  userIds: readonly number[],
  from: DeletedFrom,
  messageIds: readonly number[],
): void {
  const base = from
    ? { type: 'delete_message', message_type: 'stream', stream_id: from.stream_id, topic: from.topic }
    : { type: 'delete_message', message_type: 'private' };
  const ids = [...messageIds].sort((a, b) => a - b);
  events.sendBuilt(userIds, (queue) =>
    queue.settings.capabilities.bulk_message_deletion ? { ...base, message_ids: ids } : null,
  );
  for (const id of ids) {
    events.sendBuilt(userIds, (queue) =>
      queue.settings.capabilities.bulk_message_deletion ? null : { ...base, message_id: id },
    );
  }
}

const cannotDelete = () => badRequest("You don't have permission to delete this message");

/** Whether the user may delete the message (the family's access_message_for_deletion rules). */
function checkMayDelete(user: UserRow, row: MessageRow, settings: MessageSettings, now: number): void {
  if (isAdmin(user)) return;
  if (row.sender_id !== user.id || !policyAllows(user, settings.delete_own_message_policy))
    throw cannotDelete();
  const limit = settings.message_content_delete_limit_seconds;
  if (limit !== null && now - row.date_sent > limit)
    throw badRequest('The time limit for deleting this message has passed');
}

/** Deletes one message with every copy of it; its holders get delete_message events. */
export function deleteMessage(ctx: ServiceContext, user: UserRow, messageId: number): void {
  runAction(ctx, (events) => {
    const { row } = accessMessage(ctx, user, messageId);
    checkMayDelete(user, row, messageSettings(ctx.db), Math.floor(Date.now() / 1000));
    const holders = userIdsWithCopies(ctx.db, [row.id]);
    const stream = row.stream_id === null ? undefined : getStream(ctx.db, row.stream_id);
    const firstBefore = stream ? firstMessageId(ctx.db, stream.id) : null;
    deleteMessages(ctx.db, [row.id]);
    sendDeleteMessageEvents(events, holders, stream ? { stream_id: stream.id, topic: row.topic } : null, [
      row.id,
    ]);
    if (stream) {
      const firstAfter = firstMessageId(ctx.db, stream.id);
      if (firstAfter !== firstBefore) sendFirstMessageIdUpdate(ctx, events, stream, firstAfter);
    }
  });
}
