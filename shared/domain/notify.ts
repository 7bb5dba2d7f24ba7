/**
 * Which new messages deserve a desktop notification and a sound, and what the notification says:
 * the one set of rules for the main process (Electron notifications, electron/core/desktop/
 * attention.ts) and the renderer in browser mode (Web Notifications, features/shell/Notifier).
 * The rules follow the interface family's web client (`should_send_desktop_notification`,
 * `should_send_audible_notification`, `receives_notifications`): per stream settings, null
 * inheriting the user's defaults. A burst (more than `BURST_SIZE` notifying messages in one
 * batch, as after a long time offline) becomes one summary notification. Do not disturb and
 * whether the user is looking at the account are the callers' to check (they know).
 *
 * Message HTML is turned into text by a function the caller passes (the main process sanitizes,
 * the renderer has a DOM), so this file stays free of both.
 */
import type { EventOf, ServerEvent } from '../protocol';
import type { AccountState } from './account';
import { dmPeersOf, type Narrow } from './narrow';
import { isTopicMuted, isUserMuted } from './selectors';

export type MessageEvent = EventOf<'message'>;

const WILDCARD_FLAGS = ['wildcard_mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned'];

/** A user setting with its documented default when the snapshot lacks it. */
function boolSetting(state: AccountState, name: string, fallback: boolean): boolean {
  const v = state.userSettings[name];
  return typeof v === 'boolean' ? v : fallback;
}

type StreamSetting = 'desktop' | 'audible' | 'wildcard';

/** A stream's notification setting, null meaning the user's own default for it. */
function streamReceives(state: AccountState, streamId: number | undefined, which: StreamSetting): boolean {
  if (streamId === undefined) return false;
  const sub = state.subscriptions.subscribed[streamId];
  if (!sub) return false;
  const own =
    which === 'desktop'
      ? sub.desktop_notifications
      : which === 'audible'
        ? sub.audible_notifications
        : sub.wildcard_mentions_notify;
  if (own !== null && own !== undefined) return own;
  if (which === 'desktop') return boolSetting(state, 'enable_stream_desktop_notifications', false);
  if (which === 'audible') return boolSetting(state, 'enable_stream_audible_notifications', false);
  return boolSetting(state, 'wildcard_mentions_notify', true);
}

/** Whether a message can notify at all: not read, not one's own, not from a muted user, not muted. */
function notifiable(state: AccountState, event: MessageEvent): boolean {
  const m = event.message;
  const flags = event.flags;
  if (flags.includes('read') || (state.userId !== null && m.sender_id === state.userId)) return false;
  if (isUserMuted(state, m.sender_id)) return false;
  return !(
    m.type === 'stream' &&
    !flags.includes('mentioned') &&
    m.stream_id !== undefined &&
    isTopicMuted(state, m.stream_id, m.subject)
  );
}

/** Private messages, direct mentions, alert words, and wildcard mentions where the stream wants them. */
function addressed(state: AccountState, event: MessageEvent): boolean {
  const m = event.message;
  const flags = event.flags;
  if (m.type === 'private' || flags.includes('mentioned') || flags.includes('has_alert_word')) return true;
  return flags.some((f) => WILDCARD_FLAGS.includes(f)) && streamReceives(state, m.stream_id, 'wildcard');
}

/**
 * Whether a new message gets a desktop notification:
 * - never for the user's own or already read messages, nor those of a muted user;
 * - never in a muted stream or topic, unless it mentions the user by name;
 * - a stream message when the stream's desktop_notifications says so (null: the user's
 *   enable_stream_desktop_notifications);
 * - otherwise only with enable_desktop_notifications on: private messages, direct mentions,
 *   alert words, and wildcard mentions where wildcard_mentions_notify (stream, then user) is on.
 */
export function shouldNotify(state: AccountState, event: MessageEvent): boolean {
  if (!notifiable(state, event)) return false;
  if (event.message.type === 'stream' && streamReceives(state, event.message.stream_id, 'desktop'))
    return true;
  if (!boolSetting(state, 'enable_desktop_notifications', true)) return false;
  return addressed(state, event);
}

/** The user's notification sound, or null for none. */
export function notificationSoundOf(state: AccountState): string | null {
  const v = state.userSettings.notification_sound;
  const name = typeof v === 'string' ? v : 'chime';
  return name === 'none' || name === '' ? null : name;
}

/**
 * Whether a new message makes a sound, by the same rules with the audible settings: a stream
 * message when the stream's audible_notifications (null: enable_stream_audible_notifications)
 * says so, otherwise with enable_sounds on the messages addressed to the user; never with the
 * sound "none".
 */
export function shouldPlaySound(state: AccountState, event: MessageEvent): boolean {
  if (notificationSoundOf(state) === null || !notifiable(state, event)) return false;
  if (event.message.type === 'stream' && streamReceives(state, event.message.stream_id, 'audible'))
    return true;
  if (!boolSetting(state, 'enable_sounds', true)) return false;
  return addressed(state, event);
}

// ---- what a notification says ------------------------------------------------------------------

export interface NotificationContent {
  title: string;
  body: string;
}

/** Longer bodies are cut, as the interface family's clients do. */
export const NOTIFICATION_BODY_MAX = 150;

function truncate(text: string): string {
  const chars = [...text];
  return chars.length > NOTIFICATION_BODY_MAX ? `${chars.slice(0, NOTIFICATION_BODY_MAX).join('')}…` : text;
}

function stringField(m: Record<string, unknown>, name: string): string | null {
  const v = m[name];
  return typeof v === 'string' ? v : null;
}

