/**
 * The inbox's groups, derived from the account state: unread stream messages by stream (pinned
 * streams first, then by name) and topic (newest first), and the private conversations. As in
 * the family's inbox, muted topics (and the inherited topics of muted streams) are left out;
 * a muted stream still shows its unmuted or followed topics, dimmed. Streams the user is not
 * subscribed to are left out, as the counts do.
 */
import {
  type AccountState,
  type Narrow,
  privateKey,
  streamTopicPolicies,
  VISIBILITY_POLICY,
} from '../../../../shared/domain';

export interface InboxTopic {
  topic: string;
  count: number;
  /** Unread ids, ascending (the unread state's own list: never changed). */
  messageIds: readonly number[];
  followed: boolean;
  mentioned: boolean;
}

export interface InboxStream {
  streamId: number;
  name: string;
  color: string | undefined;
  inviteOnly: boolean;
  muted: boolean;
  pinned: boolean;
  count: number;
  topics: InboxTopic[];
}

export interface InboxConversation {
  /** `pm:<id>` or `huddle:<ids>`: stable across updates. */
  key: string;
  /** The other people (ourselves for a conversation with ourselves). */
  userIds: number[];
  names: string[];
  count: number;
  /** Unread ids, ascending (the unread state's own list: never changed). */
  messageIds: readonly number[];
  mentioned: boolean;
}

export interface InboxModel {
  streams: InboxStream[];
  conversations: InboxConversation[];
  total: number;
}

/** The parts of the account state the inbox reads (each a stable slice of the store). */
export type InboxInputs = Pick<AccountState, 'userId' | 'users' | 'subscriptions' | 'userTopics' | 'unreads'>;

/** Stream names in the user's language's order (a collator is much faster than localeCompare). */
const byName = new Intl.Collator().compare;

/**
 * From the unread state's per-conversation index: the cost follows the conversations with
 * unreads (and the mentions), not the unread messages, and the id lists are the state's own.
 */
export function inboxModel(state: InboxInputs): InboxModel {
  const subscribed = state.subscriptions.subscribed;
  const { unreads } = state;
  // The conversations that hold an unread mention, by stream and topic or by privateKey.
  const mentionedTopics = new Set<string>();
  const mentionedPrivates = new Set<string>();
  for (const id of unreads.mentions) {
    const where = unreads.messages.get(id);
    if (where?.kind === 'stream') mentionedTopics.add(`${where.streamId}\u0000${where.topic}`);
    else if (where) mentionedPrivates.add(privateKey(where));
  }

  const newest = (ids: readonly number[]) => ids[ids.length - 1] ?? 0;
  const streamList: InboxStream[] = [];
  for (const [streamId, stream] of unreads.streams) {
    const sub = subscribed[streamId];
    if (!sub) continue;
    const policies = streamTopicPolicies(state.userTopics, streamId);
    const list: InboxTopic[] = [];
    for (const [topic, { ids }] of stream.topics) {
      // The spec's muting rule (selectors.ts isTopicMuted), the policy looked up once.
      const policy = policies?.get(topic.toLowerCase()) ?? VISIBILITY_POLICY.inherit;
      const followed = policy === VISIBILITY_POLICY.followed;
      const muted =
        policy === VISIBILITY_POLICY.muted ||
        (policy !== VISIBILITY_POLICY.unmuted && !followed && sub.is_muted === true);
      if (muted) continue;
      list.push({
        topic,
        count: ids.length,
        messageIds: ids,
        followed,
        mentioned: mentionedTopics.has(`${streamId}\u0000${topic}`),
      });
    }
    if (list.length === 0) continue;
    list.sort((a, b) => newest(b.messageIds) - newest(a.messageIds));
    streamList.push({
      streamId,
      name: sub.name ?? `Stream ${streamId}`,
      color: sub.color,
      inviteOnly: sub.invite_only === true,
      muted: sub.is_muted === true,
      pinned: sub.pin_to_top === true,
      count: list.reduce((n, t) => n + t.count, 0),
      topics: list,
    });
  }
  streamList.sort(
    (a, b) =>
      Number(b.pinned) - Number(a.pinned) || Number(a.muted) - Number(b.muted) || byName(a.name, b.name),
  );

  const nameOf = (userId: number) => {
    const user = state.users.active[userId] ?? state.users.nonActive[userId];
    return user?.full_name ?? `User ${userId}`;
  };
  const conversationList: InboxConversation[] = [];
  for (const [key, { location, ids }] of unreads.privates) {
    const userIds =
      location.kind === 'pm'
        ? [location.userId]
        : location.userIds
            .split(',')
            .map(Number)
            .filter((u) => u !== state.userId);
    conversationList.push({
      key,
      userIds,
      names: userIds.map(nameOf),
      count: ids.length,
      messageIds: ids,
      mentioned: mentionedPrivates.has(key),
    });
  }
  conversationList.sort((a, b) => newest(b.messageIds) - newest(a.messageIds));

  const total =
    streamList.reduce((n, s) => n + s.count, 0) + conversationList.reduce((n, c) => n + c.count, 0);
  return { streams: streamList, conversations: conversationList, total };
}

/** The next stream topic with unreads after (streamId, topic), wrapping; the first when none is given. */
export function nextUnreadTopic(
  model: InboxModel,
  current?: { streamId: number; topic?: string },
): { streamId: number; topic: string } | null {
  const all = model.streams.flatMap((s) => s.topics.map((t) => ({ streamId: s.streamId, topic: t.topic })));
  if (all.length === 0) return null;
  if (!current) return all[0] ?? null;
  const index = all.findIndex(
    (t) => t.streamId === current.streamId && (current.topic === undefined || t.topic === current.topic),
  );
  if (index === -1) return all[0] ?? null;
  if (current.topic === undefined) {
    // In a stream: the first topic of the next stream with unreads.
    const next = all.find((t, i) => i > index && t.streamId !== current.streamId);
    return next ?? all.find((t) => t.streamId !== current.streamId) ?? null;
  }
  return all[(index + 1) % all.length] ?? null;
}

/** The private conversation's narrow (its other people; oneself for a conversation with oneself). */
export function conversationNarrow(conversation: Pick<InboxConversation, 'userIds'>): Narrow {
  return { kind: 'dm', userIds: [...conversation.userIds].sort((a, b) => a - b) };
}
