/**
 * The window's side of notifications, for the active account (mounted once in the signed-in
 * frame):
 * - a notification clicked in the main process opens its conversation here (`app.openNarrow`);
 * - in browser mode, where no main process shows desktop notifications, Web Notifications while
 *   the page is hidden, by the same rules (shared/domain/notify.ts: per message, one summary for
 *   a burst); a click focuses the window and opens the conversation;
 * - the notification sound (the user's synthesized tone) for messages that make one, unless do
 *   not disturb is on. In the desktop app the system notification makes the sound while the
 *   window is not focused, so the tone plays here only while it is.
 *
 * The rules read the account's state as of the last render, which a batch of new messages does
 * not change in anything they look at (settings, subscriptions, muted topics and people).
 */
import { useEffect, useRef } from 'react';
import {
  type AccountState,
  type Narrow,
  notificationSoundOf,
  planNotifications,
  shouldPlaySound,
} from '../../../../shared/domain';
import { getBridge } from '../../bridge';
import { useAppInfo } from '../../queries/accounts';
import { useAccountId, useAccountState, useOnEventBatches } from '../../stores/hooks';
import { playSound } from '../settings/sounds';
import { isDoNotDisturb } from './dnd';
import { navigation } from './navigation';

const openConversation = (narrow: Narrow, messageId: number | null) =>
  navigation.navigate(
    messageId === null ? { name: 'narrow', narrow } : { name: 'narrow', narrow, messageId },
  );

/**
 * Follows `app.openNarrow` once for the window's life: the push may arrive while the frame
 * switches to the account it names (the core makes it active first), when no Notifier is mounted.
 * A request the window missed (it was created for the click) is taken from the core at start.
 */
let followingOpenNarrow = false;
function followOpenNarrow(): void {
  if (followingOpenNarrow) return;
  followingOpenNarrow = true;
  const bridge = getBridge();
  bridge.on('app.openNarrow', ({ narrow, messageId }) => {
    openConversation(narrow, messageId);
    // Seen: no window opened later takes it again.
    void bridge.invoke('app.takeOpenNarrow', {});
  });
  // A window created for the click loads after the push went out: the core kept it.
  void bridge.invoke('app.takeOpenNarrow', {}).then((result) => {
    if (result.ok && result.value) openConversation(result.value.narrow, result.value.messageId);
  });
}

/** Elements whose end separates words in a notification's one line of text. */
const BREAKS = /<\/(p|li|div|h[1-6]|blockquote|pre|tr|td|th)>|<br\s*\/?>/gi;

/** Message HTML to one line of text (parsed inertly: no script runs, no image loads). */
function htmlToText(html: string): string {
  const doc = new DOMParser().parseFromString(html.replace(BREAKS, '$& '), 'text/html');
  return (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}

function showWebNotifications(state: AccountState, events: Parameters<typeof planNotifications>[1]): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  for (const planned of planNotifications(state, events, htmlToText)) {
    // Silent: the tone is played here (below), once, whatever the browser's own sound.
    const notification = new Notification(planned.title, {
      body: planned.body,
      silent: true,
      tag: `confab-${planned.messageId}`,
    });
    notification.onclick = () => {
      window.focus();
      openConversation(planned.narrow, planned.messageId);
      notification.close();
    };
  }
}

export function Notifier() {
  const accountId = useAccountId();
  const state = useAccountState((s) => s);
  const stateRef = useRef(state);
  useEffect(() => {
    stateRef.current = state;
  }, [state]);
  const browserMode = useAppInfo().data?.mode === 'browser';
  const onEventBatches = useOnEventBatches();

  useEffect(followOpenNarrow, []);

  useEffect(
    () =>
      onEventBatches((batch) => {
        if (batch.accountId !== accountId || isDoNotDisturb()) return;
        const current = stateRef.current;
        if (browserMode && document.hidden) showWebNotifications(current, batch.events);
        const sound = notificationSoundOf(current);
        if (sound === null || (!browserMode && !document.hasFocus())) return;
        if (batch.events.some((e) => e.type === 'message' && shouldPlaySound(current, e))) playSound(sound);
      }),
    [onEventBatches, accountId, browserMode],
  );

  return null;
}
