/**
 * Derived values over an AccountState, for the UIs (badge, tray, stream list). Unread counts
 * follow the spec: muted streams do not count toward unread totals; a muted topic does not
 * either, and an unmuted or followed topic in a muted stream does. Messages in streams the
 * user is not subscribed to are not counted. A mention in a muted stream or topic stays out of
 * the total too (the spec's rule has no exception for it); it counts among `mentions` and
 * `privateAndMentions`, which are about who is addressed, not about muting.
 */
import { type AccountState, ownUser } from './account';
import { type PresenceStatus, presenceStatus } from './presence';
import type { SubscriptionsState } from './subscriptions';
import type { StreamUnreads, UnreadState } from './unreads';
import { topicKey, type UserTopicsState, VISIBILITY_POLICY } from './user-topics';

export interface UnreadSummary {
  /** What the badge shows: private messages plus stream messages that are not muted. */
  total: number;
  /** Per subscribed stream: its unmuted topics' unread messages (shown even if the stream is muted). */
  streams: Readonly<Record<number, number>>;
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
  return mutedIn(state.subscriptions.subscribed, state.userTopics, streamId, topic);
}

function mutedIn(
  subscribed: SubscriptionsState['subscribed'],
  userTopics: UserTopicsState,
  streamId: number,
  topic: string,
): boolean {
  const policy = userTopics[topicKey(streamId, topic)]?.visibility_policy ?? VISIBILITY_POLICY.inherit;
  if (policy === VISIBILITY_POLICY.muted) return true;
  if (policy === VISIBILITY_POLICY.unmuted || policy === VISIBILITY_POLICY.followed) return false;
  return subscribed[streamId]?.is_muted === true;
}

/** What one stream adds to the summary, for its mute state and the topic policies. */
interface StreamPart {
  muted: boolean;
  userTopics: UserTopicsState;
  /** Unread messages of its topics that are not muted themselves (the stream's count). */
  shown: number;
  /** Unread messages that are not muted by the spec's rule (toward the total). */
  counted: number;
}

/**
 * Per stream's unreads object: a batch replaces only the streams it touches (unreads.ts), so
 * the summary of the new state reads every other stream's part from here.
 */
const streamParts = new WeakMap<StreamUnreads, StreamPart>();

const policyIndexes = new WeakMap<UserTopicsState, ReadonlyMap<number, ReadonlyMap<string, number>>>();

/**
 * The visibility policies of one stream's topics, keyed by the topic's name in lower case
 * (topicPolicy's rule), or undefined when the stream has none: built once per user_topics
 * state, so that a pass over thousands of topics looks up only those of streams with policies.
 */
export function streamTopicPolicies(
  userTopics: UserTopicsState,
  streamId: number,
): ReadonlyMap<string, number> | undefined {
  let index = policyIndexes.get(userTopics);
  if (!index) {
    const out = new Map<number, Map<string, number>>();
    for (const t of Object.values(userTopics)) {
      let policies = out.get(t.stream_id);
      if (!policies) {
        policies = new Map();
        out.set(t.stream_id, policies);
      }
      policies.set(t.topic_name.toLowerCase(), t.visibility_policy);
    }
    index = out;
    policyIndexes.set(userTopics, index);
  }
  return index.get(streamId);
}

function streamPart(
  streamId: number,
  stream: StreamUnreads,
  muted: boolean,
  userTopics: UserTopicsState,
): StreamPart {
  const known = streamParts.get(stream);
  if (known && known.muted === muted && known.userTopics === userTopics) return known;
  const policies = streamTopicPolicies(userTopics, streamId);
  let shown = 0;
  let counted = 0;
  for (const [topic, { ids }] of stream.topics) {
    const policy = policies?.get(topic.toLowerCase()) ?? VISIBILITY_POLICY.inherit;
    if (policy !== VISIBILITY_POLICY.muted) shown += ids.length;
    // mutedIn's rule, with the policy already at hand.
    const isMuted =
      policy === VISIBILITY_POLICY.muted ||
      (policy !== VISIBILITY_POLICY.unmuted && policy !== VISIBILITY_POLICY.followed && muted);
    if (!isMuted) counted += ids.length;
  }
  const part = { muted, userTopics, shown, counted };
  streamParts.set(stream, part);
  return part;
}

/** O(streams with unreads + mentions), never a pass over the unread messages. */
function summarize(
  unreads: UnreadState,
  subscribed: SubscriptionsState['subscribed'],
  userTopics: UserTopicsState,
): UnreadSummary {
  let inStreams = 0;
  let total = 0;
  const streams: Record<number, number> = {};
  for (const [streamId, stream] of unreads.streams) {
    inStreams += stream.count;
    const sub = subscribed[streamId];
    if (!sub) continue;
    const part = streamPart(streamId, stream, sub.is_muted === true, userTopics);
    if (part.shown > 0) streams[streamId] = part.shown;
    total += part.counted;
  }
  const privateMessages = unreads.messages.size - inStreams;
  let mentionedInStreams = 0;
  for (const id of unreads.mentions) {
    if (unreads.messages.get(id)?.kind === 'stream') mentionedInStreams += 1;
  }
  return {
    total: total + privateMessages,
    streams,
    privateMessages,
    mentions: unreads.mentions.length,
    privateAndMentions: privateMessages + mentionedInStreams,
  };
}

