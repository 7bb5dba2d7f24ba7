/**
 * Presence on the wire, in the interface family's two forms: the modern one keyed by user id
 * ({active_timestamp, idle_timestamp}: slim_presence, last_update_id) and the legacy one keyed
 * by email ({website, aggregated}: status and timestamp of the newest report). One builder
 * serves register, POST /users/me/presence, GET /realm/presence and the presence events.
 */
import type { Db } from '../db';
import { presenceUsers } from '../db/presence';
import {
  LEGACY_ACTIVITY_OFFSET_SECONDS,
  PRESENCE_HISTORY_DAYS,
  type PresenceRecord,
  presenceStore,
} from '../presence';

export function modernPresence(record: PresenceRecord): Record<string, number> {
  return record.lastActive === null
    ? { idle_timestamp: record.lastConnected }
    : { active_timestamp: record.lastActive, idle_timestamp: record.lastConnected };
}

/** The legacy form's one client entry (the family no longer tracks clients: always `website`). */
export function legacyClientPresence(record: PresenceRecord) {
  const active =
    record.lastActive !== null && record.lastActive + LEGACY_ACTIVITY_OFFSET_SECONDS >= record.lastConnected;
  return {
    client: 'website',
    status: active ? 'active' : 'idle',
    timestamp: active ? (record.lastActive as number) : record.lastConnected,
    pushable: false,
  };
}

export function legacyPresence(record: PresenceRecord) {
  const website = legacyClientPresence(record);
  const { pushable: _, ...aggregated } = website;
  return { website, aggregated };
}

export interface PresencesRequest {
  /** The modern form keyed by user id; otherwise the legacy form keyed by email. */
  slim: boolean;
  /** Only changes after this update id (the family's last_update_id); also means the modern form. */
  lastUpdateId?: number | undefined;
  historyLimitDays?: number | undefined;
  now: number;
}

/**
 * Everyone's presence others may see (active humans, reported within the history limit; a
 * user with presence_enabled off shows the old idle report they were left with), with the newest update id among them (`presence_last_update_id`: -1 for none, or
 * the client's own when nothing is newer).
 */
export function presencesFor(
  db: Db,
  realmId: number,
  request: PresencesRequest,
): { presences: Record<string, unknown>; presence_last_update_id: number } {
  const store = presenceStore(db, realmId);
  const since = request.lastUpdateId;
  const modern = request.slim || since !== undefined;
  // A client that already has data needs every change since, however old.
  const days = since !== undefined && since > 0 ? null : (request.historyLimitDays ?? PRESENCE_HISTORY_DAYS);
  const cutoff = days === null ? Number.NEGATIVE_INFINITY : request.now - days * 86400;
  const presences: Record<string, unknown> = {};
  let lastId = since ?? -1;
  for (const user of presenceUsers(db, realmId)) {
    const record = store.get(user.id);
    if (!record || record.lastConnected < cutoff || (since !== undefined && record.updateId <= since))
      continue;
    presences[modern ? String(user.id) : user.email] = modern
      ? modernPresence(record)
      : legacyPresence(record);
    lastId = Math.max(lastId, record.updateId);
  }
  return { presences, presence_last_update_id: lastId };
}
