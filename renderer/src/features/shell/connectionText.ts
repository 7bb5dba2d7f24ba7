import type { ConnectionState } from '../../../../shared/ipc';

/** What the connection indicator says, at time `now` (epoch ms). */
export function connectionText(connection: ConnectionState, now: number): string {
  switch (connection.status) {
    case 'connected':
      return 'Connected';
    case 'connecting':
      return 'Connecting…';
    case 'reconnecting': {
      if (connection.nextRetryAt === null) return 'Reconnecting…';
      const seconds = Math.ceil((connection.nextRetryAt - now) / 1000);
      return seconds > 0 ? `Reconnecting… next try in ${seconds}s` : 'Reconnecting…';
    }
    case 'offline':
      return `Offline: ${connection.lastError ?? 'no connection to the server'}`;
  }
}

/** After this long without a live queue, events may have been missed for a while (2 minutes). */
export const STALE_AFTER_MS = 2 * 60_000;

/**
 * The banner over the main area while the account is not connected (null while it is, or is
 * connecting), given since when (epoch ms) it has not been: after STALE_AFTER_MS it adds that
 * what is shown may be out of date. While the account shows the main process's saved copy
 * (`cached`: the server was not reached since the app started) it says so, whatever the status.
 */
export function connectionBannerText(
  status: ConnectionState['status'],
  downSince: number | null,
  now: number,
  cached = false,
): string | null {
  if (cached) {
    // The app opened without reaching the server: everything shown is the saved copy.
    const saved = 'Showing what was saved on this computer; it may be out of date.';
    return status === 'connected' || status === 'connecting' ? saved : `${saved} Reconnecting to the server…`;
  }
  if (status === 'connected' || status === 'connecting') return null;
  const parts = [status === 'offline' ? 'You are offline.' : 'Reconnecting to the server…'];
  if (downSince !== null && now - downSince >= STALE_AFTER_MS) parts.push('Data may be out of date.');
  if (status === 'offline') parts.push('Your changes are kept on this computer and sent when you are back.');
  return parts.join(' ');
}
