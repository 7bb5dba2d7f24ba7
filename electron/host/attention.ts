/**
 * What the Electron glue needs to draw the user's attention: unread counts for the dock/taskbar
 * badge and the tray, and which new messages deserve a desktop notification, with its text.
 *
 * Pure and Electron-free (plain-Node tests check every rule). The glue feeds it the core's own
 * pushes (snapshots and event batches, exactly what the renderer gets) through
 * `AttentionTracker`, and only turns its answers into `app.setBadgeCount`, tray tooltips and
 * `Notification`s. The rules follow the interface family's web client
 * (`should_send_desktop_notification`, `receives_notifications`, the favicon count).
 */
import { z } from 'zod';
import { applySettingsEvent, type UserSettingsState } from '../../shared/domain';
import type { AppState, PushChannel, PushPayloads } from '../../shared/ipc';
import type { EventOf, RegisterState, ServerEvent } from '../../shared/protocol';

// ---- state ----------------------------------------------------------------------------------

interface SubscriptionPrefs {
  name: string;
  /** null: follow the user's enable_stream_desktop_notifications. */
  desktopNotifications: boolean | null;
  /** null: follow the user's wildcard_mentions_notify. */
  wildcardMentionsNotify: boolean | null;
  isMuted: boolean;
}

interface UnreadMessage {
  /** Null for a message marked unread again: the event does not say what it was. */
  kind: 'stream' | 'private' | null;
  streamId: number | null;
  topic: string | null;
  mentioned: boolean;
}

/** user_topic visibility_policy values (the spec's user topic). */
const TOPIC_MUTED = 1;
const TOPIC_UNMUTED = 2;
const TOPIC_FOLLOWED = 3;

export interface AttentionState {
  userId: number | null;
  settings: UserSettingsState;
  subscriptions: ReadonlyMap<number, SubscriptionPrefs>;
  /** `${stream_id}\0${lowercased topic}` -> visibility_policy (only non-default ones). */
  topicPolicies: ReadonlyMap<string, number>;
  unread: ReadonlyMap<number, UnreadMessage>;
}

const ids = z.array(z.number().int());
const unreadMsgsSchema = z.looseObject({
  pms: z.array(z.looseObject({ unread_message_ids: ids })).default([]),
  streams: z
    .array(z.looseObject({ stream_id: z.number().int(), topic: z.string(), unread_message_ids: ids }))
    .default([]),
  huddles: z.array(z.looseObject({ unread_message_ids: ids })).default([]),
  mentions: ids.default([]),
});
const userTopicsSchema = z.array(
  z.looseObject({ stream_id: z.number().int(), topic_name: z.string(), visibility_policy: z.number().int() }),
);

const topicKey = (streamId: number, topic: string) => `${streamId}\u0000${topic.toLowerCase()}`;

function prefsOf(sub: {
  name: string;
  desktop_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
  is_muted: boolean;
}): SubscriptionPrefs {
  return {
    name: sub.name,
    desktopNotifications: sub.desktop_notifications,
    wildcardMentionsNotify: sub.wildcard_mentions_notify,
    isMuted: sub.is_muted,
  };
}

export function attentionFromSnapshot(snapshot: RegisterState): AttentionState {
  const subscriptions = new Map<number, SubscriptionPrefs>();
  for (const sub of snapshot.subscriptions ?? []) subscriptions.set(sub.stream_id, prefsOf(sub));

  const topicPolicies = new Map<string, number>();
  const topics = userTopicsSchema.safeParse(snapshot.user_topics);
  for (const t of topics.success ? topics.data : []) {
    if (t.visibility_policy !== 0)
      topicPolicies.set(topicKey(t.stream_id, t.topic_name), t.visibility_policy);
  }

  const unread = new Map<number, UnreadMessage>();
  // Missing or of another shape (an older server): no unread counts rather than a failure.
  const parsed = unreadMsgsSchema.safeParse(snapshot.unread_msgs);
  if (parsed.success) {
    const u = parsed.data;
    const mentions = new Set(u.mentions);
    for (const s of u.streams) {
      for (const id of s.unread_message_ids) {
        unread.set(id, {
          kind: 'stream',
          streamId: s.stream_id,
          topic: s.topic,
          mentioned: mentions.has(id),
        });
      }
    }
    for (const group of [...u.pms, ...u.huddles]) {
      for (const id of group.unread_message_ids) {
        unread.set(id, { kind: 'private', streamId: null, topic: null, mentioned: mentions.has(id) });
      }
    }
  }
  return {
    userId: snapshot.user_id ?? null,
    settings: (snapshot.user_settings ?? {}) as UserSettingsState,
    subscriptions,
    topicPolicies,
    unread,
  };
}