function streamNameOf(state: AccountState, m: MessageEvent['message'] & Record<string, unknown>): string {
  return (
    stringField(m, 'display_recipient') ??
    (m.stream_id !== undefined ? state.subscriptions.subscribed[m.stream_id]?.name : undefined) ??
    'a stream'
  );
}

/**
 * Title and body of the notification for a message; `toText` turns message HTML into one line of
 * plain text. Private message content stays out when pm_content_in_desktop_notifications is off
 * (the notification may show on a locked screen).
 */
export function notificationContent(
  state: AccountState,
  event: MessageEvent,
  toText: (html: string) => string,
): NotificationContent {
  const m = event.message as MessageEvent['message'] & Record<string, unknown>;
  const sender = stringField(m, 'sender_full_name') ?? 'Someone';
  const raw = stringField(m, 'content') ?? '';
  const text = truncate(stringField(m, 'content_type') === 'text/x-markdown' ? raw.trim() : toText(raw));

  if (m.type === 'stream') {
    return { title: `${sender} (to ${streamNameOf(state, m)} > ${m.subject})`, body: text };
  }

  const recipients = Array.isArray(m.display_recipient) ? (m.display_recipient as unknown[]) : [];
  const others = recipients.filter((r) => {
    const id = (r as { id?: unknown } | null)?.id;
    return typeof id === 'number' && id !== state.userId && id !== m.sender_id;
  }).length;
  const title = others === 0 ? sender : `${sender} (to you and ${others} other${others === 1 ? '' : 's'})`;
  const showContent = boolSetting(state, 'pm_content_in_desktop_notifications', true);
  return { title, body: showContent ? text : `New private message from ${sender}` };
}

/** The conversation of a message: its topic, or its private conversation (by the other people). */
export function conversationNarrowOf(message: MessageEvent['message'], ownUserId: number | null): Narrow {
  if (message.type === 'stream' && message.stream_id !== undefined)
    return { kind: 'topic', streamId: message.stream_id, topic: message.subject };
  return { kind: 'dm', userIds: dmPeersOf(message, ownUserId ?? -1) };
}

/** A conversation's name in a summary: "#stream > topic", or the other people's names. */
export function conversationLabel(state: AccountState, event: MessageEvent): string {
  const m = event.message as MessageEvent['message'] & Record<string, unknown>;
  if (m.type === 'stream') return `#${streamNameOf(state, m)} > ${m.subject}`;
  const people = Array.isArray(m.display_recipient) ? (m.display_recipient as unknown[]) : [];
  const names = people
    .map((r) => r as { id?: unknown; full_name?: unknown } | null)
    .filter((r) => r !== null && r.id !== state.userId && typeof r.full_name === 'string')
    .map((r) => r?.full_name as string);
  return names.length > 0 ? names.join(', ') : (stringField(m, 'sender_full_name') ?? 'Someone');
}

// ---- a batch's notifications -------------------------------------------------------------------

/** More notifying messages than this in one batch become one summary notification. */
export const BURST_SIZE = 5;

export interface PlannedNotification extends NotificationContent {
  /** The message (for a summary: the newest) whose conversation a click opens. */
  messageId: number;
  narrow: Narrow;
  /** Whether the notification makes no sound (enable_sounds and the audible settings, sound "none"). */
  silent: boolean;
  /** The sound to make (notification_sound), null for none. */
  sound: string | null;
}

/** What a burst summary needs of each notification (the planned ones, or the caller's). */
export interface BurstItem {
  messageId: number;
  narrow: Narrow;
  /** The conversation's name ("#design > logo", "Alice Smith"). */
  conversation: string;
  silent: boolean;
}

/**
 * One summary for a burst, or null when `items` are not more than BURST_SIZE: "N new messages",
 * the body naming up to three conversations, newest first ("… and 2 more conversations"); a
 * click opens the newest message's conversation; silent only if every message is.
 */
export function burstSummary(
  items: readonly BurstItem[],
): (NotificationContent & Omit<BurstItem, 'conversation'>) | null {
  if (items.length <= BURST_SIZE) return null;
  const newestFirst = [...items].sort((a, b) => b.messageId - a.messageId);
  const newest = newestFirst[0] as BurstItem;
  const conversations = [...new Set(newestFirst.map((i) => i.conversation))];
  const named = conversations.slice(0, 3).join(', ');
  const more = conversations.length - 3;
  const body = more > 0 ? `${named} and ${more} more conversation${more === 1 ? '' : 's'}` : named;
  return {
    title: `${items.length} new messages`,
    body,
    messageId: newest.messageId,
    narrow: newest.narrow,
    silent: items.every((i) => i.silent),
  };
}

/**
 * The notifications for a batch of events, in order: one per notifying message, or one summary
 * when there are more than BURST_SIZE. `toText` turns message HTML into plain text.
 */
export function planNotifications(
  state: AccountState,
  events: readonly ServerEvent[],
  toText: (html: string) => string,
): PlannedNotification[] {
  const sound = notificationSoundOf(state);
  const planned: (PlannedNotification & { conversation: string })[] = [];
  for (const event of events) {
    if (event.type !== 'message' || !shouldNotify(state, event)) continue;
    planned.push({
      ...notificationContent(state, event, toText),
      messageId: event.message.id,
      narrow: conversationNarrowOf(event.message, state.userId),
      silent: !shouldPlaySound(state, event),
      sound,
      conversation: conversationLabel(state, event),
    });
  }
  const summary = burstSummary(planned);
  if (summary) return [{ ...summary, sound }];
  return planned.map(({ conversation: _conversation, ...n }) => n);
}