/**
 * Of the subscribed streams the summary reads only which ones there are and whether each is
 * muted: another subscribed object that agrees on both (a color or subscriber list changed)
 * gives the same summary. O(subscriptions), far fewer than unreads.
 */
function sameMuting(a: SubscriptionsState['subscribed'], b: SubscriptionsState['subscribed']): boolean {
  if (a === b) return true;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    const x = a[Number(key)];
    const y = b[Number(key)];
    if (!x || !y || (x.is_muted === true) !== (y.is_muted === true)) return false;
  }
  return true;
}

interface CachedSummary {
  subscribed: SubscriptionsState['subscribed'];
  userTopics: UserTopicsState;
  summary: UnreadSummary;
}

/**
 * The last summary per unreads object, with the other inputs it was computed from. Keyed by
 * the inputs rather than the state object: almost every event makes a new AccountState, but the
 * reducers keep each slice they do not change, so a batch without unread, mute or topic
 * changes finds its summary here.
 */
const byInputs = new WeakMap<UnreadState, CachedSummary>();
/** Per state object too: two states over one unreads object (old and new) stay cheap to ask. */
const byState = new WeakMap<AccountState, UnreadSummary>();

/** The unread summary; computed again only when its inputs change (the same object otherwise). */
export function unreadSummary(state: AccountState): UnreadSummary {
  const known = byState.get(state);
  if (known) return known;
  const { unreads, userTopics } = state;
  const { subscribed } = state.subscriptions;
  const cached = byInputs.get(unreads);
  let summary: UnreadSummary;
  if (cached && cached.userTopics === userTopics && sameMuting(cached.subscribed, subscribed)) {
    summary = cached.summary;
  } else {
    summary = summarize(unreads, subscribed, userTopics);
  }
  byInputs.set(unreads, { subscribed, userTopics, summary });
  byState.set(state, summary);
  return summary;
}

export const selectUnreadTotal = (state: AccountState): number => unreadSummary(state).total;
export const selectStreamUnread = (state: AccountState, streamId: number): number =>
  unreadSummary(state).streams[streamId] ?? 0;
/** Every unread message of the topic (whatever the case of its name), in a subscribed stream. */
export const selectTopicUnread = (state: AccountState, streamId: number, topic: string): number =>
  topicUnreadCounts(state, streamId).get(topic.toLowerCase()) ?? 0;
export const selectPrivateUnread = (state: AccountState): number => unreadSummary(state).privateMessages;
export const selectMentionUnread = (state: AccountState): number => unreadSummary(state).mentions;
export const selectPrivateAndMentionUnread = (state: AccountState): number =>
  unreadSummary(state).privateAndMentions;

const NO_COUNTS: ReadonlyMap<string, number> = new Map();
const topicCounts = new WeakMap<StreamUnreads, ReadonlyMap<string, number>>();

/**
 * A subscribed stream's unread messages per topic, keyed by the topic's name in lower case
 * (a topic is one conversation whatever the case of its name), muted topics included. The same
 * object until a batch changes the stream's unreads, so a screen may select it.
 */
export function topicUnreadCounts(state: AccountState, streamId: number): ReadonlyMap<string, number> {
  const stream = state.unreads.streams.get(streamId);
  if (!stream || !state.subscriptions.subscribed[streamId]) return NO_COUNTS;
  let counts = topicCounts.get(stream);
  if (!counts) {
    const out = new Map<string, number>();
    for (const [topic, { ids }] of stream.topics) {
      const key = topic.toLowerCase();
      out.set(key, (out.get(key) ?? 0) + ids.length);
    }
    counts = out;
    topicCounts.set(stream, counts);
  }
  return counts;
}

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

// ---- people ---------------------------------------------------------------------------------

/**
 * Whether a user is active, idle or offline at `nowMs` (epoch milliseconds, as Date.now()
 * gives), by the family's rule and the server's offline threshold (presence.ts). The user
 * themself is active while they share presence (presence_enabled), as in the family's web
 * client: this app is open, so they are here.
 */
export function presenceOf(state: AccountState, userId: number, nowMs: number): PresenceStatus {
  if (userId === state.userId) return state.userSettings.presence_enabled === false ? 'offline' : 'active';
  const { users, offlineThresholdSeconds } = state.presence;
  return presenceStatus(users[userId], nowMs / 1000, offlineThresholdSeconds);
}

/** Whether the user muted this user (their messages are hidden and marked read). */
export const isUserMuted = (state: AccountState, userId: number): boolean =>
  Object.hasOwn(state.mutedUsers, userId);

/** Whether the user is an administrator (or owner) of the organization. */
export const selectIsAdmin = (state: AccountState): boolean => ownUser(state)?.is_admin === true;
