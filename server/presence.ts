/**
 * Presence: when each user was last active and last connected, kept in memory behind a small
 * interface (PresenceStore) so that a shared store (Redis, for the scale-out) can replace it.
 * This one writes every change through to the database (db/presence.ts), so the last-seen
 * times survive a restart, and loads them back on first use.
 *
 * The rules are the interface family's (update_user_presence): a report counts at most once
 * per PRESENCE_UPDATE_MIN_FREQ_SECONDS, "active" moves both times, any report moves the
 * connected time; every change takes the next organization-wide update id (the family's
 * `last_update_id` protocol); the change is worth a `presence` event when the user is new
 * to presence or comes back active after being offline.
 */
import type { Db } from './db';
import { loadPresences, type PresenceRow, savePresence } from './db/presence';

/** The family's intervals (settings.py), in seconds. */
export const PRESENCE_PING_INTERVAL_SECONDS = 60;
export const OFFLINE_THRESHOLD_SECONDS = 140;
const PRESENCE_UPDATE_MIN_FREQ_SECONDS = 55;
/** Reports this close to the connected time still count as "active" in the legacy form. */
export const LEGACY_ACTIVITY_OFFSET_SECONDS = 70;
/** How far back a user who turns presence off appears last online (the family's clock-skew margin). */
const PRESENCE_DISABLED_OFFSET_SECONDS = OFFLINE_THRESHOLD_SECONDS + 120;
/** How long presence data stays in the organization-wide answers by default. */
export const PRESENCE_HISTORY_DAYS = 14;

export type PresenceStatus = 'active' | 'idle';

export interface PresenceRecord {
  /** Unix seconds; null: never reported active. */
  lastActive: number | null;
  lastConnected: number;
  updateId: number;
}

export interface PresenceChange {
  record: PresenceRecord;
  /** Stored a change (a new update id). */
  changed: boolean;
  /** Others should learn it at once: a first report, or active again after being offline. */
  notify: boolean;
}

export interface PresenceStore {
  get(userId: number): PresenceRecord | undefined;
  /** Every user's record, by user id. */
  all(): ReadonlyMap<number, PresenceRecord>;
  report(userId: number, status: PresenceStatus, now: number): PresenceChange;
  /** Replaces the user's presence with the one a user who turned presence off keeps (hiddenRecord). */
  hide(userId: number, now: number): PresenceRecord;
}

/**
 * The presence a user who turns presence_enabled off keeps while it is off, as in the family
 * (do_change_user_setting): their data replaced by one idle report from a few minutes before
 * the threshold, so that every client shows them offline since then, at once. It keeps no
 * active time: the `presence` event (legacy form: one idle status and timestamp) cannot carry
 * one, so a client that applies the event holds exactly what a fresh register says.
 */
export function hiddenRecord(now: number, updateId: number): PresenceRecord {
  return { lastActive: null, lastConnected: now - PRESENCE_DISABLED_OFFSET_SECONDS, updateId };
}

/** The next state of a user's presence after a report (the family's update_user_presence). */
export function applyReport(
  before: PresenceRecord | undefined,
  status: PresenceStatus,
  now: number,
  nextUpdateId: number,
): PresenceChange {
  const sinceActive = before?.lastActive == null ? Number.POSITIVE_INFINITY : now - before.lastActive;
  const sinceConnected = before === undefined ? Number.POSITIVE_INFINITY : now - before.lastConnected;
  const record: PresenceRecord = before
    ? { ...before }
    : { lastActive: null, lastConnected: now, updateId: 0 };
  let changed = before === undefined;
  if (before && sinceConnected > PRESENCE_UPDATE_MIN_FREQ_SECONDS) {
    record.lastConnected = now;
    changed = true;
  }
  if (status === 'active' && sinceActive > PRESENCE_UPDATE_MIN_FREQ_SECONDS) {
    record.lastActive = now;
    if (record.lastConnected < now) record.lastConnected = now;
    changed = true;
  }
  if (changed) record.updateId = nextUpdateId;
  const cameOnline = status === 'active' && sinceActive > OFFLINE_THRESHOLD_SECONDS;
  return {
    record: changed ? record : (before ?? record),
    changed,
    notify: before === undefined || cameOnline,
  };
}

/** The in-memory store of one organization, written through to its database. */
class MemoryPresenceStore implements PresenceStore {
  private readonly records = new Map<number, PresenceRecord>();
  private lastUpdateId = 0;

  constructor(
    private readonly db: Db,
    private readonly realmId: number,
  ) {
    for (const row of loadPresences(db, realmId)) {
      this.records.set(row.user_id, {
        lastActive: row.last_active_time,
        lastConnected: row.last_connected_time,
        updateId: row.last_update_id,
      });
      this.lastUpdateId = Math.max(this.lastUpdateId, row.last_update_id);
    }
  }

  get(userId: number): PresenceRecord | undefined {
    return this.records.get(userId);
  }

  all(): ReadonlyMap<number, PresenceRecord> {
    return this.records;
  }

  report(userId: number, status: PresenceStatus, now: number): PresenceChange {
    const change = applyReport(this.records.get(userId), status, now, this.lastUpdateId + 1);
    if (change.changed) this.store(userId, change.record);
    return change;
  }

  hide(userId: number, now: number): PresenceRecord {
    const record = hiddenRecord(now, this.lastUpdateId + 1);
    this.store(userId, record);
    return record;
  }

  private store(userId: number, record: PresenceRecord): void {
    const row: PresenceRow = {
      user_id: userId,
      last_active_time: record.lastActive,
      last_connected_time: record.lastConnected,
      last_update_id: record.updateId,
    };
    savePresence(this.db, this.realmId, row);
    this.lastUpdateId = record.updateId;
    this.records.set(userId, record);
  }
}

const stores = new WeakMap<Db, Map<number, PresenceStore>>();

/** The presence store of an organization of this database (one per service, made on first use). */
export function presenceStore(db: Db, realmId: number): PresenceStore {
  let byRealm = stores.get(db);
  if (!byRealm) {
    byRealm = new Map();
    stores.set(db, byRealm);
  }
  let store = byRealm.get(realmId);
  if (!store) {
    store = new MemoryPresenceStore(db, realmId);
    byRealm.set(realmId, store);
  }
  return store;
}