const MENTION_FLAGS = [
  'mentioned',
  'wildcard_mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
];
const WILDCARD_FLAGS = ['wildcard_mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned'];

/** Applies one batch; the maps are copied once per batch, not per event. */
export function applyAttentionEvents(state: AttentionState, events: readonly ServerEvent[]): AttentionState {
  let settings = state.settings;
  let subscriptions: Map<number, SubscriptionPrefs> | null = null;
  let topicPolicies: Map<string, number> | null = null;
  let unread: Map<number, UnreadMessage> | null = null;
  const subs = () => {
    subscriptions ??= new Map(state.subscriptions);
    return subscriptions;
  };
  const topics = () => {
    topicPolicies ??= new Map(state.topicPolicies);
    return topicPolicies;
  };
  const unreads = () => {
    unread ??= new Map(state.unread);
    return unread;
  };

  for (const event of events) {
    switch (event.type) {
      case 'user_settings':
      case 'update_display_settings':
      case 'update_global_notifications':
        settings = applySettingsEvent(settings, event);
        break;
      case 'subscription':
        if (event.op === 'add') for (const s of event.subscriptions) subs().set(s.stream_id, prefsOf(s));
        else if (event.op === 'remove') for (const s of event.subscriptions) subs().delete(s.stream_id);
        else if (event.op === 'update') updateSubscription(subs(), event);
        break;
      case 'stream':
        if (event.op === 'update' && event.property === 'name' && typeof event.value === 'string') {
          const sub = subs().get(event.stream_id);
          if (sub) subs().set(event.stream_id, { ...sub, name: event.value });
        }
        break;
      case 'user_topic': {
        const key = topicKey(event.stream_id, event.topic_name);
        if (event.visibility_policy === 0) topics().delete(key);
        else topics().set(key, event.visibility_policy);
        break;
      }
      case 'message': {
        if (event.flags.includes('read')) break;
        const m = event.message;
        unreads().set(m.id, {
          kind: m.type,
          streamId: m.type === 'stream' ? (m.stream_id ?? null) : null,
          topic: m.type === 'stream' ? m.subject : null,
          mentioned: event.flags.some((f) => MENTION_FLAGS.includes(f)),
        });
        break;
      }
      case 'update_message_flags':
        if (event.flag !== 'read') break;
        if (event.op === 'add') {
          if (event.all) unreads().clear();
          else for (const id of event.messages) unreads().delete(id);
        } else {
          // Marked unread again: counted among all unreads; what kind it is, the event omits.
          for (const id of event.messages) {
            if (!unreads().has(id)) {
              unreads().set(id, { kind: null, streamId: null, topic: null, mentioned: false });
            }
          }
        }
        break;
      case 'delete_message':
        for (const id of event.message_ids ?? (event.message_id !== undefined ? [event.message_id] : [])) {
          unreads().delete(id);
        }
        break;
      default:
        break;
    }
  }
  if (settings === state.settings && !subscriptions && !topicPolicies && !unread) return state;
  return {
    userId: state.userId,
    settings,
    subscriptions: subscriptions ?? state.subscriptions,
    topicPolicies: topicPolicies ?? state.topicPolicies,
    unread: unread ?? state.unread,
  };
}

function updateSubscription(subs: Map<number, SubscriptionPrefs>, event: EventOf<'subscription'>): void {
  if (event.op !== 'update') return;
  const sub = subs.get(event.stream_id);
  if (!sub) return;
  const v = event.value;
  const nullableBool = typeof v === 'boolean' || v === null ? v : undefined;
  switch (event.property) {
    case 'desktop_notifications':
      if (nullableBool !== undefined)
        subs.set(event.stream_id, { ...sub, desktopNotifications: nullableBool });
      break;
    case 'wildcard_mentions_notify':
      if (nullableBool !== undefined)
        subs.set(event.stream_id, { ...sub, wildcardMentionsNotify: nullableBool });
      break;
    case 'is_muted':
      if (typeof v === 'boolean') subs.set(event.stream_id, { ...sub, isMuted: v });
      break;
    // The legacy inverse of is_muted.
    case 'in_home_view':
      if (typeof v === 'boolean') subs.set(event.stream_id, { ...sub, isMuted: !v });
      break;
  }
}

// ---- settings with their documented defaults --------------------------------------------------

function boolSetting(state: AttentionState, name: string, fallback: boolean): boolean {
  const v = state.settings[name];
  return typeof v === 'boolean' ? v : fallback;
}

/** desktop_icon_count_display: 1 all unread messages, 2 private messages and mentions, 3 none. */
export type IconCountDisplay = 1 | 2 | 3;

