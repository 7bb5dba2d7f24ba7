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
