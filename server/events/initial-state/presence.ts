/**
 * register's presence (fetch_event_types `presence`): everyone's presence others may see, in
 * the modern form keyed by user id with slim_presence, else the legacy form keyed by email,
 * with `presence_last_update_id` for the family's incremental POST /users/me/presence and the
 * intervals clients ping and judge "offline" by. The same builder as the presence endpoints.
 */
import { presencesFor } from '../../formats/presence';
import { OFFLINE_THRESHOLD_SECONDS, PRESENCE_PING_INTERVAL_SECONDS } from '../../presence';
import type { AreaRequest, State } from './index';

export function presenceState({ ctx, want, options }: AreaRequest): State {
  if (!want('presence')) return {};
  const now = Date.now() / 1000;
  const { presences, presence_last_update_id } = presencesFor(ctx.db, ctx.realmId, {
    slim: options.slimPresence,
    now: Math.floor(now),
  });
  return {
    presences,
    presence_last_update_id,
    server_timestamp: now,
    server_presence_ping_interval_seconds: PRESENCE_PING_INTERVAL_SECONDS,
    server_presence_offline_threshold_seconds: OFFLINE_THRESHOLD_SECONDS,
  };
}
