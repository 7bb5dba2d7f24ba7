/** The organization (realm). One service process serves one realm. */
import { DEFAULT_SHARED_SETTINGS, type SharedSettings } from '../../shared/protocol';
import type { Db } from './index';

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

export const EMAIL_VISIBILITY_EVERYONE = 1;

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
export const SYSTEM_GROUP_MAX_ROLE: Record<string, number | null> = {
  [SYSTEM_GROUPS.owners]: 100,
  [SYSTEM_GROUPS.administrators]: 200,
  [SYSTEM_GROUPS.moderators]: 300,
  [SYSTEM_GROUPS.fullMembers]: 400,
  [SYSTEM_GROUPS.members]: 400,
  [SYSTEM_GROUPS.everyone]: 600,
  [SYSTEM_GROUPS.internet]: 600,
  [SYSTEM_GROUPS.nobody]: null,
};

export function getRealm(db: Db): RealmRow | undefined {
  return db.prepare('SELECT * FROM realm ORDER BY id LIMIT 1').get() as RealmRow | undefined;
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
