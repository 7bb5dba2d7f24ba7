/**
 * The presence substore: when each user was last active and last connected (the interface
 * family's modern form, Unix seconds), from register's `presences` in either of its forms
 * (modern, keyed by user id, with slim_presence; legacy, keyed by email, without), advanced by
 * `presence` events and by the answers of POST /users/me/presence (mergePresences).
 *
 * An event or an answer replaces what we hold for the user: it is the server's current record,
 * and it may move back in time on purpose (a user who turns presence_enabled off is given an
 * old idle report, so that everyone shows them offline at once). The legacy event form says
 * less than the modern one (one status and timestamp: an idle report does not carry the last
 * active time); the status it gives is the same. Whether someone is active, idle or offline
 * depends on the clock: presenceStatus compares with the time it is given, by the family's
 * rule (offline once the newest timestamp is older than the server's offline threshold).
 */
import type { EventOf, ModernPresence } from '../protocol';
import { type ById, withEntry } from './records';
import type { UsersState } from './users';

/** The family's defaults for servers that do not say (register's server_presence_*). */
export const DEFAULT_OFFLINE_THRESHOLD_SECONDS = 140;
export const DEFAULT_PRESENCE_PING_INTERVAL_SECONDS = 60;

export interface UserPresence {
  /** Last time a client reported the user active (Unix seconds). */
  active_timestamp?: number;
  /** Last time the user had any client connected, idle or not (Unix seconds). */
  idle_timestamp?: number;
}

export interface PresenceState {
  users: ById<UserPresence>;
  /** After this long without a report, a user shows as offline (server_presence_offline_threshold_seconds). */
  offlineThresholdSeconds: number;
  /** How often a client reports and asks for news (server_presence_ping_interval_seconds). */
  pingIntervalSeconds: number;
}

export type PresenceStatus = 'active' | 'idle' | 'offline';

interface LegacyEntry {
  status?: unknown;
  timestamp?: unknown;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

const later = (a: number | undefined, b: number | undefined): number | undefined =>
  a === undefined ? b : b === undefined ? a : Math.max(a, b);

/** A legacy entry ({client: {status, timestamp}}, aggregated too) in the modern form. */
function fromLegacy(clients: Record<string, unknown>): UserPresence {
  let active: number | undefined;
  let idle: number | undefined;
  for (const entry of Object.values(clients)) {
    if (!isRecord(entry)) continue;
    const { status, timestamp } = entry as LegacyEntry;
    const t = num(timestamp);
    if (t === undefined) continue;
    if (status === 'active') active = later(active, t);
    idle = later(idle, t);
  }
  return makePresence(active, idle);
}

function makePresence(active: number | undefined, idle: number | undefined): UserPresence {
  const out: UserPresence = {};
  if (active !== undefined) out.active_timestamp = active;
  if (idle !== undefined) out.idle_timestamp = idle;
  return out;
}

/** A modern entry (or a legacy one, recognised by its client objects). */
function entryPresence(value: unknown): UserPresence | null {
  if (!isRecord(value)) return null;
  if ('active_timestamp' in value || 'idle_timestamp' in value) {
    return makePresence(num(value.active_timestamp), num(value.idle_timestamp));
  }
  const legacy = fromLegacy(value);
  return Object.keys(legacy).length > 0 ? legacy : null;
}

/** `next` in place of what we hold, keeping the object when it says the same. */
function replaced(current: UserPresence | undefined, next: UserPresence): UserPresence {
  return current &&
    current.active_timestamp === next.active_timestamp &&
    current.idle_timestamp === next.idle_timestamp
    ? current
    : next;
}

/**
 * From register: `presences` keyed by user id (modern form) or by email (legacy form, mapped
 * to ids through the users we know), and the server's intervals.
 */
export function presenceFromSnapshot(
  snapshot: {
    presences?: unknown;
    server_presence_offline_threshold_seconds?: unknown;
    server_presence_ping_interval_seconds?: unknown;
  },
  users: UsersState,
): PresenceState {
  const byEmail = new Map<string, number>();
  for (const list of [users.active, users.nonActive]) {
    for (const user of Object.values(list)) byEmail.set(user.email, user.user_id);
  }
  const out: Record<number, UserPresence> = {};
  if (isRecord(snapshot.presences)) {
    for (const [key, value] of Object.entries(snapshot.presences)) {
      const userId = /^\d+$/.test(key) ? Number(key) : byEmail.get(key);
      const presence = entryPresence(value);
      if (userId !== undefined && presence) out[userId] = presence;
    }
  }
  return {
    users: out,
    offlineThresholdSeconds:
      num(snapshot.server_presence_offline_threshold_seconds) ?? DEFAULT_OFFLINE_THRESHOLD_SECONDS,
    pingIntervalSeconds:
      num(snapshot.server_presence_ping_interval_seconds) ?? DEFAULT_PRESENCE_PING_INTERVAL_SECONDS,
  };
}

/**
 * Modern entries by user id (the answer of POST /users/me/presence with slim_presence, the
 * family's newer event form), each replacing the user's.
 */
export function mergePresences(
  state: PresenceState,
  presences: Readonly<Record<string, ModernPresence>> | Readonly<Record<string, unknown>>,
): PresenceState {
  let users = state.users;
  for (const [key, value] of Object.entries(presences)) {
    if (!/^\d+$/.test(key)) continue;
    const presence = entryPresence(value);
    if (!presence) continue;
    const id = Number(key);
    users = withEntry(users, id, replaced(users[id], presence));
  }
  return users === state.users ? state : { ...state, users };
}

export function handlePresenceEvent(state: PresenceState, event: EventOf<'presence'>): PresenceState {
  let next = state;
  if (event.user_id !== undefined && event.presence) {
    const presence = fromLegacy(event.presence);
    if (Object.keys(presence).length > 0) {
      const users = withEntry(next.users, event.user_id, replaced(next.users[event.user_id], presence));
      next = users === next.users ? next : { ...next, users };
    }
  }
  return event.presences ? mergePresences(next, event.presences) : next;
}

/**
 * The family's rule (web client's status_from_raw): active while the last active report is
 * younger than the offline threshold, idle while the last connection is, offline after that.
 */
export function presenceStatus(
  presence: UserPresence | undefined,
  nowSeconds: number,
  offlineThresholdSeconds: number = DEFAULT_OFFLINE_THRESHOLD_SECONDS,
): PresenceStatus {
  if (!presence) return 'offline';
  const fresh = (t: number | undefined) => t !== undefined && nowSeconds - t < offlineThresholdSeconds;
  if (fresh(presence.active_timestamp)) return 'active';
  if (fresh(presence.idle_timestamp)) return 'idle';
  return 'offline';
}

/** The state as register's modern `presences`, for a snapshot written back from it. */
export function presencesToSnapshot(state: PresenceState): Record<string, UserPresence> {
  const out: Record<string, UserPresence> = {};
  for (const [id, presence] of Object.entries(state.users)) out[id] = { ...presence };
  return out;
}
