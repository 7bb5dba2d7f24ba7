/**
 * The unread messages substore. The register's `unread_msgs` groups ids by conversation; we
 * keep one entry per unread message (where it lives) so every event is a simple insert or
 * delete and the grouping is derived (selectors.ts).
 */
import type { EventOf } from '../protocol';
import { sortedUnique } from './records';

export type UnreadLocation =
  | { kind: 'stream'; streamId: number; topic: string }
  | { kind: 'pm'; userId: number }
  /** A group private conversation: every participant's id, ours included, sorted, comma-joined. */
  | { kind: 'huddle'; userIds: string };

export interface UnreadState {
  messages: Readonly<Record<number, UnreadLocation>>;
  /** Unread messages that mention the user (sorted). */
  mentions: readonly number[];
}

interface RawUnreads {
  pms?: readonly { other_user_id?: number; sender_id?: number; unread_message_ids: readonly number[] }[];
  streams?: readonly { stream_id: number; topic: string; unread_message_ids: readonly number[] }[];
  huddles?: readonly { user_ids_string: string; unread_message_ids: readonly number[] }[];
  mentions?: readonly number[];
}

/** The groups of one unread_msgs list that have the shape `valid` checks; others are skipped. */
function groups<T extends { unread_message_ids: readonly number[] }>(
  list: unknown,
  valid: (group: Record<string, unknown>) => boolean,
): T[] {
  if (!Array.isArray(list)) return [];
  return list.filter(
    (g): g is T =>
      typeof g === 'object' &&
      g !== null &&
      Array.isArray(g.unread_message_ids) &&
      g.unread_message_ids.every(Number.isInteger) &&
      valid(g),
  );
}

/**
 * From the register's unread_msgs. Missing, or parts of another shape (an older or foreign
 * server): those parts count no unreads, rather than failing the whole snapshot.
 */
export function unreadsFromSnapshot(raw: unknown): UnreadState {
  const u = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<keyof RawUnreads, unknown>;
  const messages: Record<number, UnreadLocation> = {};
  type Raw = Required<RawUnreads>;
  const streams = groups<Raw['streams'][number]>(
    u.streams,
    (g) => Number.isInteger(g.stream_id) && typeof g.topic === 'string',
  );
  for (const s of streams) {
    for (const id of s.unread_message_ids)
      messages[id] = { kind: 'stream', streamId: s.stream_id, topic: s.topic };
  }
  for (const p of groups<Raw['pms'][number]>(u.pms, () => true)) {
    const userId = p.other_user_id ?? p.sender_id ?? 0;
    for (const id of p.unread_message_ids) messages[id] = { kind: 'pm', userId };
  }
  for (const h of groups<Raw['huddles'][number]>(u.huddles, (g) => typeof g.user_ids_string === 'string')) {
    for (const id of h.unread_message_ids) messages[id] = { kind: 'huddle', userIds: h.user_ids_string };
  }
  const mentions = Array.isArray(u.mentions) ? u.mentions.filter(Number.isInteger) : [];
  return { messages, mentions: sortedUnique(mentions) };
}

const MENTION_FLAGS = new Set([
  'mentioned',
  'wildcard_mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
]);

/** Where a private message lives for `selfId`, from its recipients. */
function privateLocation(recipients: readonly number[], selfId: number): UnreadLocation {
  const others = recipients.filter((id) => id !== selfId);
  if (others.length <= 1) return { kind: 'pm', userId: others[0] ?? selfId };
  return { kind: 'huddle', userIds: sortedUnique([...recipients, selfId]).join(',') };
}

function recipientIds(displayRecipient: unknown): number[] {
  if (!Array.isArray(displayRecipient)) return [];
  return displayRecipient
    .map((r: unknown) => (typeof r === 'object' && r !== null ? (r as { id?: unknown }).id : undefined))
    .filter((id): id is number => typeof id === 'number');
}

function add(state: UnreadState, id: number, location: UnreadLocation, mentioned: boolean): UnreadState {
  return {
    messages: { ...state.messages, [id]: location },
    mentions:
      mentioned && !state.mentions.includes(id) ? sortedUnique([...state.mentions, id]) : state.mentions,
  };
}

function drop(state: UnreadState, ids: Iterable<number>): UnreadState {
  const gone = new Set(ids);
  const hit =
    [...gone].some((id) => Object.hasOwn(state.messages, id)) || state.mentions.some((id) => gone.has(id));
  if (!hit) return state;
  const messages = { ...state.messages };
  for (const id of gone) delete messages[id];
  return { messages, mentions: state.mentions.filter((id) => !gone.has(id)) };
}

