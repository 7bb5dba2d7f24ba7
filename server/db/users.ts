/** Users and bots: rows, lookups and the stored settings. */
import {
  DEFAULT_PERSONAL_SETTINGS,
  DEFAULT_SHARED_SETTINGS,
  ROLES,
  type Role,
  type SettingName,
  type SettingValue,
  type UserSettingsValues,
} from '../../shared/protocol';
import type { Db } from './index';
import type { ProfileValueRow } from './realm-data';

export interface UserRow {
  id: number;
  realm_id: number;
  email: string;
  delivery_email: string;
  full_name: string;
  password_hash: string | null;
  api_key: string;
  role: Role;
  is_billing_admin: number;
  can_create_users: number;
  is_bot: number;
  bot_type: number | null;
  bot_owner_id: number | null;
  is_active: number;
  timezone: string;
  default_language: string;
  date_joined_ms: number;
  avatar_source: 'G' | 'U';
  avatar_version: number;
  settings: string;
}

export const BOT_TYPES = { generic: 1, incomingWebhook: 2, outgoingWebhook: 3, embedded: 4 } as const;

export function getUserById(db: Db, id: number): UserRow | undefined {
  return db.prepare('SELECT * FROM users WHERE id = ?').get(id) as UserRow | undefined;
}

/**
 * By display email or real address, case-insensitively (both columns are NOCASE); the older
 * account when the two name different people. Each column's unique index gives at most one id
 * without reading the row, and only the smaller id's row is read (an OR of the columns collects
 * both searches' rows and sorts them): every authenticated request runs this.
 */
export function getUserByEmail(db: Db, realmId: number, email: string): UserRow | undefined {
  return db
    .prepare(
      `SELECT * FROM users WHERE id = (SELECT MIN(id) FROM (
         SELECT id FROM users WHERE realm_id = ? AND email = ?
         UNION ALL SELECT id FROM users WHERE realm_id = ? AND delivery_email = ?))`,
    )
    .get(realmId, email, realmId, email) as UserRow | undefined;
}

/** By display email only: where the real address must not identify anyone. */
export function getUserByDisplayEmail(db: Db, realmId: number, email: string): UserRow | undefined {
  return db.prepare('SELECT * FROM users WHERE realm_id = ? AND email = ?').get(realmId, email) as
    | UserRow
    | undefined;
}

/** The user an API key belongs to (incoming webhooks pass the key alone). */
export function getUserByApiKey(db: Db, realmId: number, apiKey: string): UserRow | undefined {
  return db.prepare('SELECT * FROM users WHERE realm_id = ? AND api_key = ?').get(realmId, apiKey) as
    | UserRow
    | undefined;
}

export function countUsers(db: Db): number {
  return (db.prepare('SELECT COUNT(*) AS n FROM users').get() as { n: number }).n;
}

export function listUsers(db: Db, realmId: number): UserRow[] {
  return db.prepare('SELECT * FROM users WHERE realm_id = ? ORDER BY id').all(realmId) as UserRow[];
}

export function activeUserIds(db: Db, realmId: number): number[] {
  return (
    db.prepare('SELECT id FROM users WHERE realm_id = ? AND is_active = 1 ORDER BY id').all(realmId) as {
      id: number;
    }[]
  ).map((r) => r.id);
}

/** Active users' names, for resolving mentions. */
export function activeUserNames(db: Db, realmId: number): { id: number; full_name: string }[] {
  return db.prepare('SELECT id, full_name FROM users WHERE realm_id = ? AND is_active = 1').all(realmId) as {
    id: number;
    full_name: string;
  }[];
}

/** The longest-standing active owner (the owner of bots the service creates itself). */
export function firstActiveOwnerId(db: Db, realmId: number): number | undefined {
  const row = db
    .prepare('SELECT id FROM users WHERE realm_id = ? AND role = ? AND is_active = 1 ORDER BY id LIMIT 1')
    .get(realmId, ROLES.owner) as { id: number } | undefined;
  return row?.id;
}