export function iconCountDisplay(state: AttentionState): IconCountDisplay {
  const v = state.settings.desktop_icon_count_display;
  return v === 2 || v === 3 ? v : 1;
}

// ---- counts -------------------------------------------------------------------------------

/** Muted streams and topics do not count, unless the topic is unmuted/followed or the user mentioned. */
function isMutedFor(state: AttentionState, streamId: number | null, topic: string | null): boolean {
  if (streamId === null) return false;
  const policy = topic === null ? undefined : state.topicPolicies.get(topicKey(streamId, topic));
  if (policy === TOPIC_MUTED) return true;
  if (policy === TOPIC_UNMUTED || policy === TOPIC_FOLLOWED) return false;
  return state.subscriptions.get(streamId)?.isMuted ?? false;
}

export interface UnreadCounts {
  /** Unread messages outside muted streams and topics (mentions always count). */
  all: number;
  /** Unread private messages, and messages that mention the user. */
  privateAndMentions: number;
}

export function unreadCounts(state: AttentionState): UnreadCounts {
  let all = 0;
  let privateAndMentions = 0;
  for (const m of state.unread.values()) {
    if (m.kind === 'private' || m.mentioned) privateAndMentions += 1;
    if (m.mentioned || !isMutedFor(state, m.streamId, m.topic)) all += 1;
  }
  return { all, privateAndMentions };
}

/** One account's contribution to the badge, as its user's desktop_icon_count_display asks. */
export function accountBadgeCount(state: AttentionState): number {
  const mode = iconCountDisplay(state);
  if (mode === 3) return 0;
  const counts = unreadCounts(state);
  return mode === 1 ? counts.all : counts.privateAndMentions;
}

/** The dock/taskbar badge over every signed-in account. */
export function badgeCount(states: Iterable<AttentionState>): number {
  let total = 0;
  for (const s of states) total += accountBadgeCount(s);
  return total;
}

/** What a badge or overlay shows: nothing for 0, at most three characters. */
export function badgeText(count: number): string {
  if (count <= 0) return '';
  return count > 99 ? '99+' : String(count);
}

export function trayTooltip(count: number): string {
  if (count <= 0) return 'Confab';
  return `Confab: ${count} unread message${count === 1 ? '' : 's'}`;
}

// ---- notifications --------------------------------------------------------------------------

export type MessageEvent = EventOf<'message'>;

/** stream's desktop_notifications or wildcard_mentions_notify, null meaning the user's own setting. */
function streamReceives(
  state: AttentionState,
  streamId: number | undefined,
  which: 'desktop' | 'wildcard',
): boolean {
  if (streamId === undefined) return false;
  const sub = state.subscriptions.get(streamId);
  if (!sub) return false;
  const own = which === 'desktop' ? sub.desktopNotifications : sub.wildcardMentionsNotify;
  if (own !== null) return own;
  return which === 'desktop'
    ? boolSetting(state, 'enable_stream_desktop_notifications', false)
    : boolSetting(state, 'wildcard_mentions_notify', true);
}

/**
 * Whether a new message gets a desktop notification:
 * - never for the user's own or already read messages;
 * - never in a muted stream or topic, unless it mentions the user by name;
 * - a stream message when the stream's desktop_notifications says so (null: the user's
 *   enable_stream_desktop_notifications);
 * - otherwise only with enable_desktop_notifications on: private messages, direct mentions,
 *   alert words, and wildcard mentions where wildcard_mentions_notify (stream, then user) is on.
 */
export function shouldNotify(state: AttentionState, event: MessageEvent): boolean {
  const m = event.message;
  const flags = event.flags;
  if (flags.includes('read') || (state.userId !== null && m.sender_id === state.userId)) return false;
  const mentionedDirectly = flags.includes('mentioned');
  if (m.type === 'stream' && !mentionedDirectly && isMutedFor(state, m.stream_id ?? null, m.subject)) {
    return false;
  }
  if (m.type === 'stream' && streamReceives(state, m.stream_id, 'desktop')) return true;
  if (!boolSetting(state, 'enable_desktop_notifications', true)) return false;
  if (m.type === 'private' || mentionedDirectly || flags.includes('has_alert_word')) return true;
  return flags.some((f) => WILDCARD_FLAGS.includes(f)) && streamReceives(state, m.stream_id, 'wildcard');
}

export interface NotificationContent {
  title: string;
  body: string;
}

