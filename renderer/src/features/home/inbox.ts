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
  topicPolicy,
  type UnreadLocation,
  VISIBILITY_POLICY,
} from '../../../../shared/domain';

export interface InboxTopic {
  topic: string;
  count: number;
  /** Unread ids, ascending. */
  messageIds: number[];
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
  messageIds: number[];
  mentioned: boolean;
}

export interface InboxModel {
  streams: InboxStream[];
  conversations: InboxConversation[];
  total: number;
}

/** The parts of the account state the inbox reads (each a stable slice of the store). */
export type InboxInputs = Pick<AccountState, 'userId' | 'users' | 'subscriptions' | 'userTopics' | 'unreads'>;

/** The spec's muting rule (selectors.ts isTopicMuted), over the inbox's inputs. */
function isMuted(state: InboxInputs, streamId: number, topic: string): boolean {
  const policy = topicPolicy(state.userTopics, streamId, topic);
  if (policy === VISIBILITY_POLICY.muted) return true;
  if (policy === VISIBILITY_POLICY.unmuted || policy === VISIBILITY_POLICY.followed) return false;
  return state.subscriptions.subscribed[streamId]?.is_muted === true;
}

export function inboxModel(state: InboxInputs): InboxModel {
  const subscribed = state.subscriptions.subscribed;
  const mentions = new Set(state.unreads.mentions);
  const streams = new Map<number, Map<string, InboxTopic>>();
  const conversations = new Map<string, { userIds: number[]; ids: number[]; mentioned: boolean }>();

  const entries = Object.entries(state.unreads.messages) as [string, UnreadLocation][];
  for (const [rawId, where] of entries) {
    const id = Number(rawId);
    if (where.kind === 'stream') {
      if (!subscribed[where.streamId] || isMuted(state, where.streamId, where.topic)) continue;
      let topics = streams.get(where.streamId);
      if (!topics) {
        topics = new Map();
        streams.set(where.streamId, topics);
      }
      let topic = topics.get(where.topic);
      if (!topic) {
        topic = {
          topic: where.topic,
          count: 0,
          messageIds: [],
          followed: topicPolicy(state.userTopics, where.streamId, where.topic) === VISIBILITY_POLICY.followed,
          mentioned: false,
        };
        topics.set(where.topic, topic);
      }
      topic.count += 1;
      topic.messageIds.push(id);
      if (mentions.has(id)) topic.mentioned = true;
    } else {
      const userIds =
        where.kind === 'pm'
          ? [where.userId]
          : where.userIds
              .split(',')
              .map(Number)
              .filter((u) => u !== state.userId);
      const key = where.kind === 'pm' ? `pm:${where.userId}` : `huddle:${where.userIds}`;
      let conversation = conversations.get(key);
      if (!conversation) {
        conversation = { userIds, ids: [], mentioned: false };
        conversations.set(key, conversation);
      }
      conversation.ids.push(id);
      if (mentions.has(id)) conversation.mentioned = true;
    }
  }

  const newest = (ids: number[]) => ids[ids.length - 1] ?? 0;
  const streamList: InboxStream[] = [...streams.entries()].map(([streamId, topics]) => {
    const sub = subscribed[streamId];
    const list = [...topics.values()];
    for (const t of list) t.messageIds.sort((a, b) => a - b);
    list.sort((a, b) => newest(b.messageIds) - newest(a.messageIds));
    return {
      streamId,
      name: sub?.name ?? `Stream ${streamId}`,
      color: sub?.color,
      inviteOnly: sub?.invite_only === true,
      muted: sub?.is_muted === true,
      pinned: sub?.pin_to_top === true,
      count: list.reduce((n, t) => n + t.count, 0),
      topics: list,
    };
  });
  streamList.sort(
    (a, b) =>
      Number(b.pinned) - Number(a.pinned) ||
      Number(a.muted) - Number(b.muted) ||
      a.name.localeCompare(b.name),
  );

  const nameOf = (userId: number) => {
    const user = state.users.active[userId] ?? state.users.nonActive[userId];
    return user?.full_name ?? `User ${userId}`;
  };
  const conversationList: InboxConversation[] = [...conversations.entries()].map(([key, c]) => {
    const ids = [...c.ids].sort((a, b) => a - b);
    return {
      key,
      userIds: c.userIds,
      names: c.userIds.map(nameOf),
      count: ids.length,
      messageIds: ids,
      mentioned: c.mentioned,
    };
  });
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
