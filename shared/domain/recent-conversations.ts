/**
 * The recent private conversations substore (register's `recent_private_conversations`): each
 * direct-message conversation with the other participants' ids (sorted; none for a
 * conversation with oneself) and its newest message id, newest conversation first. A new
 * private message moves its conversation to the front, as the interface family's clients do;
 * deleting messages does not move it back (a fresh register may then say otherwise).
 */
import type { EventOf } from '../protocol';
import { sortedUnique } from './records';

export interface RecentPrivateConversation {
  max_message_id: number;
  user_ids: readonly number[];
}

export type RecentPrivateConversationsState = readonly RecentPrivateConversation[];

const sameUsers = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((id, i) => b[i] === id);

export function recentConversationsFromSnapshot(raw: unknown): RecentPrivateConversationsState {
  if (!Array.isArray(raw)) return [];
  const out: RecentPrivateConversation[] = [];
  for (const item of raw) {
    if (typeof item !== 'object' || item === null) continue;
    const { max_message_id: max, user_ids: ids } = item as Record<string, unknown>;
    if (!Number.isInteger(max) || !Array.isArray(ids) || !ids.every(Number.isInteger)) continue;
    out.push({ max_message_id: max as number, user_ids: sortedUnique(ids as number[]) });
  }
  return out.sort((a, b) => b.max_message_id - a.max_message_id);
}

/** The other participants of a private message, from its display_recipient. */
function otherParticipants(displayRecipient: unknown, selfId: number | null): number[] {
  if (!Array.isArray(displayRecipient)) return [];
  const ids = displayRecipient
    .map((r: unknown) => (typeof r === 'object' && r !== null ? (r as { id?: unknown }).id : undefined))
    .filter((id): id is number => typeof id === 'number' && id !== selfId);
  return sortedUnique(ids);
}

export function handleMessageEventInRecentConversations(
  state: RecentPrivateConversationsState,
  event: EventOf<'message'>,
  selfId: number | null,
): RecentPrivateConversationsState {
  const { message } = event;
  if (message.type !== 'private') return state;
  const userIds = otherParticipants(message.display_recipient, selfId);
  const index = state.findIndex((c) => sameUsers(c.user_ids, userIds));
  const existing = index === -1 ? undefined : state[index];
  if (existing && existing.max_message_id >= message.id) return state;
  const rest = index === -1 ? state : [...state.slice(0, index), ...state.slice(index + 1)];
  const entry: RecentPrivateConversation = {
    max_message_id: message.id,
    user_ids: existing?.user_ids ?? userIds,
  };
  // Newest first: almost always the front, but a late event must not jump an older queue.
  const at = rest.findIndex((c) => c.max_message_id < message.id);
  return at === -1 ? [...rest, entry] : [...rest.slice(0, at), entry, ...rest.slice(at)];
}