/** Longer bodies are cut, as the interface family's clients do. */
export const NOTIFICATION_BODY_MAX = 150;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Rendered message HTML to one line of plain text for a notification. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(br|\/p|\/li|\/div|\/h\d|\/blockquote|\/pre|\/tr)\b[^>]*>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === '#') {
        const code =
          name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
        return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      return ENTITIES[name.toLowerCase()] ?? whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

function truncate(text: string): string {
  const chars = [...text];
  return chars.length > NOTIFICATION_BODY_MAX ? `${chars.slice(0, NOTIFICATION_BODY_MAX).join('')}…` : text;
}

function stringField(m: Record<string, unknown>, name: string): string | null {
  const v = m[name];
  return typeof v === 'string' ? v : null;
}

/**
 * Title and body of the notification for a message. Private message content stays out when
 * pm_content_in_desktop_notifications is off (the notification may show on a locked screen).
 */
export function notificationContent(state: AttentionState, event: MessageEvent): NotificationContent {
  const m = event.message as MessageEvent['message'] & Record<string, unknown>;
  const sender = stringField(m, 'sender_full_name') ?? 'Someone';
  const raw = stringField(m, 'content') ?? '';
  const text = truncate(stringField(m, 'content_type') === 'text/x-markdown' ? raw.trim() : htmlToText(raw));

  if (m.type === 'stream') {
    const streamName =
      stringField(m, 'display_recipient') ??
      (m.stream_id !== undefined ? state.subscriptions.get(m.stream_id)?.name : undefined) ??
      'a stream';
    return { title: `${sender} (to ${streamName} > ${m.subject})`, body: text };
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

// ---- the tracker the glue keeps -------------------------------------------------------------

export interface PendingNotification extends NotificationContent {
  accountId: string;
  messageId: number;
}

export interface AttentionUpdate {
  /** New messages to notify about, in order. */
  notifications: PendingNotification[];
  /** Whether the badge count may have changed. */
  countsChanged: boolean;
  /** Whether the spellchecker language may have to change (default_language, active account). */
  languageChanged: boolean;
}

/**
 * Follows the core's pushes for every account. `focusedAccountId` is the account the user is
 * looking at in a focused window: its messages are on screen, so they get no notification.
 */
export class AttentionTracker {
  private readonly accounts = new Map<string, { generation: number; state: AttentionState }>();
  private activeAccountId: string | null = null;

  handlePush<P extends PushChannel>(
    channel: P,
    payload: PushPayloads[P],
    focusedAccountId: string | null = null,
  ): AttentionUpdate {
    const none: AttentionUpdate = { notifications: [], countsChanged: false, languageChanged: false };
    switch (channel) {
      case 'app.state': {
        const appState = payload as AppState;
        const activeChanged = this.activeAccountId !== appState.activeAccountId;
        this.activeAccountId = appState.activeAccountId;
        const known = new Set(appState.accounts.map((a) => a.id));
        let removed = false;
        for (const id of [...this.accounts.keys()]) {
          if (!known.has(id)) removed = this.accounts.delete(id) || removed;
        }
        return { ...none, countsChanged: removed, languageChanged: removed || activeChanged };
      }
      case 'account.snapshot': {
        const snap = payload as PushPayloads['account.snapshot'];
        const before = this.accounts.get(snap.accountId)?.state;
        const state = attentionFromSnapshot(snap.state);
        this.accounts.set(snap.accountId, { generation: snap.generation, state });
        return {
          ...none,
          countsChanged: true,
          languageChanged: before?.settings.default_language !== state.settings.default_language,
        };
      }
      case 'account.events': {
        const batch = payload as PushPayloads['account.events'];
        const entry = this.accounts.get(batch.accountId);
        // From an older queue than the snapshot we hold: already part of that snapshot.
        if (!entry || entry.generation !== batch.generation) return none;
        const state = applyAttentionEvents(entry.state, batch.events);
        this.accounts.set(batch.accountId, { generation: batch.generation, state });
        const notifications: PendingNotification[] = [];
        if (batch.accountId !== focusedAccountId) {
          for (const event of batch.events) {
            if (event.type !== 'message' || !shouldNotify(state, event)) continue;
            notifications.push({
              accountId: batch.accountId,
              messageId: event.message.id,
              ...notificationContent(state, event),
            });
          }
        }
        return {
          notifications,
          countsChanged: state !== entry.state,
          languageChanged: state.settings.default_language !== entry.state.settings.default_language,
        };
      }
      default:
        return none;
    }
  }

  badgeCount(): number {
    return badgeCount([...this.accounts.values()].map((a) => a.state));
  }

  /** The active account's default_language (the window shows that account). */
  defaultLanguage(): string | null {
    const id = this.activeAccountId ?? this.accounts.keys().next().value ?? null;
    const v = id === null ? undefined : this.accounts.get(id)?.state.settings.default_language;
    return typeof v === 'string' ? v : null;
  }

  get active(): string | null {
    return this.activeAccountId;
  }

  state(accountId: string): AttentionState | null {
    return this.accounts.get(accountId)?.state ?? null;
  }
}
