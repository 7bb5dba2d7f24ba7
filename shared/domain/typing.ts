/**
 * Who is typing where: from `typing` events, per conversation (a topic, or a private
 * conversation by its other people), each typist with the time their notice runs out. The
 * family's clients send `start` again every few seconds while typing and `stop` when done; a
 * notice not renewed within `TYPING_EXPIRY_MS` is over (a client that vanished never sends
 * `stop`). A message from a typist ends their notice in that conversation, as in the family.
 * Oneself is never a typist.
 */
import type { ServerEvent } from '../protocol';
import { dmUserIds, type Narrow, narrowKey } from './narrow';

export const TYPING_EXPIRY_MS = 15_000;

/** Conversation key (`narrowKey` of its topic or dm narrow) → typist's user id → expiry (ms). */
export type TypingState = ReadonlyMap<string, ReadonlyMap<number, number>>;

export const emptyTyping: TypingState = new Map();

/** The key of a conversation's narrow, or null when the narrow is not one conversation. */
function conversationKey(narrow: Narrow): string | null {
  return narrow.kind === 'topic' || narrow.kind === 'dm' ? narrowKey(narrow) : null;
}

/** The other people of a conversation among `ids` (everyone in it); [self] with oneself. */
function peers(ids: readonly number[], ownUserId: number): number[] {
  const others = dmUserIds(ids).filter((id) => id !== ownUserId);
  return others.length === 0 ? [ownUserId] : others;
}

/** The conversation an event is about, and who is typing (or sent a message) in it. */
function subjectOf(event: ServerEvent, ownUserId: number): { key: string; userId: number } | null {
  if (event.type === 'typing') {
    const userId = event.sender.user_id;
    if (event.message_type === 'stream') {
      if (event.stream_id === undefined || event.topic === undefined) return null;
      return { key: narrowKey({ kind: 'topic', streamId: event.stream_id, topic: event.topic }), userId };
    }
    const people = (event.recipients ?? []).map((r) => r.user_id);
    return { key: narrowKey({ kind: 'dm', userIds: peers([...people, userId], ownUserId) }), userId };
  }
  if (event.type === 'message') {
    const m = event.message as { stream_id?: number; subject: string; display_recipient?: unknown };
    const userId = event.message.sender_id;
    if (event.message.type === 'stream') {
      if (m.stream_id === undefined) return null;
      return { key: narrowKey({ kind: 'topic', streamId: m.stream_id, topic: m.subject }), userId };
    }
    const list = Array.isArray(m.display_recipient) ? (m.display_recipient as { id?: unknown }[]) : [];
    const people = list.map((r) => r.id).filter((id): id is number => typeof id === 'number');
    return { key: narrowKey({ kind: 'dm', userIds: peers([...people, userId], ownUserId) }), userId };
  }
  return null;
}

/** Drops the notices that ran out by `now`; answers `state` itself when none did. */
function pruned(state: TypingState, now: number): TypingState {
  let next: Map<string, ReadonlyMap<number, number>> | null = null;
  for (const [key, typists] of state) {
    let live: Map<number, number> | null = null;
    for (const [userId, expiresAt] of typists) {
      if (expiresAt > now) continue;
      live ??= new Map(typists);
      live.delete(userId);
    }
    if (!live) continue;
    next ??= new Map(state);
    if (live.size === 0) next.delete(key);
    else next.set(key, live);
  }
  return next ?? state;
}

/**
 * Applies one event: `typing` start adds or renews a typist (until now + TYPING_EXPIRY_MS),
 * stop removes them; a `message` removes its sender from its conversation; other events, and
 * one's own typing, change nothing. Notices that ran out are dropped on the way.
 */
export function applyTypingEvent(
  state: TypingState,
  event: ServerEvent,
  now: number,
  ownUserId: number,
): TypingState {
  const current = pruned(state, now);
  const subject = subjectOf(event, ownUserId);
  if (!subject || subject.userId === ownUserId) return current;
  const starting = event.type === 'typing' && event.op === 'start';
  const typists = current.get(subject.key);
  if (!starting && !typists?.has(subject.userId)) return current;
  const nextTypists = new Map(typists);
  // A renewed notice keeps its place: typists stay in the order they started.
  if (starting) nextTypists.set(subject.userId, now + TYPING_EXPIRY_MS);
  else nextTypists.delete(subject.userId);
  const next = new Map(current);
  if (nextTypists.size === 0) next.delete(subject.key);
  else next.set(subject.key, nextTypists);
  return next;
}

/** Who is typing in a topic or private conversation at `now` (others only), in starting order. */
export function typistsIn(state: TypingState, narrow: Narrow, now: number): number[] {
  const key = conversationKey(narrow);
  const typists = key === null ? undefined : state.get(key);
  if (!typists) return [];
  return [...typists].filter(([, expiresAt]) => expiresAt > now).map(([userId]) => userId);
}

/** When the next notice runs out (for a timer that re-renders), or null when none is left. */
export function nextTypingExpiry(state: TypingState): number | null {
  let next: number | null = null;
  for (const typists of state.values())
    for (const expiresAt of typists.values()) if (next === null || expiresAt < next) next = expiresAt;
  return next;
}
