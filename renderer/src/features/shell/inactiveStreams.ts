/**
 * Which subscribed streams the sidebar demotes under "Inactive streams", per
 * `demote_inactive_streams`. The interface family demotes a stream without recent activity
 * (never a pinned one, never one with unreads); its recent activity is the server's
 * stream_weekly_traffic, the messages a week of the last four weeks.
 */
import type { Subscription } from '../../../../shared/protocol';

/** demote_inactive_streams: 1 automatic (when there are many streams), 2 always, 3 never. */
export const DEMOTE = { automatic: 1, always: 2, never: 3 } as const;
/** "Automatic" demotes once the user has this many streams (the family's threshold). */
export const DEMOTE_AUTOMATIC_MIN_STREAMS = 30;

/** Whether the setting demotes inactive streams for someone with this many subscriptions. */
export function demotesInactive(setting: unknown, subscribedCount: number): boolean {
  return (
    setting === DEMOTE.always ||
    (setting === DEMOTE.automatic && subscribedCount >= DEMOTE_AUTOMATIC_MIN_STREAMS)
  );
}

/**
 * The family's "inactive": no messages in the last weeks (stream_weekly_traffic 0). A stream
 * too new for a figure (null) is inactive only when it never had a message (first_message_id
 * null). Unreads make a stream active whatever the figures say.
 */
export function isInactive(
  s: Pick<Subscription, 'stream_weekly_traffic' | 'first_message_id'>,
  unreadCount = 0,
): boolean {
  if (unreadCount > 0) return false;
  if (s.stream_weekly_traffic === 0) return true;
  return s.stream_weekly_traffic === null && s.first_message_id === null;
}
