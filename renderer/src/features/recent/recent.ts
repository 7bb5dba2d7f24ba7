/**
 * Recent conversations, the model: the recent messages grouped by conversation (a stream's
 * topic, or a private conversation by its other people), kept live by the account's events
 * (new messages, topic and stream moves, deletions), and turned into the table's rows with
 * their unread counts, newest activity first, filtered as the person asks.
 *
 * The state keeps one small entry per message (not the message): a move or a delete names
 * message ids, and only the entries say which conversation each id was in.
 */
import {
  type AccountState,
  type RecentPrivateConversation,
  type StreamUnreads,
  topicPolicy,
  VISIBILITY_POLICY,
} from '../../../../shared/domain';
import { dmPeersOf, dmUserIds, type Narrow, narrowKey } from '../../../../shared/domain/narrow';
import type { ServerEvent } from '../../../../shared/protocol';

/** The fields of a message (or a `message` event's message) the model reads. */
export interface RecentMessageInput {
  id: number;
  type: 'stream' | 'private';
  stream_id?: number | undefined;
  subject: string;
  sender_id: number;
  display_recipient?: unknown;
  /** Unix seconds. */
  timestamp?: unknown;
}

/** One message, as far as the model cares. */
interface Entry {
  id: number;
  /** The conversation: a topic or a dm narrow. */
  narrow: Extract<Narrow, { kind: 'topic' } | { kind: 'dm' }>;
  /** The stream's name as the message said it (for streams the user is not subscribed to). */
  streamName?: string;
  senderId: number;
  /** Unix seconds (0: unknown). */
  timestamp: number;
}

export interface RecentState {
  readonly entries: Readonly<Record<number, Entry>>;
}

export const emptyRecent = (): RecentState => ({ entries: {} });

function entryOf(message: RecentMessageInput, ownUserId: number): Entry | null {
  const timestamp = typeof message.timestamp === 'number' ? message.timestamp : 0;
  if (message.type === 'stream') {
    if (typeof message.stream_id !== 'number') return null;
    const streamName = typeof message.display_recipient === 'string' ? message.display_recipient : undefined;
    return {
      id: message.id,
      narrow: { kind: 'topic', streamId: message.stream_id, topic: message.subject },
      ...(streamName === undefined ? {} : { streamName }),
      senderId: message.sender_id,
      timestamp,
    };
  }
  return {
    id: message.id,
    narrow: { kind: 'dm', userIds: dmPeersOf(message, ownUserId) },
    senderId: message.sender_id,
    timestamp,
  };
}

/** Adds messages (a fetched page, or live ones); a message already known is kept as it is. */
export function addMessages(
  state: RecentState,
  messages: readonly RecentMessageInput[],
  ownUserId: number,
): RecentState {
  let entries: Record<number, Entry> | null = null;
  for (const message of messages) {
    if (state.entries[message.id]) continue;
    const entry = entryOf(message, ownUserId);
    if (!entry) continue;
    entries ??= { ...state.entries };
    entries[message.id] = entry;
  }
  return entries ? { entries } : state;
}

/**
 * Applies a batch of the account's events: `message` adds, `update_message` with a new topic
 * or stream moves the named messages, `delete_message` removes them. The same state when
 * nothing changed.
 */
export function applyRecentEvents(
  state: RecentState,
  events: readonly ServerEvent[],
  ownUserId: number,
): RecentState {
  let next = state;
  for (const event of events) {
    if (event.type === 'message') {
      const message = event.message as RecentMessageInput;
      next = addMessages(next, [message], ownUserId);
    } else if (event.type === 'delete_message') {
      const ids = event.message_ids ?? (event.message_id === undefined ? [] : [event.message_id]);
      next = removeIds(next, ids);
    } else if (event.type === 'update_message') {
      const moved = event.new_stream_id !== undefined || event.subject !== undefined;
      if (!moved) continue;
      const ids = event.message_ids ?? (event.message_id === undefined ? [] : [event.message_id]);
      next = moveIds(next, ids, event.new_stream_id, event.subject);
    }
  }
  return next;
}

function removeIds(state: RecentState, ids: readonly number[]): RecentState {
  if (!ids.some((id) => state.entries[id])) return state;
  const entries = { ...state.entries };
  for (const id of ids) delete entries[id];
  return { entries };
}

