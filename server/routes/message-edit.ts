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
import { actionRoute, fieldRoute } from './shapes';

export const messageEditEndpoints = [
  actionRoute('PATCH /messages/{message_id}', ({ ctx, user, params }) =>
    updateMessage(ctx, user, params.message_id, {
      content: params.content,
      topic: params.topic,
      streamId: params.stream_id,
      propagateMode: params.propagate_mode ?? 'change_one',
      notifyOldThread: params.send_notification_to_old_thread ?? true,
      notifyNewThread: params.send_notification_to_new_thread ?? true,
    }),
  ),
  fieldRoute('GET /messages/{message_id}/history', 'message_history', ({ ctx, user, params }) =>
    messageHistory(ctx, user, params.message_id),
  ),
  fieldRoute('GET /messages/{message_id}/read_receipts', 'user_ids', ({ ctx, user, params }) =>
    readReceipts(ctx, user, params.message_id),
  ),
  fieldRoute('POST /messages/render', 'rendered', ({ ctx, params }) => renderPreview(ctx, params.content)),
  fieldRoute('GET /messages/matches_narrow', 'messages', ({ ctx, user, params }) =>
    matchesNarrow(ctx, user, params.msg_ids, params.narrow),
  ),
  actionRoute('DELETE /messages/{message_id}', ({ ctx, user, params }) =>
    deleteMessage(ctx, user, params.message_id),
  ),
];
