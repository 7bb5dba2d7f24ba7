/**
 * The user_topics substore: the user's visibility policy per topic (muted, unmuted,
 * followed). Topic names match without regard to case, like the server's.
 */
import type { EventOf } from '../protocol';

export const VISIBILITY_POLICY = { inherit: 0, muted: 1, unmuted: 2, followed: 3 } as const;

export interface UserTopic {
  stream_id: number;
  topic_name: string;
  last_updated: number;
  visibility_policy: number;
}
/** Keyed by topicKey(stream_id, topic_name). */
export type UserTopicsState = Readonly<Record<string, UserTopic>>;
export type UserTopicEvent = EventOf<'user_topic'>;

export const topicKey = (streamId: number, topic: string): string =>
  `${streamId}\u0000${topic.toLowerCase()}`;

export function userTopicsFromSnapshot(topics: readonly UserTopic[] | undefined): UserTopicsState {
  const out: Record<string, UserTopic> = {};
  for (const t of topics ?? []) out[topicKey(t.stream_id, t.topic_name)] = t;
  return out;
}

export function handleUserTopicEvent(state: UserTopicsState, event: UserTopicEvent): UserTopicsState {
  const key = topicKey(event.stream_id, event.topic_name);
  if (event.visibility_policy === VISIBILITY_POLICY.inherit) {
    if (!Object.hasOwn(state, key)) return state;
    const { [key]: _removed, ...rest } = state;
    return rest;
  }
  const { stream_id, topic_name, last_updated, visibility_policy } = event;
  return { ...state, [key]: { stream_id, topic_name, last_updated, visibility_policy } };
}

export function topicPolicy(state: UserTopicsState, streamId: number, topic: string): number {
  return state[topicKey(streamId, topic)]?.visibility_policy ?? VISIBILITY_POLICY.inherit;
}