function moveIds(
  state: RecentState,
  ids: readonly number[],
  newStreamId: number | undefined,
  newTopic: string | undefined,
): RecentState {
  let entries: Record<number, Entry> | null = null;
  for (const id of ids) {
    const entry = state.entries[id];
    if (entry?.narrow.kind !== 'topic') continue;
    const streamId = newStreamId ?? entry.narrow.streamId;
    const topic = newTopic ?? entry.narrow.topic;
    entries ??= { ...state.entries };
    const { streamName: _old, ...rest } = entry;
    // A message moved to another stream no longer knows that stream's name: the subscription says it.
    entries[id] = {
      ...(streamId === entry.narrow.streamId ? entry : rest),
      narrow: { kind: 'topic', streamId, topic },
    };
  }
  return entries ? { entries } : state;
}

/** One conversation of the table, before the account state (names, unreads) is added. */
export interface RecentGroup {
  key: string;
  narrow: Extract<Narrow, { kind: 'topic' } | { kind: 'dm' }>;
  streamName?: string;
  maxId: number;
  /** Unix seconds of the newest message (null: only known from the recent private conversations). */
  timestamp: number | null;
  /** The people who wrote in it, newest first, each once. */
  senders: number[];
}

/**
 * The conversations, newest activity first. A topic is one conversation whatever the case of
 * its name (shown as its newest message writes it). `privateConversations`: the account's
 * recent private conversations; those without a recent message are added from there.
 */
export function groupConversations(
  state: RecentState,
  privateConversations: readonly RecentPrivateConversation[] = [],
  ownUserId = 0,
): RecentGroup[] {
  const groups = new Map<string, RecentGroup>();
  const newestFirst = Object.values(state.entries).sort((a, b) => b.id - a.id);
  for (const entry of newestFirst) {
    const key = narrowKey(entry.narrow);
    const group = groups.get(key);
    if (!group) {
      groups.set(key, {
        key,
        narrow: entry.narrow,
        ...(entry.streamName === undefined ? {} : { streamName: entry.streamName }),
        maxId: entry.id,
        timestamp: entry.timestamp || null,
        senders: [entry.senderId],
      });
    } else {
      if (!group.senders.includes(entry.senderId)) group.senders.push(entry.senderId);
      if (group.streamName === undefined && entry.streamName !== undefined)
        group.streamName = entry.streamName;
    }
  }
  for (const pc of privateConversations) {
    const userIds = pc.user_ids.length === 0 ? [ownUserId] : dmUserIds(pc.user_ids);
    const narrow = { kind: 'dm', userIds } as const;
    const key = narrowKey(narrow);
    const known = groups.get(key);
    if (known) {
      known.maxId = Math.max(known.maxId, pc.max_message_id);
      continue;
    }
    groups.set(key, { key, narrow, maxId: pc.max_message_id, timestamp: null, senders: [] });
  }
  return [...groups.values()].sort((a, b) => b.maxId - a.maxId);
}

/** A row of the table. */
export interface RecentRow extends RecentGroup {
  kind: 'stream' | 'private';
  streamId?: number;
  /** The stream's name ('' unknown) for a topic. */
  stream: string;
  topic: string;
  color?: string | undefined;
  inviteOnly: boolean;
  /** The other people of a private conversation (oneself for a conversation with oneself). */
  userIds: number[];
  /** Their names, sorted, joined ("Alice Smith, Bob"); the topic's "#stream > topic" for a stream. */
  label: string;
  unread: number;
  /** The stream or the topic is muted (per the topic's policy). */
  muted: boolean;
}

export type RecentInputs = Pick<
  AccountState,
  'userId' | 'users' | 'subscriptions' | 'userTopics' | 'unreads'
>;

/** Per stream's unreads object (a batch replaces only those it touches): its topics' keys and counts. */
const streamTopicCounts = new WeakMap<StreamUnreads, readonly (readonly [string, number])[]>();

