/** The organization (realm). One service process serves one realm. */
import { DEFAULT_SHARED_SETTINGS, ROLES, type Role, type SharedSettings } from '../../shared/protocol';
import type { Db } from './index';
import { keptReadVersion, readsCommitted, watching, watchRows } from './realm-data';

export interface RealmRow {
  id: number;
  name: string;
  description: string;
  date_created: number;
  enable_spectator_access: number;
  email_address_visibility: number;
  message_retention_days: number | null;
  default_language: string;
  name_changes_disabled: number;
  email_changes_disabled: number;
  settings: string;
  user_settings_defaults: string;
  demo_seeded: number;
}

/** email_address_visibility values of the interface family. */
export const EMAIL_VISIBILITY = { everyone: 1, members: 2, admins: 3, nobody: 4, moderators: 5 } as const;

/** System groups backing permission settings, as the interface family names them. */
export const SYSTEM_GROUPS = {
  owners: 'role:owners',
  administrators: 'role:administrators',
  moderators: 'role:moderators',
  fullMembers: 'role:fullmembers',
  members: 'role:members',
  everyone: 'role:everyone',
  internet: 'role:internet',
  nobody: 'role:nobody',
} as const;

/** The highest role number (lowest privilege) that belongs to each role group. */
export const SYSTEM_GROUP_MAX_ROLE: Record<string, Role | null> = {
  [SYSTEM_GROUPS.owners]: ROLES.owner,
  [SYSTEM_GROUPS.administrators]: ROLES.administrator,
  [SYSTEM_GROUPS.moderators]: ROLES.moderator,
  [SYSTEM_GROUPS.fullMembers]: ROLES.member,
  [SYSTEM_GROUPS.members]: ROLES.member,
  [SYSTEM_GROUPS.everyone]: ROLES.guest,
  [SYSTEM_GROUPS.internet]: ROLES.guest,
  [SYSTEM_GROUPS.nobody]: null,
};

interface KeptRealm {
  row: RealmRow | undefined;
  /** data_version when it was read: another connection's commit reads it again. */
  version: number;
}

const keptRealms = new WeakMap<Db, KeptRealm>();

/**
 * The organization's row, kept between requests (nearly every request reads it, and its
 * settings make it over a kilobyte): read again after any write of it, by this connection
 * (db/realm-data.ts watches them) or another (data_version). A kept row is shared: no one may
 * change it.
 */
export function getRealm(db: Db): RealmRow | undefined {
  let kept = keptRealms.get(db);
  if (kept === undefined) {
    if (!watching(db)) return readRealm(db);
    const made: KeptRealm = { row: undefined, version: -1 };
    watchRows(db, 'realm', () => {
      made.row = undefined;
    });
    keptRealms.set(db, made);
    kept = made;
  }
  const version = keptReadVersion(db);
  if (kept.row !== undefined && kept.version === version) return kept.row;
  const row = readRealm(db);
  if (row !== undefined && readsCommitted(db)) {
    kept.row = Object.freeze(row);
    kept.version = version;
  }
  return row;
}

function readRealm(db: Db): RealmRow | undefined {
  return db.prepare('SELECT * FROM realm ORDER BY id LIMIT 1').get() as RealmRow | undefined;
}

/** The service's one organization; its absence is a broken database, not a client error. */
export function requireRealm(db: Db): RealmRow {
  const realm = getRealm(db);
  if (!realm) throw new Error('No realm');
  return realm;
}

/** realm.settings parsed, by row and the text it was parsed from: a kept row is parsed once. */
const parsedSettings = new WeakMap<RealmRow, { text: string; value: Record<string, unknown> }>();

/**
 * Organization settings kept as JSON in realm.settings (absent keys: not set). The object is
 * the caller's own to change (updateRealmSettings does); its values are JSON scalars.
 */
export function realmSettings(realm: RealmRow): Record<string, unknown> {
  let parsed = parsedSettings.get(realm);
  if (parsed?.text !== realm.settings) {
    parsed = { text: realm.settings, value: parseSettings(realm.settings) };
    parsedSettings.set(realm, parsed);
  }
  return { ...parsed.value };
}

function parseSettings(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text || '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Creates the realm and its system groups; the caller runs it in a transaction. */
export function createRealm(db: Db, fields: { name: string; description?: string; now: number }): RealmRow {
  const info = db
    .prepare(
      'INSERT INTO realm (name, description, date_created, user_settings_defaults) VALUES (?, ?, ?, ?)',
    )
    .run(fields.name, fields.description ?? '', fields.now, JSON.stringify(DEFAULT_SHARED_SETTINGS));
  const realmId = Number(info.lastInsertRowid);
  const insertGroup = db.prepare(
    'INSERT INTO user_groups (realm_id, name, description, is_system_group) VALUES (?, ?, ?, 1)',
  );
  for (const name of Object.values(SYSTEM_GROUPS)) insertGroup.run(realmId, name, `System group ${name}`);
  return db.prepare('SELECT * FROM realm WHERE id = ?').get(realmId) as RealmRow;
}

/** The organization's system groups, in creation order. */
export function systemGroups(db: Db, realmId: number): { id: number; name: string }[] {
  return db
    .prepare('SELECT id, name FROM user_groups WHERE realm_id = ? AND is_system_group = 1 ORDER BY id')
    .all(realmId) as { id: number; name: string }[];
}

export function systemGroupId(db: Db, realmId: number, name: string): number {
  const row = db
    .prepare('SELECT id FROM user_groups WHERE realm_id = ? AND name = ? AND is_system_group = 1')
    .get(realmId, name) as { id: number } | undefined;
  if (!row) throw new Error(`System group ${name} is missing`);
  return row.id;
}

export function realmUserSettingsDefaults(realm: RealmRow): SharedSettings {
  return {
    ...DEFAULT_SHARED_SETTINGS,
    ...(JSON.parse(realm.user_settings_defaults) as Partial<SharedSettings>),
  };
}

export function setRealmUserSettingsDefaults(db: Db, realmId: number, defaults: SharedSettings): void {
  db.prepare('UPDATE realm SET user_settings_defaults = ? WHERE id = ?').run(
    JSON.stringify(defaults),
    realmId,
  );
}

/** Marks the realm as the seeded demo organization (server/demo.ts), under the demo's name. */
export function markDemoSeeded(db: Db, realmId: number, name: string): void {
  db.prepare('UPDATE realm SET demo_seeded = 1, name = ? WHERE id = ?').run(name, realmId);
}