/** Where a new message lives and whether it mentions the user; null when it is not unread. */
function unreadEntry(
  event: EventOf<'message'>,
  selfId: number | null,
): { location: UnreadLocation; mentioned: boolean } | null {
  const { message, flags } = event;
  if (flags.includes('read') || message.sender_id === selfId) return null;
  const mentioned = flags.some((f) => MENTION_FLAGS.has(f));
  const location: UnreadLocation =
    message.type === 'stream'
      ? { kind: 'stream', streamId: message.stream_id ?? 0, topic: message.subject }
      : privateLocation(recipientIds(message.display_recipient), selfId ?? 0);
  return { location, mentioned };
}

/** A new message: unread unless it is our own or arrives read. */
export function handleMessageEvent(
  state: UnreadState,
  event: EventOf<'message'>,
  selfId: number | null,
): UnreadState {
  const entry = unreadEntry(event, selfId);
  return entry ? add(state, event.message.id, entry.location, entry.mentioned) : state;
}

/**
 * Many new messages at once (a burst after a long time offline): the same as applying
 * `handleMessageEvent` to each in turn, with one copy of the state rather than one per message,
 * so 10 000 messages cost linear time, not quadratic.
 */
export function handleMessageEvents(
  state: UnreadState,
  events: readonly EventOf<'message'>[],
  selfId: number | null,
): UnreadState {
  let messages: Record<number, UnreadLocation> | null = null;
  const mentioned: number[] = [];
  for (const event of events) {
    const entry = unreadEntry(event, selfId);
    if (!entry) continue;
    messages ??= { ...state.messages };
    messages[event.message.id] = entry.location;
    if (entry.mentioned) mentioned.push(event.message.id);
  }
  if (messages === null) return state;
  return {
    messages,
    mentions: mentioned.length === 0 ? state.mentions : sortedUnique([...state.mentions, ...mentioned]),
  };
}

interface MessageDetail {
  type?: string;
  stream_id?: number;
  topic?: string;
  user_ids?: number[];
  mentioned?: boolean;
}

export function handleUpdateMessageFlagsEvent(
  state: UnreadState,
  event: EventOf<'update_message_flags'>,
  selfId: number | null,
): UnreadState {
  if (event.flag === 'read') {
    if (event.op === 'add')
      return event.all ? drop(state, Object.keys(state.messages).map(Number)) : drop(state, event.messages);
    // Marked unread: the family's event says where each message lives (message_details).
    const details = (event.message_details ?? {}) as Record<string, MessageDetail>;
    let next = state;
    for (const id of event.messages) {
      const d = details[String(id)];
      if (!d) continue;
      const location: UnreadLocation =
        d.type === 'stream'
          ? { kind: 'stream', streamId: d.stream_id ?? 0, topic: d.topic ?? '' }
          : privateLocation(d.user_ids ?? [], selfId ?? 0);
      next = add(next, id, location, d.mentioned === true);
    }
    return next;
  }
  if (MENTION_FLAGS.has(event.flag)) {
    if (event.op === 'remove') {
      const gone = new Set(event.messages);
      return state.mentions.some((id) => gone.has(id))
        ? { ...state, mentions: state.mentions.filter((id) => !gone.has(id)) }
        : state;
    }
    const added = event.messages.filter(
      (id) => Object.hasOwn(state.messages, id) && !state.mentions.includes(id),
    );
    return added.length === 0 ? state : { ...state, mentions: sortedUnique([...state.mentions, ...added]) };
  }
  return state;
}

/** Deleted messages are no longer unread (bulk form and the older one-message form). */
export function handleDeleteMessageEvent(state: UnreadState, event: EventOf<'delete_message'>): UnreadState {
  const ids = event.message_ids ?? (event.message_id === undefined ? [] : [event.message_id]);
  return drop(state, ids);
}

/**
 * Moved messages (a new topic, a new stream, or both; `message_ids` lists every message the
 * move took along): their unread entries follow them. An edit of the content alone moves
 * nothing.
 */
export function handleUpdateMessageEvent(state: UnreadState, event: EventOf<'update_message'>): UnreadState {
  const { new_stream_id: newStreamId, subject: newTopic } = event;
  if (newStreamId === undefined && newTopic === undefined) return state;
  let messages: Record<number, UnreadLocation> | null = null;
  for (const id of event.message_ids ?? (event.message_id === undefined ? [] : [event.message_id])) {
    const where = state.messages[id];
    if (where?.kind !== 'stream') continue;
    const moved = {
      kind: 'stream' as const,
      streamId: newStreamId ?? where.streamId,
      topic: newTopic ?? where.topic,
    };
    if (moved.streamId === where.streamId && moved.topic === where.topic) continue;
    messages ??= { ...state.messages };
    messages[id] = moved;
  }
  return messages ? { ...state, messages } : state;
}