function topicCountsOf(streamId: number, stream: StreamUnreads): readonly (readonly [string, number])[] {
  let counts = streamTopicCounts.get(stream);
  if (!counts) {
    // Topics that differ only in case are one conversation (narrowKey lowercases): counted twice, summed.
    counts = [...stream.topics].map(
      ([topic, { ids }]) => [narrowKey({ kind: 'topic', streamId, topic }), ids.length] as const,
    );
    streamTopicCounts.set(stream, counts);
  }
  return counts;
}

/**
 * Unread counts per conversation key (the keys of narrowKey), from the unread state's
 * per-conversation index: one step per conversation with unreads, none per message.
 */
export function unreadByConversation(state: Pick<AccountState, 'userId' | 'unreads'>): Map<string, number> {
  const counts = new Map<string, number>();
  const self = state.userId ?? 0;
  const add = (key: string, count: number) => counts.set(key, (counts.get(key) ?? 0) + count);
  for (const [streamId, stream] of state.unreads.streams) {
    for (const [key, count] of topicCountsOf(streamId, stream)) add(key, count);
  }
  for (const { location: where, ids } of state.unreads.privates.values()) {
    if (where.kind === 'pm') {
      add(narrowKey({ kind: 'dm', userIds: [where.userId] }), ids.length);
      continue;
    }
    const others = where.userIds
      .split(',')
      .map(Number)
      .filter((id) => id !== self);
    add(narrowKey({ kind: 'dm', userIds: others.length === 0 ? [self] : others }), ids.length);
  }
  return counts;
}

/** The rows for the groups, with names, colors, unread counts and muting from the account state. */
export function recentRows(groups: readonly RecentGroup[], state: RecentInputs): RecentRow[] {
  const unread = unreadByConversation(state);
  const nameOf = (id: number) =>
    (state.users.active[id] ?? state.users.nonActive[id])?.full_name ?? `User ${id}`;
  return groups.map((g) => {
    if (g.narrow.kind === 'topic') {
      const { streamId, topic } = g.narrow;
      const sub = state.subscriptions.subscribed[streamId];
      const stream = sub?.name ?? g.streamName ?? '';
      const policy = topicPolicy(state.userTopics, streamId, topic);
      const muted =
        policy === VISIBILITY_POLICY.muted ||
        (policy !== VISIBILITY_POLICY.unmuted &&
          policy !== VISIBILITY_POLICY.followed &&
          sub?.is_muted === true);
      return {
        ...g,
        kind: 'stream',
        streamId,
        stream,
        topic,
        color: sub?.color,
        inviteOnly: sub?.invite_only === true,
        userIds: [],
        label: `#${stream || `stream ${streamId}`} > ${topic || '(no topic)'}`,
        unread: unread.get(g.key) ?? 0,
        muted,
      };
    }
    const names = g.narrow.userIds.map(nameOf).sort((a, b) => a.localeCompare(b));
    return {
      ...g,
      kind: 'private',
      stream: '',
      topic: '',
      inviteOnly: false,
      userIds: g.narrow.userIds,
      label: names.join(', '),
      unread: unread.get(g.key) ?? 0,
      muted: false,
    };
  });
}

export type RecentKind = 'all' | 'streams' | 'private';

export interface RecentFilter {
  text: string;
  unreadOnly: boolean;
  includeMuted: boolean;
  kind: RecentKind;
}

export const DEFAULT_FILTER: RecentFilter = { text: '', unreadOnly: false, includeMuted: false, kind: 'all' };

/**
 * The rows the filter lets through, in their order: every word of the text must appear in the
 * stream's name, the topic or the people's names (without regard to case); muted conversations
 * only with `includeMuted`.
 */
export function filterRows(rows: readonly RecentRow[], filter: RecentFilter): RecentRow[] {
  const words = filter.text.trim().toLowerCase().split(/\s+/u).filter(Boolean);
  return rows.filter((row) => {
    if (filter.kind === 'streams' && row.kind !== 'stream') return false;
    if (filter.kind === 'private' && row.kind !== 'private') return false;
    if (filter.unreadOnly && row.unread === 0) return false;
    if (!filter.includeMuted && row.muted) return false;
    if (words.length === 0) return true;
    const haystack = `${row.stream} ${row.topic} ${row.label}`.toLowerCase();
    return words.every((w) => haystack.includes(w));
  });
}
