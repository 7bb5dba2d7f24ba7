/**
 * register's state for messages: max_message_id, unread_msgs (the read state the
 * update_message_flags and message events keep current) and recent_private_conversations.
 */
import type { ServiceContext } from '../context';
import { directMessageUserIds, unreadMessages } from '../db/messages';
import { maxMessageIdForUser, type UserRow } from '../db/users';

export type MessagesStateOptions = Record<string, unknown>;

/**
 * The user's direct-message conversations, most recent first (the interface family keeps 1000).
 * Each conversation has its own recipient, so one grouped query finds them.
 */
export function recentPrivateConversations(ctx: ServiceContext, user: UserRow) {
  const rows = ctx.db
    .prepare(
      `SELECT m.recipient_id, MAX(m.id) AS max_id, MIN(m.sender_id) AS sender_id
       FROM user_messages um JOIN messages m ON m.id = um.message_id
       WHERE um.user_id = ? AND m.stream_id IS NULL
       GROUP BY m.recipient_id ORDER BY max_id DESC LIMIT 1000`,
    )
    .all(user.id) as { recipient_id: number; max_id: number; sender_id: number }[];
  return rows.map((r) => ({
    max_message_id: r.max_id,
    user_ids: directMessageUserIds(ctx.db, r).filter((id) => id !== user.id),
  }));
}

export function messagesState(
  ctx: ServiceContext,
  user: UserRow,
  want: (type: string) => boolean,
  _options: MessagesStateOptions = {},
): Record<string, unknown> {
  const state: Record<string, unknown> = {};
  if (want('message')) state.max_message_id = maxMessageIdForUser(ctx.db, user.id);
  if (want('message') && want('update_message_flags')) state.unread_msgs = unreadMessages(ctx.db, user.id);
  if (want('recent_private_conversations'))
    state.recent_private_conversations = recentPrivateConversations(ctx, user);
  return state;
}
