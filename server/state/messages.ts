/**
 * register's state for messages: max_message_id, unread_msgs (the read state the
 * update_message_flags and message events keep current) and recent_private_conversations.
 */
import type { ServiceContext } from '../context';
import { directMessageUserIds, unreadMessages } from '../db/messages';
import { maxMessageIdForUser, type UserRow } from '../db/users';

export type MessagesStateOptions = Record<string, unknown>;

/** The user's direct-message conversations, most recent first (the interface family keeps 1000). */
export function recentPrivateConversations(ctx: ServiceContext, user: UserRow) {
  const rows = ctx.db
    .prepare(
      `SELECT m.id, m.recipient_id, m.sender_id
       FROM user_messages um JOIN messages m ON m.id = um.message_id
       WHERE um.user_id = ? AND m.stream_id IS NULL ORDER BY m.id DESC`,
    )
    .all(user.id) as { id: number; recipient_id: number; sender_id: number }[];
  return rows
    .map((r) => ({
      max_message_id: r.id,
      user_ids: directMessageUserIds(ctx.db, r).filter((id) => id !== user.id),
    }))
    .reduce<{ max_message_id: number; user_ids: number[] }[]>((list, conv) => {
      // Newest first: the first message of each conversation is its newest.
      const key = conv.user_ids.join(',');
      const same = list.find((c) => c.user_ids.join(',') === key);
      if (!same && list.length < 1000) list.push(conv);
      return list;
    }, []);
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
