/**
 * register's state for messages: max_message_id, unread_msgs (the read state the
 * update_message_flags and message events keep current), recent_private_conversations,
 * starred_messages and scheduled_messages.
 */
import type { Db } from '../../db';
import { starredMessageIds } from '../../db/flags';
import { directMessageUserIds, recentDirectConversations, unreadMessages } from '../../db/messages';
import { pendingScheduledMessages } from '../../db/scheduled-messages';
import { maxMessageIdForUser, type UserRow } from '../../db/users';
import { formatScheduledMessage } from '../../formats/scheduled-messages';
import type { AreaRequest, State } from './index';

/** The interface family keeps this many recent direct-message conversations. */
const MAX_RECENT_CONVERSATIONS = 1000;

/** The user's direct-message conversations, most recent first, with the other users' ids. */
function recentPrivateConversations(db: Db, user: UserRow) {
  return recentDirectConversations(db, user.id, MAX_RECENT_CONVERSATIONS).map((r) => ({
    max_message_id: r.max_id,
    user_ids: directMessageUserIds(db, r).filter((id) => id !== user.id),
  }));
}

export function messagesState({ ctx, user, want }: AreaRequest): State {
  const state: State = {};
  if (want('message')) state.max_message_id = maxMessageIdForUser(ctx.db, user.id);
  if (want('message') && want('update_message_flags')) state.unread_msgs = unreadMessages(ctx.db, user.id);
  if (want('starred_messages')) state.starred_messages = starredMessageIds(ctx.db, user.id);
  if (want('scheduled_messages'))
    state.scheduled_messages = pendingScheduledMessages(ctx.db, user.id).map(formatScheduledMessage);
  if (want('recent_private_conversations'))
    state.recent_private_conversations = recentPrivateConversations(ctx.db, user);
  return state;
}
