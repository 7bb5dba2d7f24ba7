/** The organization row and its JSON settings: the one lookup every action and state builder uses. */
import type { Db } from '../db';
import { getRealm, type RealmRow } from '../db/realm';

/** The service's one organization; its absence is a broken database, not a client error. */
export function requireRealm(db: Db): RealmRow {
  const realm = getRealm(db);
  if (!realm) throw new Error('No realm');
  return realm;
}

/** Organization settings kept as JSON in realm.settings (absent keys: not set). */
export function realmSettings(realm: RealmRow): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(realm.settings || '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
