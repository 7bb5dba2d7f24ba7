/**
 * The organization settings PATCH /realm changes: those with a column of their own in `realm`,
 * and the rest, kept in realm.settings as JSON, with the defaults this service uses while a
 * setting was never changed. register's `realm_<name>` fields read them here.
 */
import type { Db } from './index';
import { type RealmRow, realmSettings } from './realm';

/** Settings stored in their own column of `realm`; booleans as 0/1. */
export const REALM_COLUMNS = [
  'name',
  'description',
  'default_language',
  'enable_spectator_access',
  'email_address_visibility',
  'message_retention_days',
  'name_changes_disabled',
  'email_changes_disabled',
] as const;
export type RealmColumn = (typeof REALM_COLUMNS)[number];

/**
 * Settings kept in realm.settings, with their defaults (the interface family's, except where
 * the service chose otherwise: read receipts are on). Limits of `null` mean no limit.
 */
export const REALM_SETTING_DEFAULTS = {
  allow_message_editing: true,
  message_content_edit_limit_seconds: 600 as number | null,
  edit_topic_policy: 5,
  message_content_delete_limit_seconds: 600 as number | null,
  delete_own_message_policy: 2,
  allow_edit_history: true,
  mandatory_topics: false,
  enable_read_receipts: true,
  waiting_period_threshold: 0,
  create_public_stream_policy: 1,
  create_private_stream_policy: 1,
  create_web_public_stream_policy: 2,
  invite_to_stream_policy: 1,
  move_messages_between_streams_policy: 2,
  user_group_edit_policy: 1,
  private_message_policy: 1,
  add_custom_emoji_policy: 1,
  bot_creation_policy: 1,
} as const;
export type RealmSettingName = keyof typeof REALM_SETTING_DEFAULTS;
export type RealmSettingValue = boolean | number | string | null;

/** One setting's value: the column's (booleans as booleans) or the JSON's, else its default. */
export function realmSettingValue(realm: RealmRow, name: RealmColumn | RealmSettingName): RealmSettingValue {
  if ((REALM_COLUMNS as readonly string[]).includes(name)) {
    const value = realm[name as RealmColumn];
    return COLUMN_BOOLEANS.has(name) ? value === 1 : value;
  }
  const stored = realmSettings(realm)[name];
  return stored === undefined
    ? REALM_SETTING_DEFAULTS[name as RealmSettingName]
    : (stored as RealmSettingValue);
}

const COLUMN_BOOLEANS: ReadonlySet<string> = new Set([
  'enable_spectator_access',
  'name_changes_disabled',
  'email_changes_disabled',
]);

/** register's `realm_<name>` for every setting kept in realm.settings. */
export function realmSettingsState(realm: RealmRow): Record<string, RealmSettingValue> {
  const state: Record<string, RealmSettingValue> = {};
  for (const name of Object.keys(REALM_SETTING_DEFAULTS) as RealmSettingName[]) {
    state[`realm_${name}`] = realmSettingValue(realm, name);
  }
  return state;
}

/** Writes changed settings: columns as they are stored, the others merged into the JSON. */
export function updateRealmSettings(
  db: Db,
  realm: RealmRow,
  changes: ReadonlyMap<RealmColumn | RealmSettingName, RealmSettingValue>,
): void {
  const json = realmSettings(realm);
  for (const [name, value] of changes) {
    if ((REALM_COLUMNS as readonly string[]).includes(name)) {
      const stored = typeof value === 'boolean' ? Number(value) : value;
      // The column name comes from REALM_COLUMNS, never from the request.
      db.prepare(`UPDATE realm SET ${name} = ? WHERE id = ?`).run(stored, realm.id);
    } else {
      json[name] = value;
    }
  }
  db.prepare('UPDATE realm SET settings = ? WHERE id = ?').run(JSON.stringify(json), realm.id);
}
