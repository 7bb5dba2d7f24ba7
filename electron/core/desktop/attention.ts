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
import {
  type AccountState,
  type MessageEvent,
  type NotificationContent,
  type PlannedNotification,
  planNotifications,
  selectBadgeCount,
  notificationContent as sharedNotificationContent,
} from '../../../shared/domain';
import type { AppState, PushChannel, PushPayloads } from '../../../shared/ipc';

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
// The rules live in shared/domain/notify.ts (the renderer's browser-mode notifications use them
// too); re-exported here, where the main process has always found them.

export {
  BURST_SIZE,
  burstSummary,
  type MessageEvent,
  NOTIFICATION_BODY_MAX,
  type NotificationContent,
  shouldNotify,
  shouldPlaySound,
} from '../../../shared/domain';

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

/**
 * Title and body of the notification for a message (shared/domain's rules, message HTML made
 * text by htmlToText). Private message content stays out when pm_content_in_desktop_notifications
 * is off (the notification may show on a locked screen).
 */
export function notificationContent(state: AccountState, event: MessageEvent): NotificationContent {
  return sharedNotificationContent(state, event, htmlToText);
}

// ---- the tracker the glue keeps -------------------------------------------------------------

/** A notification to show: a message's, or one summary of a burst (shared/domain/notify.ts). */
export interface PendingNotification extends PlannedNotification {
  accountId: string;
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
        const notifications: PendingNotification[] =
          batch.accountId !== focusedAccountId && !this.doNotDisturb()
            ? planNotifications(state, batch.events, htmlToText).map((n) => ({
                accountId: batch.accountId,
                ...n,
              }))
            : [];
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
