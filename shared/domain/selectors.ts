/**
 * Derived values over an AccountState, for the UIs (badge, tray, stream list). Unread counts
 * follow the spec: muted streams do not count toward unread totals; a muted topic does not
 * either, and an unmuted or followed topic in a muted stream does. Messages in streams the
 * user is not subscribed to are not counted. A mention in a muted stream or topic stays out of
 * the total too (the spec's rule has no exception for it); it counts among `mentions` and
 * `privateAndMentions`, which are about who is addressed, not about muting.
 */
import type { AccountState } from './account';
import { topicKey, VISIBILITY_POLICY } from './user-topics';

export interface UnreadSummary {
  /** What the badge shows: private messages plus stream messages that are not muted. */
  total: number;
  /** Per subscribed stream: its unmuted topics' unread messages (shown even if the stream is muted). */
  streams: Readonly<Record<number, number>>;
  /** Per topic, keyed by topicKey(stream_id, topic): every unread message of the topic. */
  topics: Readonly<Record<string, number>>;
  /** One-to-one and group private messages. */
  privateMessages: number;
  mentions: number;
  /** Private messages and messages that mention the user, each counted once. */
  privateAndMentions: number;
}

/**
 * Whether a stream message is muted, given the stream's mute state and the topic's policy: the
 * one definition of "muted" for unread counts and notifications. A stream the user is not
 * subscribed to is not muted.
 */
export function isTopicMuted(state: AccountState, streamId: number, topic: string): boolean {
  const policy = state.userTopics[topicKey(streamId, topic)]?.visibility_policy ?? VISIBILITY_POLICY.inherit;
  if (policy === VISIBILITY_POLICY.muted) return true;
  if (policy === VISIBILITY_POLICY.unmuted || policy === VISIBILITY_POLICY.followed) return false;
  return state.subscriptions.subscribed[streamId]?.is_muted === true;
}

const cache = new WeakMap<AccountState, UnreadSummary>();

function summarize(state: AccountState): UnreadSummary {
  let total = 0;
  let privateMessages = 0;
  const streams: Record<number, number> = {};
  const topics: Record<string, number> = {};
  for (const where of Object.values(state.unreads.messages)) {
    if (where.kind !== 'stream') {
      privateMessages += 1;
      total += 1;
      continue;
    }
    const sub = state.subscriptions.subscribed[where.streamId];
    if (!sub) continue;
    const key = topicKey(where.streamId, where.topic);
    topics[key] = (topics[key] ?? 0) + 1;
    const topicPolicy = state.userTopics[key]?.visibility_policy;
    if (topicPolicy !== VISIBILITY_POLICY.muted) streams[where.streamId] = (streams[where.streamId] ?? 0) + 1;
    if (!isTopicMuted(state, where.streamId, where.topic)) total += 1;
  }
  let mentionedInStreams = 0;
  for (const id of state.unreads.mentions) {
    if (state.unreads.messages[id]?.kind === 'stream') mentionedInStreams += 1;
  }
  return {
    total,
    streams,
    topics,
    privateMessages,
    mentions: state.unreads.mentions.length,
    privateAndMentions: privateMessages + mentionedInStreams,
  };
}

/** The unread summary; computed once per state object. */
export function unreadSummary(state: AccountState): UnreadSummary {
  let summary = cache.get(state);
  if (!summary) {
    summary = summarize(state);
    cache.set(state, summary);
  }
  return summary;
}

export const selectUnreadTotal = (state: AccountState): number => unreadSummary(state).total;
export const selectStreamUnread = (state: AccountState, streamId: number): number =>
  unreadSummary(state).streams[streamId] ?? 0;
export const selectTopicUnread = (state: AccountState, streamId: number, topic: string): number =>
  unreadSummary(state).topics[topicKey(streamId, topic)] ?? 0;
export const selectPrivateUnread = (state: AccountState): number => unreadSummary(state).privateMessages;
export const selectMentionUnread = (state: AccountState): number => unreadSummary(state).mentions;
export const selectPrivateAndMentionUnread = (state: AccountState): number =>
  unreadSummary(state).privateAndMentions;

/** The user's desktop_icon_count_display: 1 all unread messages, 2 private messages and mentions, 3 none. */
export type IconCountDisplay = 1 | 2 | 3;

/** desktop_icon_count_display, unknown or missing values read as the default (1). */
export function iconCountDisplay(state: AccountState): IconCountDisplay {
  const v = state.userSettings.desktop_icon_count_display;
  return v === 2 || v === 3 ? v : 1;
}

/** What the app icon's badge shows for this account, as desktop_icon_count_display asks. */
export function selectBadgeCount(state: AccountState): number {
  switch (iconCountDisplay(state)) {
    case 1:
      return selectUnreadTotal(state);
    case 2:
      return selectPrivateAndMentionUnread(state);
    case 3:
      return 0;
  }
}
