/**
 * Beyond sending and fetching: editing and moving a message (PATCH /messages/{message_id}),
 * its edit history (GET /messages/{message_id}/history) and deleting it (DELETE); previews
 * (POST /messages/render), narrow checks (GET /messages/matches_narrow) and read receipts.
 */
import { deleteMessage } from '../actions/message-delete';
import { updateMessage } from '../actions/message-edit';
import { messageHistory } from '../actions/message-history';
import { matchesNarrow, renderPreview } from '../actions/message-preview';
import { readReceipts } from '../actions/read-receipts';
import { route } from '../http';

export const messageEditEndpoints = [
  route({
    endpoint: 'PATCH /messages/{message_id}',
    handle({ ctx, user, params }) {
      updateMessage(ctx, user, params.message_id, {
        content: params.content,
        topic: params.topic,
        streamId: params.stream_id,
        propagateMode: params.propagate_mode ?? 'change_one',
        notifyOldThread: params.send_notification_to_old_thread ?? true,
        notifyNewThread: params.send_notification_to_new_thread ?? true,
      });
      return undefined;
    },
  }),
  route({
    endpoint: 'GET /messages/{message_id}/history',
    handle({ ctx, user, params }) {
      return { message_history: messageHistory(ctx, user, params.message_id) };
    },
  }),
  route({
    endpoint: 'GET /messages/{message_id}/read_receipts',
    handle({ ctx, user, params }) {
      return { user_ids: readReceipts(ctx, user, params.message_id) };
    },
  }),
  route({
    endpoint: 'POST /messages/render',
    handle({ ctx, params }) {
      return { rendered: renderPreview(ctx, params.content) };
    },
  }),
  route({
    endpoint: 'GET /messages/matches_narrow',
    handle({ ctx, user, params }) {
      return { messages: matchesNarrow(ctx, user, params.msg_ids, params.narrow) };
    },
  }),
  route({
    endpoint: 'DELETE /messages/{message_id}',
    handle({ ctx, user, params }) {
      deleteMessage(ctx, user, params.message_id);
      return undefined;
    },
  }),
];
