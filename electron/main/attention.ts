/**
 * Badge, tray tooltip, desktop notifications and spellchecker languages, driven by the core's
 * pushes through AttentionTracker (electron/core/desktop/attention.ts), where every rule lives;
 * it reads each account's state, and whether do not disturb is on, from the core.
 */
import { app, type BrowserWindow, Notification, session, type Tray } from 'electron';
import type { Core } from '../core';
import { AttentionTracker, badgeText, trayTooltip } from '../core/desktop/attention';
import { spellcheckerLanguages } from '../core/desktop/desktop-prefs';
import { badgeOverlayIcon } from './icons';

export interface AttentionWiring {
  /** The window the app shows (null while none is open). */
  window(): BrowserWindow | null;
  tray: Tray | null;
  /** Brings the window up for an account (a notification was clicked, before its conversation opens). */
  showAccount(accountId: string): void;
}

export function wireAttention(core: Core, wiring: AttentionWiring): AttentionTracker {
  const tracker = new AttentionTracker(
    (accountId) => core.accountState(accountId),
    () => core.isDoNotDisturb(),
  );
  const overlay = badgeOverlayIcon();
  // Kept referenced until closed: a collected Notification loses its click handler.
  const shown = new Set<Notification>();
  let lastCount = -1;

  const focusedAccount = () => {
    const win = wiring.window();
    return win && !win.isDestroyed() && win.isVisible() && win.isFocused() ? tracker.active : null;
  };

  const updateBadge = () => {
    const count = tracker.badgeCount();
    if (count === lastCount) return;
    lastCount = count;
    if (process.platform === 'win32') {
      // Windows has no badge count: an overlay on the taskbar button, described for screen readers.
      const win = wiring.window();
      if (win && !win.isDestroyed()) {
        win.setOverlayIcon(count > 0 ? overlay : null, count > 0 ? `${badgeText(count)} unread` : '');
      }
    } else {
      // macOS dock; Linux where the desktop supports it (Unity launcher API).
      app.setBadgeCount(count);
    }
    wiring.tray?.setToolTip(trayTooltip(count));
  };

  const updateSpellchecker = () => {
    // macOS uses the system's spellchecker and its own language detection.
    if (process.platform === 'darwin') return;
    const ses = session.defaultSession;
    try {
      ses.setSpellCheckerLanguages(
        spellcheckerLanguages(tracker.defaultLanguage(), ses.availableSpellCheckerLanguages),
      );
    } catch (error) {
      console.error('confab: could not set the spellchecker languages', error);
    }
  };

  core.onPush((channel, payload) => {
    const update = tracker.handlePush(channel, payload, focusedAccount());
    if (update.countsChanged) updateBadge();
    if (update.languageChanged) updateSpellchecker();
    if (update.notifications.length === 0 || !Notification.isSupported()) return;
    for (const n of update.notifications) {
      // The system's own sound, per enable_sounds and notification_sound ("none": silent); the
      // renderer plays the chosen tone only for messages of the account in a focused window.
      const notification = new Notification({ title: n.title, body: n.body, silent: n.silent });
      shown.add(notification);
      notification.on('click', () => {
        shown.delete(notification);
        // Up and on the account at once; then the conversation (a summary: the newest's).
        wiring.showAccount(n.accountId);
        core
          .openNarrow(n.accountId, n.narrow, n.messageId)
          .catch((error: unknown) => console.error('confab: could not open the conversation', error));
      });
      notification.on('close', () => shown.delete(notification));
      notification.show();
    }
  });
  updateBadge();
  updateSpellchecker();
  return tracker;
}