export interface NewUser {
  realmId: number;
  email: string;
  deliveryEmail?: string;
  fullName: string;
  passwordHash: string | null;
  apiKey: string;
  role: UserRow['role'];
  canCreateUsers?: boolean;
  isBot?: boolean;
  botType?: number | null;
  botOwnerId?: number | null;
  timezone?: string;
  defaultLanguage?: string;
  dateJoinedMs: number;
  settings: Partial<Record<SettingName, SettingValue>>;
}

export function insertUser(db: Db, user: NewUser): number {
  const info = db
    .prepare(
      `INSERT INTO users (realm_id, email, delivery_email, full_name, password_hash, api_key, role,
         can_create_users, is_bot, bot_type, bot_owner_id, timezone, default_language, date_joined_ms, settings)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      user.realmId,
      user.email,
      user.deliveryEmail ?? user.email,
      user.fullName,
      user.passwordHash,
      user.apiKey,
      user.role,
      user.canCreateUsers ? 1 : 0,
      user.isBot ? 1 : 0,
      user.botType ?? null,
      user.botOwnerId ?? null,
      user.timezone ?? '',
      user.defaultLanguage ?? 'en',
      user.dateJoinedMs,
      JSON.stringify(user.settings),
    );
  const userId = Number(info.lastInsertRowid);
  db.prepare('INSERT INTO recipients (type, type_id) VALUES (1, ?)').run(userId);
  return userId;
}

/** Settings that live in their own column (they appear on the User object, too). */
const COLUMN_SETTINGS = new Set<SettingName>(['timezone', 'default_language']);

/** Every setting of a user; settings added after the user was created take the defaults. */
export function readUserSettings(user: UserRow): UserSettingsValues {
  const stored = JSON.parse(user.settings) as Partial<UserSettingsValues>;
  return {
    ...DEFAULT_SHARED_SETTINGS,
    ...DEFAULT_PERSONAL_SETTINGS,
    ...stored,
    timezone: user.timezone,
    default_language: user.default_language,
  };
}

/** Writes changed settings of one user; the caller runs it in a transaction. */
export function writeUserSettings(
  db: Db,
  user: UserRow,
  changes: Partial<Record<SettingName, SettingValue>>,
): void {
  const stored = JSON.parse(user.settings) as Record<string, SettingValue>;
  let jsonChanged = false;
  for (const [name, value] of Object.entries(changes) as [SettingName, SettingValue][]) {
    if (COLUMN_SETTINGS.has(name)) {
      // The column name comes from the fixed set above, never from the request.
      db.prepare(`UPDATE users SET ${name} = ? WHERE id = ?`).run(value, user.id);
    } else {
      stored[name] = value;
      jsonChanged = true;
    }
  }
  if (jsonChanged)
    db.prepare('UPDATE users SET settings = ? WHERE id = ?').run(JSON.stringify(stored), user.id);
}

/**
 * The stored profile values of some users, in the fields' order (realm-data.ts's
 * profileFieldValues reads the whole organization's). The ids travel as one JSON array, so the
 * statement's text is the same for any number of them.
 */
export function profileFieldValuesOfUsers(
  db: Db,
  realmId: number,
  userIds: readonly number[],
): ProfileValueRow[] {
  if (userIds.length === 1) {
    return db
      .prepare(
        `SELECT v.user_id, v.field_id, v.value, v.rendered_value FROM custom_profile_field_values v
         JOIN custom_profile_fields f ON f.id = v.field_id WHERE f.realm_id = ? AND v.user_id = ?
         ORDER BY f."order", f.id`,
      )
      .all(realmId, userIds[0]) as ProfileValueRow[];
  }
  return db
    .prepare(
      `SELECT v.user_id, v.field_id, v.value, v.rendered_value FROM custom_profile_field_values v
       JOIN custom_profile_fields f ON f.id = v.field_id
       WHERE f.realm_id = ? AND v.user_id IN (SELECT value FROM json_each(?))
       ORDER BY f."order", f.id`,
    )
    .all(realmId, JSON.stringify(userIds)) as ProfileValueRow[];
}

export function maxMessageIdForUser(db: Db, userId: number): number {
  const row = db.prepare('SELECT MAX(message_id) AS m FROM user_messages WHERE user_id = ?').get(userId) as {
    m: number | null;
  };
  return row.m ?? -1;
}

export function setFullName(db: Db, userId: number, fullName: string): void {
  db.prepare('UPDATE users SET full_name = ? WHERE id = ?').run(fullName, userId);
}

export function setPasswordHash(db: Db, userId: number, passwordHash: string): void {
  db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(passwordHash, userId);
}

/** By display email: the demo gives its known accounts a new password (server/demo.ts). */
export function setPasswordHashByEmail(db: Db, realmId: number, email: string, passwordHash: string): void {
  db.prepare('UPDATE users SET password_hash = ? WHERE realm_id = ? AND email = ?').run(
    passwordHash,
    realmId,
    email,
  );
}

/** A confirmed address change; with public addresses the display email follows the real one. */
export function setUserEmail(db: Db, userId: number, email: string, alsoDisplayEmail: boolean): void {
  if (alsoDisplayEmail) {
    db.prepare('UPDATE users SET delivery_email = ?, email = ? WHERE id = ?').run(email, email, userId);
  } else {
    db.prepare('UPDATE users SET delivery_email = ? WHERE id = ?').run(email, userId);
  }
}

export function setUserRole(db: Db, userId: number, role: Role): void {
  db.prepare('UPDATE users SET role = ? WHERE id = ?').run(role, userId);
}

export function setUserActive(db: Db, userId: number, active: boolean): void {
  db.prepare('UPDATE users SET is_active = ? WHERE id = ?').run(active ? 1 : 0, userId);
}

/** How many active owners the organization has (the last one cannot leave that role). */
export function countActiveOwners(db: Db, realmId: number): number {
  return (
    db
      .prepare('SELECT COUNT(*) AS n FROM users WHERE realm_id = ? AND role = ? AND is_active = 1')
      .get(realmId, ROLES.owner) as { n: number }
  ).n;
}

/** The bots a user owns, active or not (GET /bots, register's realm_bots). */
export function botsOwnedBy(db: Db, ownerId: number): UserRow[] {
  return db
    .prepare('SELECT * FROM users WHERE bot_owner_id = ? AND is_bot = 1 ORDER BY id')
    .all(ownerId) as UserRow[];
}

/** Every bot of the organization, active or not (an administrator's realm_bots). */
export function botsOfRealm(db: Db, realmId: number): UserRow[] {
  return db
    .prepare('SELECT * FROM users WHERE realm_id = ? AND is_bot = 1 ORDER BY id')
    .all(realmId) as UserRow[];
}

/**
 * Users by id, in one statement (the ids travel as one JSON array); ids of no user are left
 * out. The people with an event queue among a bulk subscription's, whose events need their
 * settings.
 */
export function usersByIds(db: Db, userIds: readonly number[]): UserRow[] {
  return db
    .prepare('SELECT * FROM users WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id')
    .all(JSON.stringify(userIds)) as UserRow[];
}

/** What subscribing and unsubscribing people reads of each of them. */
export type PrincipalRow = Pick<
  UserRow,
  'id' | 'realm_id' | 'is_active' | 'email' | 'role' | 'is_bot' | 'bot_owner_id'
>;

/**
 * The PrincipalRow of users by id, in one statement; ids of no user are left out. A request
 * may name thousands of people, and a whole row carries the user's settings as JSON: reading
 * 2 000 whole rows costs about three times more.
 */
export function principalRows(db: Db, userIds: readonly number[]): PrincipalRow[] {
  return db
    .prepare(
      `SELECT id, realm_id, is_active, email, role, is_bot, bot_owner_id FROM users
       WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`,
    )
    .all(JSON.stringify(userIds)) as PrincipalRow[];
}

/**
 * The realm's active users, by id, with only what the stream rules of permissions.ts read (the
 * role): who may see a stream or its subscribers is decided for each of them. A whole user row
 * carries the settings as JSON, which makes reading every row of a large organization cost
 * tens of milliseconds; these two columns cost a few.
 */
export function activeUserRoles(db: Db, realmId: number): Pick<UserRow, 'id' | 'role'>[] {
  return db
    .prepare('SELECT id, role FROM users WHERE realm_id = ? AND is_active = 1 ORDER BY id')
    .all(realmId) as Pick<UserRow, 'id' | 'role'>[];
}
