/**
 * What the Electron glue needs to draw the user's attention: unread counts for the dock/taskbar
 * badge and the tray, and which new messages deserve a desktop notification, with its text.
 *
 * Pure and Electron-free (plain-Node tests check every rule). It keeps no state of its own: each
 * account's state is the shared/domain AccountState that the core's UpdateMachine already keeps
 * (the renderer's stores build the same one), so "unread" and "muted" have one definition, in
 * shared/domain/selectors.ts. The glue hands `AttentionTracker` the core's pushes as triggers and
 * only turns its answers into `app.setBadgeCount`, tray tooltips and `Notification`s. The rules
 * follow the interface family's web client (`should_send_desktop_notification`,
 * `receives_notifications`, the favicon count). While do not disturb is on (the core's, which
 * every window shares) no message notifies, so none makes a sound; the badge still counts.
 */
import sanitizeHtml from 'sanitize-html';
import { type AccountState, isTopicMuted, selectBadgeCount } from '../../../shared/domain';
import type { AppState, PushChannel, PushPayloads } from '../../../shared/ipc';
import type { EventOf } from '../../../shared/protocol';

const WILDCARD_FLAGS = ['wildcard_mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned'];

/** A user setting with its documented default when the snapshot lacks it. */
function boolSetting(state: AccountState, name: string, fallback: boolean): boolean {
  const v = state.userSettings[name];
  return typeof v === 'boolean' ? v : fallback;
}

// ---- the badge ------------------------------------------------------------------------------

/** The dock/taskbar badge over every signed-in account, each by its own desktop_icon_count_display. */
export function badgeCount(states: Iterable<AccountState>): number {
  let total = 0;
  for (const s of states) total += selectBadgeCount(s);
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
  state: AccountState,
  streamId: number | undefined,
  which: 'desktop' | 'wildcard',
): boolean {
  if (streamId === undefined) return false;
  const sub = state.subscriptions.subscribed[streamId];
  if (!sub) return false;
  const own = which === 'desktop' ? sub.desktop_notifications : sub.wildcard_mentions_notify;
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
export function shouldNotify(state: AccountState, event: MessageEvent): boolean {
  const m = event.message;
  const flags = event.flags;
  if (flags.includes('read') || (state.userId !== null && m.sender_id === state.userId)) return false;
  const mentionedDirectly = flags.includes('mentioned');
  if (
    m.type === 'stream' &&
    !mentionedDirectly &&
    m.stream_id !== undefined &&
    isTopicMuted(state, m.stream_id, m.subject)
  ) {
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

/** Elements whose end separates words: "<p>a</p><p>b</p>" reads "a b", not "ab". */
const BREAKING_TAGS = new Set('br p li div h1 h2 h3 h4 h5 h6 blockquote pre tr'.split(' '));

/** sanitize-html escapes exactly these three in the text it returns; a notification shows them plain. */
const ESCAPED: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>' };

/**
 * Rendered message HTML to one line of plain text for a notification, with the sanitizer the
 * server renders messages with: no tag survives, script and style content is dropped, and
 * character references are decoded by its HTML parser (as a browser would decode them).
 */
/**
 * A numeric reference to no character (`&#0;`, or past U+10FFFF) is shown as written, as this
 * app always has, rather than as the U+FFFD a browser would put there.
 */
function keepReferencesToNoCharacter(html: string): string {
  return html.replace(/&#(x[0-9a-f]+|\d+);/gi, (whole, ref: string) => {
    const code = ref[0] === 'x' || ref[0] === 'X' ? Number.parseInt(ref.slice(1), 16) : Number(ref);
    return code > 0 && code <= 0x10ffff ? whole : `&amp;${whole.slice(1)}`;
  });
}

export function htmlToText(html: string): string {
  const parts: string[] = [];
  sanitizeHtml(keepReferencesToNoCharacter(html), {
    allowedTags: [],
    allowedAttributes: {},
    textFilter: (text) => {
      parts.push(text.replace(/&(amp|lt|gt);/g, (escaped) => ESCAPED[escaped] ?? escaped));
      return text;
    },
    onCloseTag: (name) => {
      if (BREAKING_TAGS.has(name)) parts.push(' ');
    },
  });
  return parts.join('').replace(/\s+/g, ' ').trim();
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
export function notificationContent(state: AccountState, event: MessageEvent): NotificationContent {
  const m = event.message as MessageEvent['message'] & Record<string, unknown>;
  const sender = stringField(m, 'sender_full_name') ?? 'Someone';
  const raw = stringField(m, 'content') ?? '';
  const text = truncate(stringField(m, 'content_type') === 'text/x-markdown' ? raw.trim() : htmlToText(raw));

  if (m.type === 'stream') {
    const streamName =
      stringField(m, 'display_recipient') ??
      (m.stream_id !== undefined ? state.subscriptions.subscribed[m.stream_id]?.name : undefined) ??
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

/** Where the tracker reads an account's state: the core's, as of its latest push. */
export type AccountStateSource = (accountId: string) => { generation: number; state: AccountState } | null;

/** Whether do not disturb is on now (the core's, asked at each batch: it ends by itself). */
export type DoNotDisturbSource = () => boolean;

const defaultLanguageOf = (state: AccountState | undefined): unknown => state?.userSettings.default_language;

/**
 * Follows the core's pushes for every account, reading each account's state from the core
 * (`stateOf`) when a push says it changed. `focusedAccountId` is the account the user is looking
 * at in a focused window: its messages are on screen, so they get no notification. While
 * `doNotDisturb()` says so, no message gets one.
 */
export class AttentionTracker {
  /** Accounts with a snapshot: the state of the last push seen, and its generation. */
  private readonly accounts = new Map<string, { generation: number; state: AccountState }>();
  private activeAccountId: string | null = null;

  constructor(
    private readonly stateOf: AccountStateSource,
    private readonly doNotDisturb: DoNotDisturbSource,
  ) {}

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
        const current = this.stateOf(snap.accountId);
        if (!current || current.generation !== snap.generation) return none;
        const before = this.accounts.get(snap.accountId)?.state;
        this.accounts.set(snap.accountId, current);
        return {
          ...none,
          countsChanged: true,
          languageChanged: defaultLanguageOf(before) !== defaultLanguageOf(current.state),
        };
      }
      case 'account.events': {
        const batch = payload as PushPayloads['account.events'];
        const entry = this.accounts.get(batch.accountId);
        const current = this.stateOf(batch.accountId);
        // Of an account without a snapshot yet, or of an older queue than the state the core
        // holds now (its events are part of that state's snapshot).
        if (!entry || !current || current.generation !== batch.generation) return none;
        const state = current.state;
        this.accounts.set(batch.accountId, current);
        const notifications: PendingNotification[] = [];
        if (batch.accountId !== focusedAccountId && !this.doNotDisturb()) {
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
          countsChanged: selectBadgeCount(state) !== selectBadgeCount(entry.state),
          languageChanged: defaultLanguageOf(state) !== defaultLanguageOf(entry.state),
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
    const v = id === null ? undefined : defaultLanguageOf(this.accounts.get(id)?.state);
    return typeof v === 'string' ? v : null;
  }

  get active(): string | null {
    return this.activeAccountId;
  }
}
